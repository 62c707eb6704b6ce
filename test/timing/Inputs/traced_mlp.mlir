// A two-layer MLP training-style step with torch_xla-like trace annotations
// (xla.trace = xp.Trace), sharded data x model (Megatron) on 4 devices.
xla.mesh @mesh = <["data"=2, "model"=2]>

func.func @step(
    %x: tensor<64x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
    %w1: tensor<256x512xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
    %w2: tensor<512x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<64x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %y = xla.trace "train_step" {
    %h = xla.trace "layer1" {
      %m = xla.matmul %x, %w1 : (tensor<64x256xf32>, tensor<256x512xf32>) -> tensor<64x512xf32>
      %g = xla.gelu %m : tensor<64x512xf32>
      xla.yield %g : tensor<64x512xf32>
    } : tensor<64x512xf32>
    %o = xla.trace "layer2" {
      %m2 = xla.matmul %h, %w2 : (tensor<64x512xf32>, tensor<512x256xf32>) -> tensor<64x256xf32>
      %t = xla.tanh %m2 : tensor<64x256xf32>
      xla.yield %t : tensor<64x256xf32>
    } : tensor<64x256xf32>
    xla.yield %o : tensor<64x256xf32>
  } : tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
