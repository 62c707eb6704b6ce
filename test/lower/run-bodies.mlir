// Programs whose devices use different links in one collective lower to
// several bodies; the simulator runs each device's body and the devices
// still meet in every collective.

// RUN: xla-opt %s --xla-lower-to-device -o %t.mlir
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// RUN: xla-run %t.mlir --function=pairs --reference-function=pairs_ref --check | FileCheck %s --check-prefix=PAIRS
// RUN: xla-run %t.mlir --function=halo --reference-function=halo_ref --check | FileCheck %s --check-prefix=HALO

// Two slices of four devices; device d holds row d of an 8x4 tensor.
xla.mesh @mesh = hybrid<ici=["s"=1, "c"=4], dcn=["s"=2, "c"=1]>

// IR-LABEL: func.func @pairs
// IR-NEXT: xla.dispatch [@pairs.body0, @pairs.body1]
// IR: func.func private @pairs.body0
// IR-SAME: xla.devices = array<i64: 0, 1, 6, 7>
// IR: link = ici
// IR: func.func private @pairs.body1
// IR-SAME: xla.devices = array<i64: 2, 3, 4, 5>
// IR: link = dcn

// Each device adds its partner's row; [0, 1] and [6, 7] are partners inside
// a slice, [2, 4] and [3, 5] across the DCN.
// PAIRS: EXEC @pairs on 8 devices
// PAIRS: [check] result[0]: 8x4xf32 {{.*}}: ok
// PAIRS: [SUCCESS]
func.func @pairs(%x: tensor<1x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"s", "c"}, {}]>})
    -> (tensor<1x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"s", "c"}, {}]>}) attributes {xla.partitioned} {
  %0 = xla.all_reduce sum %x groups = [[0, 1], [2, 4], [3, 5], [6, 7]] : tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

func.func @pairs_ref(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %partner = xla.constant dense<[1, 0, 4, 5, 2, 3, 7, 6]> : tensor<8xi32>
  %p = xla.gather %x, %partner : (tensor<8x4xf32>, tensor<8xi32>) -> tensor<8x4xf32>
  %0 = xla.add %x, %p : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

// IR-LABEL: func.func @halo
// IR-NEXT: xla.dispatch [@halo.body0, @halo.body1]
// IR: func.func private @halo.body0
// IR-SAME: xla.devices = array<i64: 0, 1, 2, 5, 6, 7>
// IR: link = ici
// IR: func.func private @halo.body1
// IR-SAME: xla.devices = array<i64: 3, 4>
// IR: link = mixed

// Every device receives its left neighbour's row (device 0 receives
// zeros): devices 3 and 4 exchange across the slice boundary.
// HALO: EXEC @halo on 8 devices
// HALO: [check] result[0]: 8x4xf32 {{.*}}: ok
// HALO: [SUCCESS]
func.func @halo(%x: tensor<1x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"s", "c"}, {}]>})
    -> (tensor<1x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"s", "c"}, {}]>}) attributes {xla.partitioned} {
  %0 = xla.collective_permute %x, pairs = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7]] mesh_axes = @mesh["s", "c"] : tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

func.func @halo_ref(%x: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = xla.pad %x, low = [1, 0], high = [-1, 0], interior = [0, 0], value = 0.0 : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
