// --expected_output (iree-run-module's semantics): per-type absolute
// thresholds, [FAILED] lines and a non-zero exit on mismatch, (ignored),
// .npy and bare-value expectations; and result printing options.
//
// RUN: xla-run %s --function=two --input=2xf32=1,2 --expected_output=2xf32=2,4 --expected_output=i32=3 | FileCheck %s --check-prefix=OK
// RUN: not xla-run %s --function=two --input=2xf32=1,2 --expected_output=2xf32=2,4.5 --expected_output=i32=4 | FileCheck %s --check-prefix=BAD
// RUN: xla-run %s --function=two --input=2xf32=1,2 --expected_output=2xf32=2.00005,4 --expected_output="(ignored)" | FileCheck %s --check-prefix=OK
// RUN: not xla-run %s --function=two --input=2xf32=1,2 --expected_output=2xf32=2.00005,4 --expected_f32_threshold=1e-6 | FileCheck %s --check-prefix=TIGHT
// RUN: not xla-run %s --function=two --input=2xf32=1,2 --expected_output=3xf32=2,4,6 | FileCheck %s --check-prefix=META
// RUN: xla-run %s --function=two --input=2xf32=1,2 --expected_output=2,4 --expected_output=3 | FileCheck %s --check-prefix=OK
// RUN: xla-run %s --function=two --input=2xf32=1,2 --output=@%t.npy --output=
// RUN: xla-run %s --function=two --input=2xf32=1,2 --expected_output=@%t.npy | FileCheck %s --check-prefix=OK
// RUN: not xla-run %s --function=two --input=2xf32=1,2 --expected_output=2xf32=nan,4 | FileCheck %s --check-prefix=NAN
// RUN: xla-run %s --function=nans --expected_output=2xf32=nan,inf | FileCheck %s --check-prefix=OK
// RUN: xla-run %s --function=big --output_max_element_count=5 | FileCheck %s --check-prefix=TRUNC
// RUN: xla-run %s --function=big --output=- --output= | FileCheck %s --check-prefix=SELECT
// RUN: not xla-run %s --function=two --input=2xf32=1,2 --expected_output=2xf32=2,4 --expected_output=i32=3 --expected_output=i32=3 2>&1 | FileCheck %s --check-prefix=EXTRA

// OK: [SUCCESS] all function outputs matched their expected values
// BAD: [FAILED] result[0]: element at index 1 (4) does not match the expected (4.5)
// BAD-NEXT: [FAILED] result[1]: element at index 0 (3) does not match the expected (4)
// BAD-NOT: [SUCCESS]
// TIGHT: [FAILED] result[0]: element at index 0 (2) does not match the expected (2.00005)
// META: [FAILED] result[0]: metadata is 2xf32; expected 3xf32
// NAN: [FAILED] result[0]: element at index 0 (2) does not match the expected (nan)
// EXTRA: xla-run: error: 3 expected outputs given but the function returns 2
func.func @two(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<i32>) {
  %0 = xla.add %a, %a : tensor<2xf32>
  %1 = xla.constant dense<3> : tensor<i32>
  return %0, %1 : tensor<2xf32>, tensor<i32>
}

func.func @nans() -> tensor<2xf32> {
  %0 = xla.constant dense<[0x7FC00000, 0x7F800000]> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// TRUNC: result[0]: 3x4xi32=[0 1 2 3][0...
// TRUNC: result[1]: 2xi32=7 7
// SELECT: result[0]: 3x4xi32=[0 1 2 3][0 1 2 3][0 1 2 3]
// SELECT-NOT: result[1]
func.func @big() -> (tensor<3x4xi32>, tensor<2xi32>) {
  %0 = xla.iota dim = 1 : tensor<3x4xi32>
  %1 = xla.constant dense<7> : tensor<2xi32>
  return %0, %1 : tensor<3x4xi32>, tensor<2xi32>
}
