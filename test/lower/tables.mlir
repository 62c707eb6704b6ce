// Device-dependent values become data: axis_index and partition_id are
// device tables (entry d is device d's value), scalar arithmetic on them is
// evaluated for every device, values all devices agree on are constants,
// and all_slice is a dynamic_slice at each device's offset.

// RUN: xla-opt %s --xla-lower-to-device | FileCheck %s
// RUN: xla-opt %s --xla-lower-to-device | xla-opt | FileCheck %s

xla.mesh @mesh = <["data"=2, "model"=4]>
xla.mesh @one = <["a"=1, "b"=8]>
xla.mesh @perm = <["x"=4, "y"=2], devices=[0, 2, 4, 6, 1, 3, 5, 7]>

// Rows 5*data of a 10-row tensor; model == 0 as a per-device predicate;
// partition_id - (4*data + model) is 0 everywhere; an axis of size 1 is 0.
// CHECK-LABEL: func.func private @offsets.body0
// CHECK-NEXT: %[[OFF:.*]] = xla.device_table [0, 0, 0, 0, 5, 5, 5, 5] : tensor<i32>
// CHECK-NEXT: %[[ZERO:.*]] = xla.constant dense<0> : tensor<i32>
// CHECK-NEXT: %[[S:.*]] = xla.dynamic_slice %{{.*}}[%[[OFF]], %[[ZERO]]], sizes = [5, 4]
// CHECK-NEXT: %[[FIRST:.*]] = xla.device_table [1, 0, 0, 0, 1, 0, 0, 0] : tensor<i1>
// CHECK-NEXT: %[[WIDE:.*]] = xla.device_table [0, 1, 2, 3, 0, 1, 2, 3] : tensor<i64>
// CHECK-NEXT: return %[[S]], %[[FIRST]], %[[ZERO]], %[[ZERO]], %[[WIDE]]
func.func @offsets(%x: tensor<10x4xf32>) -> (tensor<5x4xf32>, tensor<i1>, tensor<i32>, tensor<i32>, tensor<i64>) attributes {xla.partitioned} {
  %d = xla.axis_index @mesh["data"] : tensor<i32>
  %m = xla.axis_index @mesh["model"] : tensor<i32>
  %five = xla.constant dense<5> : tensor<i32>
  %off = xla.mul %d, %five : tensor<i32>
  %z = xla.constant dense<0> : tensor<i32>
  %s = xla.dynamic_slice %x[%off, %z], sizes = [5, 4] : (tensor<10x4xf32>, tensor<i32>, tensor<i32>) -> tensor<5x4xf32>
  %first = xla.compare eq, %m, %z : tensor<i32>
  %four = xla.constant dense<4> : tensor<i32>
  %flat0 = xla.mul %d, %four : tensor<i32>
  %flat = xla.add %flat0, %m : tensor<i32>
  %pid = xla.partition_id : tensor<i32>
  %same = xla.sub %pid, %flat : tensor<i32>
  %a = xla.axis_index @one["a"] : tensor<i32>
  %wide = xla.convert %m : tensor<i32> -> tensor<i64>
  return %s, %first, %same, %a, %wide : tensor<5x4xf32>, tensor<i1>, tensor<i32>, tensor<i32>, tensor<i64>
}

// On a permuted mesh the table follows the device order: device 2 is at
// (x=0, y=1), device 1 at (x=2, y=0).
// CHECK-LABEL: func.func private @permuted.body0
// CHECK-NEXT: xla.device_table [0, 2, 0, 2, 1, 3, 1, 3] : tensor<i32>
// CHECK-NEXT: xla.device_table [0, 0, 1, 1, 0, 0, 1, 1] : tensor<i32>
func.func @permuted() -> (tensor<i32>, tensor<i32>) {
  %x = xla.axis_index @perm["x"] : tensor<i32>
  %y = xla.axis_index @perm["y"] : tensor<i32>
  return %x, %y : tensor<i32>, tensor<i32>
}

