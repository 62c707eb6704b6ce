// Devices whose collectives disagree fail with one message naming the
// devices and ops, and never hang. --device-function lets devices run
// different programs, as per-device programs do.
//
// RUN: not xla-run %s --function=sum_y --input=8xf32=1,2,3,4,5,6,7,8 --device-function=2=max_x --device-function=3=max_x 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not xla-run %s --function=sum_y --input=8xf32=1,2,3,4,5,6,7,8 --device-function=1=sum_x 2>&1 | FileCheck %s --check-prefix=GROUPS
// RUN: not xla-run %s --function=sum_y --input=8xf32=1,2,3,4,5,6,7,8 --device-function=0=two 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not xla-run %s --function=sum_y --input=8xf32=1,2,3,4,5,6,7,8 --device-function=3=none 2>&1 | FileCheck %s --check-prefix=LEFT
// RUN: not xla-run %s --function=sum_y --input=8xf32=1,2,3,4,5,6,7,8 --device-function=1=other_type 2>&1 | FileCheck %s --check-prefix=SIG

xla.mesh @mesh = <["x"=2, "y"=2]>

// KIND: collective mismatch: devices reached different collectives as their collective #1:
// KIND-NEXT: devices 0, 1: xla.all_reduce sum 2xf32 -> 2xf32 groups {{\[\[}}0,1],[2,3]] at {{.*}}collective-mismatch.mlir:[[@LINE+2]]
func.func @sum_y(%a: tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) -> (tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = xla.all_reduce sum %a mesh_axes = @mesh["y"] : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// KIND-NEXT: devices 2, 3: xla.all_reduce max 2xf32 -> 2xf32 groups {{\[\[}}0,2],[1,3]] at {{.*}}collective-mismatch.mlir:[[@LINE+2]]
func.func @max_x(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.all_reduce max %a mesh_axes = @mesh["x"] : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Same kind, other groups.
// GROUPS: collective mismatch: devices reached different collectives as their collective #1:
// GROUPS-NEXT: devices 0, 2, 3: xla.all_reduce sum 2xf32 -> 2xf32 groups {{\[\[}}0,1],[2,3]]
// GROUPS-NEXT: device 1: xla.all_reduce sum 2xf32 -> 2xf32 groups {{\[\[}}0,2],[1,3]]
func.func @sum_x(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = xla.all_reduce sum %a mesh_axes = @mesh["x"] : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Device 0 runs an all_gather before the all_reduce the others run.
// ORDER: collective mismatch: devices reached different collectives as their collective #1:
// ORDER-NEXT: device 0: xla.all_gather dim=0 2xf32 -> 4xf32 groups {{\[\[}}0,1],[2,3]]
// ORDER-NEXT: devices 1, 2, 3: xla.all_reduce sum 2xf32 -> 2xf32 groups {{\[\[}}0,1],[2,3]]
func.func @two(%a: tensor<2xf32>) -> tensor<2xf32> {
  %g = xla.all_gather %a, dim = 0 mesh_axes = @mesh["y"] : (tensor<2xf32>) -> tensor<4xf32>
  %s = xla.slice %g, start = [0], limit = [2], strides = [1] : (tensor<4xf32>) -> tensor<2xf32>
  %0 = xla.all_reduce sum %s mesh_axes = @mesh["y"] : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// Device 3 has no collective: the others would wait forever.
// LEFT: devices 0, 1, 2 wait in collective #1 (xla.all_reduce sum 2xf32 -> 2xf32 groups {{\[\[}}0,1],[2,3]] at {{.*}}) for devices that will never join:
// LEFT-NEXT: device 3 finished its program after 0 collectives
func.func @none(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}

// SIG: xla-run: error: @other_type cannot stand in for @sum_y on device 1: their signatures differ
func.func @other_type(%a: tensor<2xf64>) -> tensor<2xf64> {
  return %a : tensor<2xf64>
}
