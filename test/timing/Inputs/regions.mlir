// A max pool, its gradient and an argmax on one device (regions.test).
func.func @main(%x: tensor<1x64x64x8xf32>, %v: tensor<64x128xf32>)
    -> (tensor<1x64x64x8xf32>, tensor<64xi32>) {
  %ninf = xla.constant dense<0xFF800000> : tensor<f32>
  %zero = xla.constant dense<0.0> : tensor<f32>
  %izero = xla.constant dense<0> : tensor<i32>
  %y = xla.reduce_window(%x) init(%ninf) window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], base_dilations = [1, 1, 1, 1], window_dilations = [1, 1, 1, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = xla.max %a, %b : tensor<f32>
    xla.yield %m : tensor<f32>
  } : (tensor<1x64x64x8xf32>, tensor<f32>) -> tensor<1x32x32x8xf32>
  %g = xla.select_and_scatter %x, %y, %zero, window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1], padding = [[0, 0], [0, 0], [0, 0], [0, 0]] select {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = xla.compare ge, %a, %b : tensor<f32>
    xla.yield %ge : tensor<i1>
  } scatter {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = xla.add %a, %b : tensor<f32>
    xla.yield %s : tensor<f32>
  } : (tensor<1x64x64x8xf32>, tensor<1x32x32x8xf32>, tensor<f32>) -> tensor<1x64x64x8xf32>
  %iota = xla.iota dim = 1 : tensor<64x128xi32>
  %mv, %mi = xla.reduce_region(%v, %iota) init(%ninf, %izero) dims = [1] {
  ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %bv: tensor<f32>, %bi: tensor<i32>):
    %gt = xla.compare gt, %av, %bv : tensor<f32>
    %eq = xla.compare eq, %av, %bv : tensor<f32>
    %sv = xla.select %gt, %av, %bv : tensor<f32>
    %lo = xla.min %ai, %bi : tensor<i32>
    %t = xla.select %eq, %lo, %bi : tensor<i32>
    %si = xla.select %gt, %ai, %t : tensor<i32>
    xla.yield %sv, %si : tensor<f32>, tensor<i32>
  } : (tensor<64x128xf32>, tensor<64x128xi32>, tensor<f32>, tensor<i32>) -> (tensor<64xf32>, tensor<64xi32>)
  return %g, %mi : tensor<1x64x64x8xf32>, tensor<64xi32>
}