// all_slice keeps block `position in group` along its dim.
// CHECK-LABEL: func.func private @slices.body0
// CHECK-NEXT: %[[ROWS:.*]] = xla.device_table [0, 2, 4, 6, 0, 2, 4, 6] : tensor<i32>
// CHECK-NEXT: %[[Z:.*]] = xla.constant dense<0> : tensor<i32>
// CHECK-NEXT: %[[A:.*]] = xla.dynamic_slice %{{.*}}[%[[ROWS]], %[[Z]]], sizes = [2, 16] : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x16xf32>
// CHECK-NEXT: %[[COLS:.*]] = xla.device_table [0, 0, 0, 0, 8, 8, 8, 8] : tensor<i32>
// CHECK-NEXT: xla.dynamic_slice %[[A]][%[[Z]], %[[COLS]]], sizes = [2, 8] : (tensor<2x16xf32>, tensor<i32>, tensor<i32>) -> tensor<2x8xf32>
// CHECK-NOT: xla.all_slice
func.func @slices(%x: tensor<8x16xf32>) -> tensor<2x8xf32> {
  %0 = xla.all_slice %x, dim = 0 mesh_axes = @mesh["model"] : (tensor<8x16xf32>) -> tensor<2x16xf32>
  %1 = xla.all_slice %0, dim = 1 mesh_axes = @mesh["data"] : (tensor<2x16xf32>) -> tensor<2x8xf32>
  return %1 : tensor<2x8xf32>
}

// Arithmetic on values that are not known per device, or that would divide
// by zero on some device, stays in the program.
// CHECK-LABEL: func.func private @unfoldable.body0
// CHECK-NEXT: %[[M:.*]] = xla.device_table [0, 1, 2, 3, 0, 1, 2, 3] : tensor<i32>
// CHECK-NEXT: xla.add %[[M]], %{{.*}} : tensor<i32>
// CHECK-NEXT: %[[Z:.*]] = xla.constant dense<0> : tensor<i32>
// CHECK-NEXT: xla.div %[[Z]], %[[M]] : tensor<i32>
func.func @unfoldable(%x: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
  %m = xla.axis_index @mesh["model"] : tensor<i32>
  %0 = xla.add %m, %x : tensor<i32>
  %z = xla.constant dense<0> : tensor<i32>
  %1 = xla.div %z, %m : tensor<i32>
  return %0, %1 : tensor<i32>, tensor<i32>
}

// i8 arithmetic that would overflow on some device is not evaluated.
// CHECK-LABEL: func.func private @overflow.body0
// CHECK-NEXT: %[[C:.*]] = xla.constant dense<100> : tensor<i8>
// CHECK-NEXT: %[[T:.*]] = xla.device_table [0, 100, 0, 100, 0, 100, 0, 100] : tensor<i8>
// CHECK-NEXT: xla.add %[[T]], %[[C]] : tensor<i8>
// CHECK-NEXT: xla.device_table [100, 0, 100, 0, 100, 0, 100, 0] : tensor<i8>
func.func @overflow() -> (tensor<i8>, tensor<i8>) {
  %pid = xla.partition_id : tensor<i32>
  %two = xla.constant dense<2> : tensor<i32>
  %rem0 = xla.div %pid, %two : tensor<i32>
  %rem1 = xla.mul %rem0, %two : tensor<i32>
  %odd = xla.sub %pid, %rem1 : tensor<i32>
  %odd8 = xla.convert %odd : tensor<i32> -> tensor<i8>
  %hundred = xla.constant dense<100> : tensor<i8>
  %t = xla.mul %odd8, %hundred : tensor<i8>
  %big = xla.add %t, %hundred : tensor<i8>
  %even = xla.sub %hundred, %t : tensor<i8>
  return %big, %even : tensor<i8>, tensor<i8>
}

// Offsets that became constants keep folding: on an axis of size 1 the
// offset 3 * a + 1 is 1 on every device.
// CHECK-LABEL: func.func private @constant_chain.body0
// CHECK-NEXT: %[[ONE:.*]] = xla.constant dense<1> : tensor<i32>
// CHECK-NEXT: xla.dynamic_slice %{{.*}}[%[[ONE]]], sizes = [2]
func.func @constant_chain(%x: tensor<4xf32>) -> tensor<2xf32> attributes {xla.partitioned} {
  %a = xla.axis_index @one["a"] : tensor<i32>
  %three = xla.constant dense<3> : tensor<i32>
  %one = xla.constant dense<1> : tensor<i32>
  %m = xla.mul %a, %three : tensor<i32>
  %off = xla.add %m, %one : tensor<i32>
  %s = xla.dynamic_slice %x[%off], sizes = [2] : (tensor<4xf32>, tensor<i32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}
