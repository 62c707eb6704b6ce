// RUN: xla-opt %s --xla-annotate-sharding-rules | FileCheck %s
// RUN: xla-opt %s --xla-annotate-sharding-rules --xla-annotate-sharding-rules | FileCheck %s

// One function per op family; every computational op gets its rule.

xla.mesh @mesh = <["x"=2, "y"=4]>
// CHECK-LABEL: func.func @sources
func.func @sources() -> (tensor<4x8xf32>, tensor<4x8xi32>, tensor<8x4xf32>, tensor<i32>, tensor<i32>) {
// CHECK: xla.constant {{.*}}xla.sharding_rule = #xla.op_sharding_rule<()->([i, j]) {i=4, j=8}>
  %0 = xla.constant dense<1.0> : tensor<4x8xf32>
// CHECK: xla.iota {{.*}}xla.sharding_rule = #xla.op_sharding_rule<()->([i, j]) {i=4, j=8}>
  %1 = xla.iota dim = 1 : tensor<4x8xi32>
// CHECK: xla.rng {{.*}}xla.sharding_rule = #xla.op_sharding_rule<()->([i, j]) {i=8, j=4}>
  %2 = xla.rng normal seed = 3, a = 0.0, b = 1.0 : tensor<8x4xf32>
// CHECK: xla.partition_id {{.*}}xla.sharding_rule = #xla.op_sharding_rule<()->([]) {}>
  %3 = xla.partition_id : tensor<i32>
// CHECK: xla.axis_index {{.*}}xla.sharding_rule = #xla.op_sharding_rule<()->([]) {}>
  %4 = xla.axis_index @mesh["x"] : tensor<i32>
  return %0, %1, %2, %3, %4 : tensor<4x8xf32>, tensor<4x8xi32>, tensor<8x4xf32>, tensor<i32>, tensor<i32>
}
// CHECK-LABEL: func.func @rng_partitioned
func.func @rng_partitioned(%off: tensor<2xi64>) -> tensor<4x4xf32> {
// CHECK: xla.rng {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([k])->([i, j]) {i=4, j=4, k=2} need_replication={k}>
  %0 = xla.rng uniform seed = 3, a = 0.0, b = 1.0 in [8, 4] at %off : tensor<2xi64> : tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
// CHECK-LABEL: func.func @elementwise
func.func @elementwise(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %p: tensor<4x8xi1>) -> tensor<4x8xf32> {
// CHECK: xla.mark_sharding {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %0 = xla.mark_sharding %a <@mesh, [{"x"}, {}]> : tensor<4x8xf32>
// CHECK: xla.exp {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %1 = xla.exp %0 : tensor<4x8xf32>
// CHECK: xla.compare {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>
  %2 = xla.compare lt, %1, %b : tensor<4x8xf32>
// CHECK: xla.select {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>
  %3 = xla.select %p, %1, %b : tensor<4x8xf32>
// CHECK: xla.convert {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %4 = xla.convert %3 : tensor<4x8xf32> -> tensor<4x8xbf16>
  return %3 : tensor<4x8xf32>
}
// The ops of XlaMathOps.td: pointwise, and reverse with a permutation
// factor per reversed dimension.
// CHECK-LABEL: func.func @math
func.func @math(%a: tensor<4x8xf32>, %n: tensor<4x8xi32>) -> tensor<4x8xf32> {
// CHECK: xla.floor {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %0 = xla.floor %a : tensor<4x8xf32>
// CHECK: xla.ceil {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %1 = xla.ceil %a : tensor<4x8xf32>
// CHECK: xla.round_nearest_afz {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %2 = xla.round_nearest_afz %a : tensor<4x8xf32>
// CHECK: xla.round_nearest_even {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %3 = xla.round_nearest_even %a : tensor<4x8xf32>
// CHECK: xla.sign {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %4 = xla.sign %a : tensor<4x8xf32>
// CHECK: xla.erf {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %5 = xla.erf %a : tensor<4x8xf32>
// CHECK: xla.cos {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %6 = xla.cos %a : tensor<4x8xf32>
// CHECK: xla.sin {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %7 = xla.sin %a : tensor<4x8xf32>
// CHECK: xla.tan {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %8 = xla.tan %a : tensor<4x8xf32>
// CHECK: xla.log1p {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %9 = xla.log1p %a : tensor<4x8xf32>
// CHECK: xla.expm1 {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %10 = xla.expm1 %a : tensor<4x8xf32>
// CHECK: xla.cbrt {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %11 = xla.cbrt %a : tensor<4x8xf32>
// CHECK: xla.is_finite {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %12 = xla.is_finite %a : tensor<4x8xf32>
// CHECK: xla.atan2 {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>
  %13 = xla.atan2 %a, %a : tensor<4x8xf32>
// CHECK: xla.rem {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>
  %14 = xla.rem %n, %n : tensor<4x8xi32>
// CHECK: xla.shift_left {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>
  %15 = xla.shift_left %n, %n : tensor<4x8xi32>
// CHECK: xla.shift_right_arithmetic {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>
  %16 = xla.shift_right_arithmetic %n, %n : tensor<4x8xi32>
// CHECK: xla.shift_right_logical {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=8}>
  %17 = xla.shift_right_logical %n, %n : tensor<4x8xi32>
// CHECK: xla.clamp {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j], [i, j])->([i, j]) {i=4, j=8}>
  %18 = xla.clamp %a, %a, %a : tensor<4x8xf32>
// CHECK: xla.bitcast_convert {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8}>
  %19 = xla.bitcast_convert %n : tensor<4x8xi32> -> tensor<4x8xf32>
// CHECK: xla.reverse {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={j}>
  %20 = xla.reverse %a, dims = [1] : tensor<4x8xf32>
// CHECK: xla.reverse {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} permutation={i, j}>
  %21 = xla.reverse %a, dims = [1, 0] : tensor<4x8xf32>
  return %21 : tensor<4x8xf32>
}
// CHECK-LABEL: func.func @shape
func.func @shape(%a: tensor<4x1xf32>, %b: tensor<4x8xf32>, %i: tensor<i32>) -> tensor<4x8xf32> {
// CHECK: xla.broadcast_in_dim {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, 1])->([i, j, k]) {i=4, j=6, k=8}>
  %0 = xla.broadcast_in_dim %a, dims = [0, 2] : (tensor<4x1xf32>) -> tensor<4x6x8xf32>
// CHECK: xla.transpose {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([j, i])->([i, j]) {i=8, j=4}>
  %1 = xla.transpose %b, permutation = [1, 0] : (tensor<4x8xf32>) -> tensor<8x4xf32>
// CHECK: xla.slice {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=3} permutation={j}>
  %2 = xla.slice %b, start = [0, 2], limit = [4, 8], strides = [1, 2] : (tensor<4x8xf32>) -> tensor<4x3xf32>
// CHECK: xla.dynamic_slice {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [], [])->([i, k]) {i=4, j=8, k=2} need_replication={j, k}>
  %3 = xla.dynamic_slice %b[%i, %i], sizes = [4, 2] : (tensor<4x8xf32>, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>
// CHECK: xla.dynamic_update_slice {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, k], [], [])->([i, j]) {i=4, j=8, k=2} need_replication={k}>
  %4 = xla.dynamic_update_slice %b, %3[%i, %i] : (tensor<4x8xf32>, tensor<4x2xf32>, tensor<i32>, tensor<i32>) -> tensor<4x8xf32>
// CHECK: xla.concatenate {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j], [i, j])->([i, j]) {i=4, j=16} permutation={j}>
  %5 = "xla.concatenate"(%b, %b) <{dim = 1 : i64}> : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
// CHECK: xla.pad {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=10} permutation={j}>
  %6 = xla.pad %b, low = [0, 1], high = [0, 1], interior = [0, 0], value = 0.0 : (tensor<4x8xf32>) -> tensor<4x10xf32>
  return %4 : tensor<4x8xf32>
}
// A windowed dimension cut down to size 1 has no factor of its own (a size-1
// dimension is never split); its operand side must be replicated instead.
// CHECK-LABEL: func.func @size_one_windows
func.func @size_one_windows(%b: tensor<4x8xf32>, %x: tensor<2x3x3x8xf32>, %k: tensor<3x3x8x16xf32>) -> tensor<4x1xf32> {
// CHECK: xla.slice {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, 1]) {i=4, j=8} need_replication={j}>
  %0 = xla.slice %b, start = [0, 2], limit = [4, 3], strides = [1, 1] : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK: xla.pad {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, 1]) {i=4, j=8} need_replication={j}>
  %1 = xla.pad %b, low = [0, -7], high = [0, 0], interior = [0, 0], value = 0.0 : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK: xla.convolution {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j, l, n], [k, m, n, o])->([i, 1, 1, o]) {i=2, j=3, k=3, l=3, m=3, n=8, o=16} reduction={n} need_replication={j, k, l, m}>
  %2 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<2x3x3x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x1x1x16xf32>
  %3 = xla.add %0, %1 : tensor<4x1xf32>
  return %3 : tensor<4x1xf32>
}
// CHECK-LABEL: func.func @gather
func.func @gather(%t: tensor<100x16xf32>, %i: tensor<4x8xi32>) -> tensor<4x8x16xf32> {
// CHECK: xla.gather {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([l, k], [i, j])->([i, j, k]) {i=4, j=8, k=16, l=100} reduction={l}>
  %0 = xla.gather %t, %i : (tensor<100x16xf32>, tensor<4x8xi32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}
// CHECK-LABEL: func.func @contractions
func.func @contractions(%a: tensor<2x4x8xf32>, %b: tensor<2x8x16xf32>, %w: tensor<8x16xf32>) -> tensor<2x4x16xf32> {
// CHECK: xla.dot_general {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, k, j], [i, j, l])->([i, k, l]) {i=2, j=8, k=4, l=16} reduction={j}>
  %0 = xla.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<2x4x8xf32>, tensor<2x8x16xf32>) -> tensor<2x4x16xf32>
// CHECK: xla.matmul {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j, k], [k, l])->([i, j, l]) {i=2, j=4, k=8, l=16} reduction={k}>
  %1 = xla.matmul %a, %w : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
// CHECK: xla.einsum {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j, k], [k, l])->([i, j, l]) {i=2, j=4, k=8, l=16} reduction={k}>
  %2 = xla.einsum "bsd,df->bsf" %a, %w : (tensor<2x4x8xf32>, tensor<8x16xf32>) -> tensor<2x4x16xf32>
  return %0 : tensor<2x4x16xf32>
}
// CHECK-LABEL: func.func @reductions
func.func @reductions(%a: tensor<4x8xf32>) -> tensor<4xf32> {
// CHECK: xla.reduce {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i]) {i=4, j=8} reduction={j}>
  %0 = xla.reduce sum %a, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
// CHECK: xla.reduce {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([]) {i=4, j=8} reduction={i, j}>
  %1 = xla.reduce mean %a, dims = [0, 1] : (tensor<4x8xf32>) -> tensor<f32>
// CHECK: xla.reduce {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([j]) {i=4, j=8} reduction<mul>={i}>
  %2 = xla.reduce prod %a, dims = [0] : (tensor<4x8xf32>) -> tensor<8xf32>
// CHECK: xla.softmax {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=4, j=8} need_replication={j}>
  %3 = xla.softmax %a, dim = 1 : tensor<4x8xf32>
  return %0 : tensor<4xf32>
}
// CHECK-LABEL: func.func @conv
func.func @conv(%x: tensor<2x10x10x8xf32>, %k: tensor<3x3x8x16xf32>, %g: tensor<3x3x2x16xf32>) -> tensor<2x8x8x16xf32> {
// CHECK: xla.convolution {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j, l, n], [k, m, n, o])->([i, j, l, o]) {i=2, j=8, k=3, l=8, m=3, n=8, o=16} reduction={n} need_replication={k, m} permutation={j, l}>
  %0 = xla.convolution %x, %k, strides = [1, 1], padding = [[0, 0], [0, 0]], lhs_dilation = [1, 1], rhs_dilation = [1, 1] : (tensor<2x10x10x8xf32>, tensor<3x3x8x16xf32>) -> tensor<2x8x8x16xf32>
// CHECK: xla.convolution {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j, l, no], [k, m, o, np])->([i, j, l, np]) {i=2, j=10, k=3, l=10, m=3, n=4, o=2, p=4} reduction={o} need_replication={k, m} permutation={j, l}>
  %1 = xla.convolution %x, %g, strides = [1, 1], padding = [[1, 1], [1, 1]], lhs_dilation = [1, 1], rhs_dilation = [1, 1], feature_groups = 4 : (tensor<2x10x10x8xf32>, tensor<3x3x2x16xf32>) -> tensor<2x10x10x16xf32>
  return %0 : tensor<2x8x8x16xf32>
}
// CHECK-LABEL: func.func @collectives
func.func @collectives(%a: tensor<8x4xf32>) -> tensor<8x4xf32> {
// CHECK: xla.all_reduce {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={i, j}>
  %0 = xla.all_reduce sum %a mesh_axes = @mesh["x"] : tensor<8x4xf32>
// CHECK: xla.all_gather {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, k]) {i=8, j=4, k=16} need_replication={i, j, k}>
  %1 = xla.all_gather %a, dim = 1 mesh_axes = @mesh["y"] : (tensor<8x4xf32>) -> tensor<8x16xf32>
// CHECK: xla.reduce_scatter {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, k])->([j, k]) {i=8, j=2, k=4} need_replication={i, j, k}>
  %2 = xla.reduce_scatter sum %a, dim = 0 mesh_axes = @mesh["y"] : (tensor<8x4xf32>) -> tensor<2x4xf32>
// CHECK: xla.all_to_all {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, k])->([j, l]) {i=8, j=2, k=4, l=16} need_replication={i, j, k, l}>
  %3 = xla.all_to_all %a, split_dim = 0, concat_dim = 1, split_count = 4 mesh_axes = @mesh["y"] : (tensor<8x4xf32>) -> tensor<2x16xf32>
// CHECK: xla.collective_permute {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, j])->([i, j]) {i=8, j=4} need_replication={i, j}>
  %4 = xla.collective_permute %a, pairs = [[0, 1], [1, 0]] mesh_axes = @mesh["x"] : tensor<8x4xf32>
// CHECK: xla.all_slice {{.*}}xla.sharding_rule = #xla.op_sharding_rule<([i, k])->([j, k]) {i=8, j=2, k=4} need_replication={i, j, k}>
  %5 = xla.all_slice %a, dim = 0 mesh_axes = @mesh["y"] : (tensor<8x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<8x4xf32>
}
