// The simulator gives each device its entry of an xla.device_table, in the
// table's element type.

// RUN: xla-run %s --function=sum | FileCheck %s --check-prefix=SUM
// RUN: xla-run %s --function=types | FileCheck %s --check-prefix=TYPES

xla.mesh @mesh = <["x"=4]>

// SUM: EXEC @sum on 4 devices
// SUM: result[0]: i32=1111
func.func @sum() -> tensor<i32> {
  %0 = xla.device_table [1, 10, 100, 1000] : tensor<i32>
  %1 = xla.all_reduce sum %0 mesh_axes = @mesh["x"] : tensor<i32>
  return %1 : tensor<i32>
}

// Gathered in device order: every device holds the same vector.
// TYPES: result[0]: 4xi8=-128 0 5 127
// TYPES: result[1]: 4xi1=1 0 0 1
// TYPES: result[2]: 4xi64=-5000000000 0 1 5000000000
func.func @types() -> (tensor<4xi8>, tensor<4xi1>, tensor<4xi64>) {
  %0 = xla.device_table [-128, 0, 5, 127] : tensor<i8>
  %1 = xla.device_table [1, 0, 0, 1] : tensor<i1>
  %2 = xla.device_table [-5000000000, 0, 1, 5000000000] : tensor<i64>
  %a = xla.broadcast_in_dim %0, dims = [] : (tensor<i8>) -> tensor<1xi8>
  %b = xla.broadcast_in_dim %1, dims = [] : (tensor<i1>) -> tensor<1xi1>
  %c = xla.broadcast_in_dim %2, dims = [] : (tensor<i64>) -> tensor<1xi64>
  %ga = xla.all_gather %a, dim = 0 mesh_axes = @mesh["x"] : (tensor<1xi8>) -> tensor<4xi8>
  %gb = xla.all_gather %b, dim = 0 mesh_axes = @mesh["x"] : (tensor<1xi1>) -> tensor<4xi1>
  %gc = xla.all_gather %c, dim = 0 mesh_axes = @mesh["x"] : (tensor<1xi64>) -> tensor<4xi64>
  return %ga, %gb, %gc : tensor<4xi8>, tensor<4xi1>, tensor<4xi64>
}
