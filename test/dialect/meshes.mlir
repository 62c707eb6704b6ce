// Round trip of xla.mesh and the #xla.mesh attribute: plain row-major meshes,
// explicit device orders and hybrid (ICI x DCN) meshes.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// All meshes of a module span the same devices (8 here).

// CHECK: xla.mesh @plain = <["data"=4, "model"=2]>
xla.mesh @plain = <["data"=4, "model"=2]>
// CHECK: xla.mesh @flat = <["x"=8]>
xla.mesh @flat = <["x"=8]>
// Size-1 axes are legal (they replicate nothing and shard nothing).
// CHECK: xla.mesh @unit = <["data"=8, "unused"=1]>
xla.mesh @unit = <["data"=8, "unused"=1]>
// Axis names are arbitrary strings; they are printed escaped.
// CHECK: xla.mesh @odd_names = <["a b"=2, "q\22uote"=4]>
xla.mesh @odd_names = <["a b"=2, "q\"uote"=4]>

// Explicit device order (a permutation, row-major over the logical mesh).
// CHECK: xla.mesh @perm = <["x"=4, "y"=2], devices=[0, 2, 4, 6, 1, 3, 5, 7]>
xla.mesh @perm = <["x"=4, "y"=2], devices=[0,2,4,6,1,3,5,7]>
// The identity order is kept as written.
// CHECK: xla.mesh @identity = <["x"=8], devices=[0, 1, 2, 3, 4, 5, 6, 7]>
xla.mesh @identity = <["x"=8], devices=[0, 1, 2, 3, 4, 5, 6, 7]>

// Hybrid meshes: per-axis ICI and DCN factors, printed back as written.
// CHECK: xla.mesh @hybrid = hybrid<ici=["data"=1, "fsdp"=4, "tensor"=1], dcn=["data"=2, "fsdp"=1, "tensor"=1]>
xla.mesh @hybrid = hybrid<ici=["data"=1, "fsdp"=4, "tensor"=1], dcn=["data"=2, "fsdp"=1, "tensor"=1]>
// CHECK: xla.mesh @hybrid2d = hybrid<ici=["x"=2, "y"=2], dcn=["x"=2, "y"=1]>
xla.mesh @hybrid2d = hybrid<ici=["x"=2, "y"=2], dcn=["x"=2, "y"=1]>
// A mixed axis (ICI and DCN factors both > 1).
// CHECK: xla.mesh @mixed = hybrid<ici=["x"=2], dcn=["x"=4]>
xla.mesh @mixed = hybrid<ici=["x"=2], dcn=["x"=4]>

// The attribute on its own (here as a discardable attribute of a function)
// prints with the `hybrid` keyword inside the brackets.
// CHECK-LABEL: func.func @mesh_attributes()
// CHECK-SAME: hybrid = #xla.mesh<hybrid ici=["a"=2, "b"=1], dcn=["a"=1, "b"=2]>
// CHECK-SAME: perm = #xla.mesh<["a"=2], devices=[1, 0]>
// CHECK-SAME: plain = #xla.mesh<["a"=2, "b"=3]>
func.func @mesh_attributes() attributes {
    plain = #xla.mesh<["a"=2, "b"=3]>,
    perm = #xla.mesh<["a"=2], devices=[1, 0]>,
    hybrid = #xla.mesh<hybrid ici=["a"=2, "b"=1], dcn=["a"=1, "b"=2]>} {
  return
}

// Meshes in a nested module are checked against that module's meshes only.
// CHECK-LABEL: module @four_devices
// CHECK: xla.mesh @small = <["x"=2, "y"=2]>
module @four_devices {
  xla.mesh @small = <["x"=2, "y"=2]>
}
