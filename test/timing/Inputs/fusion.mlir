// XLA's fusions in the timing model (docs/simulator.md 3), one device.
func.func @main(%a: tensor<256x256xf32>, %w: tensor<256x256xf32>,
                %c: tensor<256x256xf32>) -> (tensor<256x256xf32>, tensor<256xf32>) {
  // Producer fusion into the MXU operand: tanh is not written.
  %u = xla.tanh %a : tensor<256x256xf32>
  // Output fusion: the product goes straight into the add.
  %d = xla.matmul %u, %w : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %b = xla.add %d, %c : tensor<256x256xf32>
  // exp fuses into the reduce (input fusion): one hero per fusion, so this
  // product is written and read back.
  %d2 = xla.matmul %a, %w : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %e = xla.exp %d2 : tensor<256x256xf32>
  %r = xla.reduce sum %e, dims = [1] : (tensor<256x256xf32>) -> tensor<256xf32>
  return %b, %r : tensor<256x256xf32>, tensor<256xf32>
}
