// --xla-dump-meshes prints each mesh's axes (with ICI x DCN factors for
// hybrid meshes), the link class of each axis and the device ids in
// row-major order of the logical mesh; the module itself is unchanged.

// RUN: xla-opt --xla-dump-meshes %s -split-input-file -o /dev/null | FileCheck %s
// RUN: xla-opt --xla-dump-meshes %s -split-input-file | FileCheck %s --check-prefix=MODULE

// A plain mesh: devices 0..7 row-major; every axis is on the ICI.
// CHECK-LABEL: mesh @plain: 8 devices, shape [4, 2]
// CHECK-NEXT:    axis "data" size 4 link ici
// CHECK-NEXT:    axis "model" size 2 link ici
// CHECK-NEXT:    devices (row-major): 0 1 2 3 4 5 6 7
// CHECK-NEXT:    logical array: {{\[}}[0, 1], [2, 3], [4, 5], [6, 7]]
xla.mesh @plain = <["data"=4, "model"=2]>

// An explicit device order is laid out row-major as written.
// CHECK-LABEL: mesh @perm: 8 devices, shape [4, 2]
// CHECK-NEXT:    axis "x" size 4 link ici
// CHECK-NEXT:    axis "y" size 2 link ici
// CHECK-NEXT:    devices (row-major): 0 2 4 6 1 3 5 7
// CHECK-NEXT:    logical array: {{\[}}[0, 2], [4, 6], [1, 3], [5, 7]]
xla.mesh @perm = <["x"=4, "y"=2], devices=[0, 2, 4, 6, 1, 3, 5, 7]>

// Two slices of four chips (torch_xla HybridMesh(ici_mesh_shape=(1, 4, 1),
// dcn_mesh_shape=(2, 1, 1))): a [2, 4, 1] mesh whose first row is slice 0's
// devices 0..3 and second row slice 1's devices 4..7. "data" crosses the DCN.
// CHECK-LABEL: mesh @two_slices: 8 devices, shape [2, 4, 1], hybrid
// CHECK-NEXT:    axis "data" size 2 (ici 1 x dcn 2) link dcn
// CHECK-NEXT:    axis "fsdp" size 4 (ici 4 x dcn 1) link ici
// CHECK-NEXT:    axis "tensor" size 1 (ici 1 x dcn 1) link ici
// CHECK-NEXT:    devices (row-major): 0 1 2 3 4 5 6 7
// CHECK-NEXT:    logical array: {{\[}}{{\[}}[0], [1], [2], [3]], {{\[}}[4], [5], [6], [7]]]
xla.mesh @two_slices = hybrid<ici=["data"=1, "fsdp"=4, "tensor"=1], dcn=["data"=2, "fsdp"=1, "tensor"=1]>

// ici [2, 2] x dcn [2, 1]: a [4, 2] mesh; slice 0 (devices 0..3) fills rows
// 0-1 and slice 1 (devices 4..7) rows 2-3. Axis "x" has ICI and DCN factors
// above 1, so its link class is mixed.
// CHECK-LABEL: mesh @slices_by_row: 8 devices, shape [4, 2], hybrid
// CHECK-NEXT:    axis "x" size 4 (ici 2 x dcn 2) link mixed
// CHECK-NEXT:    axis "y" size 2 (ici 2 x dcn 1) link ici
// CHECK-NEXT:    devices (row-major): 0 1 2 3 4 5 6 7
// CHECK-NEXT:    logical array: {{\[}}[0, 1], [2, 3], [4, 5], [6, 7]]
xla.mesh @slices_by_row = hybrid<ici=["x"=2, "y"=2], dcn=["x"=2, "y"=1]>

// ici [2, 2] x dcn [1, 2]: the slices sit side by side, so each row holds
// two devices of slice 0 followed by two of slice 1.
// CHECK-LABEL: mesh @slices_by_column: 8 devices, shape [2, 4], hybrid
// CHECK-NEXT:    axis "x" size 2 (ici 2 x dcn 1) link ici
// CHECK-NEXT:    axis "y" size 4 (ici 2 x dcn 2) link mixed
// CHECK-NEXT:    devices (row-major): 0 1 4 5 2 3 6 7
// CHECK-NEXT:    logical array: {{\[}}[0, 1, 4, 5], [2, 3, 6, 7]]
xla.mesh @slices_by_column = hybrid<ici=["x"=2, "y"=2], dcn=["x"=1, "y"=2]>

// One mixed axis over four slices of two chips: the DCN index is the major
// part of the coordinate, so the order stays 0..7.
// CHECK-LABEL: mesh @one_mixed_axis: 8 devices, shape [8], hybrid
// CHECK-NEXT:    axis "x" size 8 (ici 2 x dcn 4) link mixed
// CHECK-NEXT:    devices (row-major): 0 1 2 3 4 5 6 7
// CHECK-NEXT:    logical array: [0, 1, 2, 3, 4, 5, 6, 7]
xla.mesh @one_mixed_axis = hybrid<ici=["x"=2], dcn=["x"=4]>

// Slices spread over two DCN axes (2 x 2 slices of 2 chips each): the slice
// index is row-major over the DCN shape.
// CHECK-LABEL: mesh @slice_grid: 8 devices, shape [2, 4], hybrid
// CHECK-NEXT:    axis "a" size 2 (ici 1 x dcn 2) link dcn
// CHECK-NEXT:    axis "b" size 4 (ici 2 x dcn 2) link mixed
// CHECK-NEXT:    devices (row-major): 0 1 2 3 4 5 6 7
// CHECK-NEXT:    logical array: {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]
xla.mesh @slice_grid = hybrid<ici=["a"=1, "b"=2], dcn=["a"=2, "b"=2]>

// A DCN-only mesh: one chip per slice.
// CHECK-LABEL: mesh @dcn_only: 8 devices, shape [2, 4], hybrid
// CHECK-NEXT:    axis "p" size 2 (ici 1 x dcn 2) link dcn
// CHECK-NEXT:    axis "q" size 4 (ici 1 x dcn 4) link dcn
// CHECK-NEXT:    devices (row-major): 0 1 2 3 4 5 6 7
// CHECK-NEXT:    logical array: {{\[}}[0, 1, 2, 3], [4, 5, 6, 7]]
xla.mesh @dcn_only = hybrid<ici=["p"=1, "q"=1], dcn=["p"=2, "q"=4]>

// The module is printed unchanged after the dump.
// MODULE: mesh @plain: 8 devices
// MODULE: module {
// MODULE-NEXT: xla.mesh @plain = <["data"=4, "model"=2]>

// -----

// Each chunk of -split-input-file is its own module, with its own devices.
// CHECK-LABEL: mesh @small: 4 devices, shape [2, 2], hybrid
// CHECK-NEXT:    axis "a" size 2 (ici 1 x dcn 2) link dcn
// CHECK-NEXT:    axis "b" size 2 (ici 2 x dcn 1) link ici
// CHECK-NEXT:    devices (row-major): 0 1 2 3
// CHECK-NEXT:    logical array: {{\[}}[0, 1], [2, 3]]
xla.mesh @small = hybrid<ici=["a"=1, "b"=2], dcn=["a"=2, "b"=1]>

// -----

// A module without meshes prints nothing; meshes of nested modules are not
// the module's own.
// CHECK-NOT: mesh @
func.func @no_mesh() {
  return
}
module @nested {
  xla.mesh @inner = <["x"=2]>
}
