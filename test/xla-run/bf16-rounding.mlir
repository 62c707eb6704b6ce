// bf16 and f16 round to nearest, ties to even, where truncation or ties
// away from zero would differ. Hand-computed: bf16 keeps 8 significant bits
// (ulp 2^-7 at 1), f16 keeps 11 (ulp 2^-10 at 1).
//
// RUN: xla-run %s --function=narrow --input=8xf32=1.00390625,1.01171875,1.0078125,1.005859375,-1.01171875,3.3963e38,1e-40,65520 | FileCheck %s
// RUN: xla-run %s --function=arith --input=3xbf16=1,1.0078125,256 --input=3xbf16=0.00390625,0.00390625,1 | FileCheck %s --check-prefix=ARITH

// 1 + 2^-8 ties to even 1; 1 + 3*2^-8 ties to even 1 + 2^-6 (truncation:
// 1 + 2^-7); 1 + 2^-7 is exact; 1 + 1.5*2^-8 rounds up to 1 + 2^-7; the
// negative tie likewise; 3.3963e38 is past the midpoint (3.39618e38) between
// the largest bf16 (3.3895e38) and 2^128: inf; 1e-40 rounds to the smallest
// subnormal 2^-133 (9.2e-41, printed 9e-41); 65520 rounds to 65536 (ulp 256),
// printed 65500, the shortest decimal that reads back to it.
// CHECK: result[0]: 8xbf16=1 1.016 1.01 1.01 -1.016 inf 9e-41 65500
// f16: 65520 ties between 65504 (odd) and 65536 (infinity): inf.
// CHECK: result[1]: 8xf16=1.004 1.012 1.008 1.006 -1.012 inf 0 inf
func.func @narrow(%a: tensor<8xf32>) -> (tensor<8xbf16>, tensor<8xf16>) {
  %0 = xla.convert %a : tensor<8xf32> -> tensor<8xbf16>
  %1 = xla.convert %a : tensor<8xf32> -> tensor<8xf16>
  return %0, %1 : tensor<8xbf16>, tensor<8xf16>
}

// Computed in f32, rounded once: 1 + 2^-8 ties to 1; 1.0078125 + 2^-8 ties
// up to 1.015625 (odd 1.0078125 loses); 256 + 1 ties to 256 (ulp 2 there).
// ARITH: result[0]: 3xbf16=1 1.016 256
func.func @arith(%a: tensor<3xbf16>, %b: tensor<3xbf16>) -> tensor<3xbf16> {
  %0 = xla.add %a, %b : tensor<3xbf16>
  return %0 : tensor<3xbf16>
}
