// The simulator runs the per-device form: every collective kind with its
// groups and pairs resolved to devices, device tables from axis_index and
// partition_id, all_slice as a dynamic slice, and axis_index-based masks,
// each result compared with a single-device reference.

// RUN: xla-opt %s --xla-lower-to-device -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: xla-run %t.mlir --function=kinds --reference-function=kinds_ref --check --seed=5 | FileCheck %s

// IR-LABEL: func.func @kinds
// IR-NEXT: xla.dispatch [@kinds.body0]
// IR-NOT: xla.axis_index
// IR-NOT: xla.partition_id
// IR-NOT: xla.all_slice
// IR-NOT: mesh_axes

// CHECK: EXEC @kinds on 8 devices
// CHECK-COUNT-8: [check] result[{{[0-7]}}]: {{.*}}: ok
// CHECK: [SUCCESS]

xla.mesh @mesh = <["data"=2, "model"=4]>

// %x (8x16) is split by rows over "model": device at model position p holds
// rows [2p, 2p+2), replicated over "data".
func.func @kinds(%x: tensor<2x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<8x16xf32>, tensor<2x16xf32>,
        tensor<2x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
        tensor<8x4xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
        tensor<2x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>},
        tensor<2x16xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>},
        tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"data"}]>},
        tensor<i32>) attributes {xla.partitioned} {
  %gathered = xla.all_gather %x, dim = 0 mesh_axes = @mesh["model"] : (tensor<2x16xf32>) -> tensor<8x16xf32>
  %summed = xla.all_reduce sum %x mesh_axes = @mesh["model"] : tensor<2x16xf32>
  %scattered = xla.reduce_scatter sum %x, dim = 1 mesh_axes = @mesh["model"] : (tensor<2x16xf32>) -> tensor<2x4xf32>
  %exchanged = xla.all_to_all %x, split_dim = 1, concat_dim = 0, split_count = 4 mesh_axes = @mesh["model"] : (tensor<2x16xf32>) -> tensor<8x4xf32>
  %rolled = xla.collective_permute %x, pairs = [[0, 1], [1, 2], [2, 3], [3, 0]] mesh_axes = @mesh["model"] : tensor<2x16xf32>
  // Rows >= 5 of the global tensor are zeroed: global row = 2 * model + i.
  %m = xla.axis_index @mesh["model"] : tensor<i32>
  %two = xla.constant dense<2> : tensor<i32>
  %start = xla.mul %m, %two : tensor<i32>
  %startb = xla.broadcast_in_dim %start, dims = [] : (tensor<i32>) -> tensor<2x16xi32>
  %rows = xla.iota dim = 0 : tensor<2x16xi32>
  %global = xla.add %rows, %startb : tensor<2x16xi32>
  %five = xla.constant dense<5> : tensor<2x16xi32>
  %keep = xla.compare lt, %global, %five : tensor<2x16xi32>
  %zeros = xla.constant dense<0.0> : tensor<2x16xf32>
  %masked = xla.select %keep, %x, %zeros : tensor<2x16xf32>
  %sliced = xla.all_slice %gathered, dim = 1 mesh_axes = @mesh["data"] : (tensor<8x16xf32>) -> tensor<8x8xf32>
  // partition_id / 4 is the "data" coordinate on every device.
  %pid = xla.partition_id : tensor<i32>
  %four = xla.constant dense<4> : tensor<i32>
  %q = xla.div %pid, %four : tensor<i32>
  %d = xla.axis_index @mesh["data"] : tensor<i32>
  %zero = xla.sub %q, %d : tensor<i32>
  return %gathered, %summed, %scattered, %exchanged, %rolled, %masked, %sliced, %zero
      : tensor<8x16xf32>, tensor<2x16xf32>, tensor<2x4xf32>, tensor<8x4xf32>, tensor<2x16xf32>, tensor<2x16xf32>, tensor<8x8xf32>, tensor<i32>
}

func.func @kinds_ref(%x: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>, tensor<8x16xf32>,
        tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<i32>) {
  %blocks = xla.reshape %x : (tensor<8x16xf32>) -> tensor<4x2x16xf32>
  %sum = xla.reduce sum %blocks, dims = [0] : (tensor<4x2x16xf32>) -> tensor<2x16xf32>
  %last = xla.slice %x, start = [6, 0], limit = [8, 16], strides = [1, 1] : (tensor<8x16xf32>) -> tensor<2x16xf32>
  %first = xla.slice %x, start = [0, 0], limit = [6, 16], strides = [1, 1] : (tensor<8x16xf32>) -> tensor<6x16xf32>
  %rolled = xla.concatenate %last, %first, dim = 0 : (tensor<2x16xf32>, tensor<6x16xf32>) -> tensor<8x16xf32>
  %rows = xla.iota dim = 0 : tensor<8x16xi32>
  %five = xla.constant dense<5> : tensor<8x16xi32>
  %keep = xla.compare lt, %rows, %five : tensor<8x16xi32>
  %zeros = xla.constant dense<0.0> : tensor<8x16xf32>
  %masked = xla.select %keep, %x, %zeros : tensor<8x16xf32>
  %zero = xla.constant dense<0> : tensor<i32>
  return %x, %sum, %sum, %x, %rolled, %masked, %x, %zero
      : tensor<8x16xf32>, tensor<2x16xf32>, tensor<2x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<i32>
}
