// Counter-based random numbers: deterministic, a block at some offsets is
// exactly the slice of the global tensor, and the distributions have the
// documented ranges and moments. The checks run inside the programs.
// RUN: xla-run %s --function=block_is_slice | FileCheck %s --check-prefix=SLICE
// RUN: xla-run %s --function=uniform_stats | FileCheck %s --check-prefix=UNIFORM
// RUN: xla-run %s --function=normal_stats | FileCheck %s --check-prefix=NORMAL
// RUN: xla-run %s --function=sample --output=@%t.a.npy
// RUN: xla-run %s --function=sample --output=@%t.b.npy
// RUN: cmp %t.a.npy %t.b.npy
// RUN: xla-run %s --function=other_seed --output=@%t.c.npy
// RUN: not cmp -s %t.a.npy %t.c.npy

// SLICE: result[0]: i1=1
// SLICE: result[1]: i1=1
func.func @block_is_slice() -> (tensor<i1>, tensor<i1>) {
  %g = xla.rng uniform seed = 7, a = -1.0, b = 1.0 : tensor<4x6xf32>
  %off = xla.constant dense<[2, 3]> : tensor<2xi32>
  %b = xla.rng uniform seed = 7, a = -1.0, b = 1.0 in [4, 6] at %off : tensor<2xi32> : tensor<2x3xf32>
  %s = xla.slice %g, start = [2, 3], limit = [4, 6], strides = [1, 1] : (tensor<4x6xf32>) -> tensor<2x3xf32>
  %eq = xla.compare eq, %b, %s : tensor<2x3xf32>
  %0 = xla.reduce and %eq, dims = [0, 1] : (tensor<2x3xi1>) -> tensor<i1>
  %gn = xla.rng normal seed = 3, a = 0.0, b = 1.0 : tensor<8xbf16>
  %off1 = xla.constant dense<[5]> : tensor<1xi64>
  %bn = xla.rng normal seed = 3, a = 0.0, b = 1.0 in [8] at %off1 : tensor<1xi64> : tensor<3xbf16>
  %sn = xla.slice %gn, start = [5], limit = [8], strides = [1] : (tensor<8xbf16>) -> tensor<3xbf16>
  %eqn = xla.compare eq, %bn, %sn : tensor<3xbf16>
  %1 = xla.reduce and %eqn, dims = [0] : (tensor<3xi1>) -> tensor<i1>
  return %0, %1 : tensor<i1>, tensor<i1>
}

// 4096 draws from [2, 5): min >= 2, max < 5, |mean - 3.5| < 0.05. bf16 draws
// from [0, 1) stay below 1 (about 8 of them would round up to 1 otherwise).
// UNIFORM: result[0]: i1=1
// UNIFORM: result[1]: i1=1
// UNIFORM: result[2]: i1=1
// UNIFORM: result[3]: i1=1
func.func @uniform_stats() -> (tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>) {
  %x = xla.rng uniform seed = 11, a = 2.0, b = 5.0 : tensor<64x64xf32>
  %lo = xla.reduce min %x, dims = [0, 1] : (tensor<64x64xf32>) -> tensor<f32>
  %hi = xla.reduce max %x, dims = [0, 1] : (tensor<64x64xf32>) -> tensor<f32>
  %mean = xla.reduce mean %x, dims = [0, 1] : (tensor<64x64xf32>) -> tensor<f32>
  %two = xla.constant dense<2.0> : tensor<f32>
  %five = xla.constant dense<5.0> : tensor<f32>
  %mid = xla.constant dense<3.5> : tensor<f32>
  %tol = xla.constant dense<0.05> : tensor<f32>
  %0 = xla.compare ge, %lo, %two : tensor<f32>
  %1 = xla.compare lt, %hi, %five : tensor<f32>
  %d = xla.sub %mean, %mid : tensor<f32>
  %ad = xla.abs %d : tensor<f32>
  %2 = xla.compare lt, %ad, %tol : tensor<f32>
  %y = xla.rng uniform seed = 12, a = 0.0, b = 1.0 : tensor<4096xbf16>
  %ymax = xla.reduce max %y, dims = [0] : (tensor<4096xbf16>) -> tensor<bf16>
  %one = xla.constant dense<1.0> : tensor<bf16>
  %3 = xla.compare lt, %ymax, %one : tensor<bf16>
  return %0, %1, %2, %3 : tensor<i1>, tensor<i1>, tensor<i1>, tensor<i1>
}

// 4096 draws from N(1, 2^2): |mean - 1| < 0.1 and |variance - 4| < 0.4.
// NORMAL: result[0]: i1=1
// NORMAL: result[1]: i1=1
func.func @normal_stats() -> (tensor<i1>, tensor<i1>) {
  %x = xla.rng normal seed = 5, a = 1.0, b = 2.0 : tensor<4096xf64>
  %mean = xla.reduce mean %x, dims = [0] : (tensor<4096xf64>) -> tensor<f64>
  %m = xla.broadcast_in_dim %mean, dims = [] : (tensor<f64>) -> tensor<4096xf64>
  %c = xla.sub %x, %m : tensor<4096xf64>
  %sq = xla.mul %c, %c : tensor<4096xf64>
  %var = xla.reduce mean %sq, dims = [0] : (tensor<4096xf64>) -> tensor<f64>
  %one = xla.constant dense<1.0> : tensor<f64>
  %four = xla.constant dense<4.0> : tensor<f64>
  %t1 = xla.constant dense<0.1> : tensor<f64>
  %t4 = xla.constant dense<0.4> : tensor<f64>
  %dm = xla.sub %mean, %one : tensor<f64>
  %adm = xla.abs %dm : tensor<f64>
  %0 = xla.compare lt, %adm, %t1 : tensor<f64>
  %dv = xla.sub %var, %four : tensor<f64>
  %adv = xla.abs %dv : tensor<f64>
  %1 = xla.compare lt, %adv, %t4 : tensor<f64>
  return %0, %1 : tensor<i1>, tensor<i1>
}

func.func @sample() -> tensor<16xf16> {
  %0 = xla.rng normal seed = 1, a = 0.0, b = 1.0 : tensor<16xf16>
  return %0 : tensor<16xf16>
}

func.func @other_seed() -> tensor<16xf16> {
  %0 = xla.rng normal seed = 2, a = 0.0, b = 1.0 : tensor<16xf16>
  return %0 : tensor<16xf16>
}
