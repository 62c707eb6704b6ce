// A single-device program that is not partitioned: the simulator runs the
// xla.trace regions as written (no inlining).
func.func @main(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %y = xla.trace "step" {
    %a = xla.trace "forward" {
      %m = xla.matmul %x, %x : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
      xla.yield %m : tensor<256x256xf32>
    } : tensor<256x256xf32>
    %b = xla.trace "backward" {
      %e = xla.exp %a : tensor<256x256xf32>
      xla.yield %e : tensor<256x256xf32>
    } : tensor<256x256xf32>
    xla.yield %b : tensor<256x256xf32>
  } : tensor<256x256xf32>
  %z = xla.tanh %y : tensor<256x256xf32>
  return %z : tensor<256x256xf32>
}
