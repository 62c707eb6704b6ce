// Link classes on a hybrid mesh of 2 slices x 4 devices (slice s holds
// devices 4s..4s+3): a group inside one slice is ici, a group with one
// member per slice dcn, anything else mixed. Devices that use different
// links in some collective get different bodies; all others share one.

// RUN: xla-opt %s --xla-lower-to-device | FileCheck %s
// RUN: xla-opt %s --xla-lower-to-device | xla-opt | FileCheck %s

xla.mesh @hybrid = hybrid<ici=["data"=1, "model"=4], dcn=["data"=2, "model"=1]>

// "model" stays in a slice, "data" crosses the DCN once, both axes span
// both networks. The permute exchanges between devices 0 and 4 only: they
// use the DCN, the others no link at all (ici by convention), so they run
// a second body.
// CHECK-LABEL: func.func @links
// CHECK-NEXT: xla.dispatch [@links.body0, @links.body1]
// CHECK-LABEL: func.func private @links.body0
// CHECK-SAME: attributes {xla.devices = array<i64: 0, 4>}
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]] link = ici
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 4], [1, 5], [2, 6], [3, 7]] link = dcn
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1, 2, 3, 4, 5, 6, 7]] link = mixed
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 4], [4, 0]] link = dcn
// CHECK-LABEL: func.func private @links.body1
// CHECK-SAME: attributes {xla.devices = array<i64: 1, 2, 3, 5, 6, 7>}
// CHECK-NEXT: xla.all_reduce sum %{{.*}} link = ici
// CHECK-NEXT: xla.all_reduce sum %{{.*}} link = dcn
// CHECK-NEXT: xla.all_reduce sum %{{.*}} link = mixed
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 4], [4, 0]] link = ici
func.func @links(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = xla.all_reduce sum %x mesh_axes = @hybrid["model"] : tensor<8x16xf32>
  %1 = xla.all_reduce sum %x mesh_axes = @hybrid["data"] : tensor<8x16xf32>
  %2 = xla.all_reduce sum %x mesh_axes = @hybrid["data", "model"] : tensor<8x16xf32>
  %3 = xla.collective_permute %x, pairs = [[0, 4], [4, 0]] : tensor<8x16xf32>
  return %0, %1, %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

// Asymmetric groups: [0, 1] and [6, 7] lie in a slice, [2, 4] and [3, 5]
// cross it. The groups are the same in both bodies; the links differ.
// CHECK-LABEL: func.func private @asymmetric.body0
// CHECK-SAME: attributes {xla.devices = array<i64: 0, 1, 6, 7>}
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1], [2, 4], [3, 5], [6, 7]] link = ici
// CHECK-NEXT: xla.all_gather %{{.*}} groups = {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]] link = ici
// CHECK-LABEL: func.func private @asymmetric.body1
// CHECK-SAME: attributes {xla.devices = array<i64: 2, 3, 4, 5>}
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 1], [2, 4], [3, 5], [6, 7]] link = dcn
// CHECK-NEXT: xla.all_gather %{{.*}} groups = {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]] link = ici
func.func @asymmetric(%x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x64xf32>) {
  %0 = xla.all_reduce sum %x groups = [[0, 1], [2, 4], [3, 5], [6, 7]] : tensor<8x16xf32>
  %1 = xla.all_gather %x, dim = 1 mesh_axes = @hybrid["model"] : (tensor<8x16xf32>) -> tensor<8x64xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x64xf32>
}

// A halo exchange along "x" = 2 slices x 2 devices: device k sends to k+1.
// Device 1 receives from 0 (ICI) and sends to 2 (DCN): mixed, as device 2;
// the ends of the chain stay inside their slice.
xla.mesh @chain = hybrid<ici=["x"=2, "y"=2], dcn=["x"=2, "y"=1]>
// CHECK-LABEL: func.func @halo
// CHECK-NEXT: xla.dispatch [@halo.body0, @halo.body1]
// CHECK-LABEL: func.func private @halo.body0
// CHECK-SAME: attributes {xla.devices = array<i64: 0, 1, 6, 7>}
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 2], [1, 3], [2, 4], [3, 5], [4, 6], [5, 7]] link = ici
// CHECK-LABEL: func.func private @halo.body1
// CHECK-SAME: attributes {xla.devices = array<i64: 2, 3, 4, 5>}
// CHECK-NEXT: xla.collective_permute %{{.*}}, pairs = {{\[}}[0, 2], [1, 3], [2, 4], [3, 5], [4, 6], [5, 7]] link = mixed
func.func @halo(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = xla.collective_permute %x, pairs = [[0, 1], [1, 2], [2, 3]] mesh_axes = @chain["x"] : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// A link tag written before lowering (here a wrong one) is replaced by the
// link the devices use.
// CHECK-LABEL: func.func private @retag.body0
// CHECK-NEXT: xla.all_reduce sum %{{.*}} groups = {{\[}}[0, 4], [1, 5], [2, 6], [3, 7]] link = dcn
func.func @retag(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = xla.all_reduce sum %x groups = [[0, 4], [1, 5], [2, 6], [3, 7]] link = ici : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}
