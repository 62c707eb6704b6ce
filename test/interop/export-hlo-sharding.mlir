// RUN: xla-opt %s -split-input-file -verify-diagnostics --xla-export-hlo-sharding | FileCheck %s
// RUN: xla-opt %s -split-input-file -verify-diagnostics --xla-export-hlo-sharding=iota=true | FileCheck %s --check-prefix=IOTA

// The HloSharding text PyTorch/XLA builds (Mesh.get_op_sharding, then
// XLA's HloSharding printer) for the same mesh and partition spec.

// torch_xla test_fsdp_v2_multi_slice: mesh (2, 4, 1) ('data', 'fsdp',
// 'tensor'); weights (None, 'fsdp'), input (('data', 'fsdp'), None).
xla.mesh @mesh = <["data"=2, "fsdp"=4, "tensor"=1]>

// CHECK-LABEL: func.func @fsdp_v2
// CHECK-SAME: mhlo.sharding = "{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}"
// CHECK-SAME: mhlo.sharding = "{devices=[8,1]0,1,2,3,4,5,6,7}"
// CHECK-SAME: mhlo.sharding = "{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}"
// CHECK-SAME: mhlo.sharding = "{devices=[4,2]0,4,1,5,2,6,3,7}"
// CHECK-SAME: mhlo.sharding = "{replicated}"
// CHECK-SAME: mhlo.sharding = "{replicated}"
// CHECK-SAME: mhlo.sharding = "{replicated}"
// CHECK-SAME: -> (tensor<16x128xf32> {mhlo.sharding = "{devices=[2,4]0,1,2,3,4,5,6,7}", xla.sharding
// IOTA-LABEL: func.func @fsdp_v2
// IOTA-SAME: mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"
// IOTA-SAME: mhlo.sharding = "{devices=[8,1]<=[8]}"
// IOTA-SAME: mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"
// IOTA-SAME: mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"
// IOTA-SAME: mhlo.sharding = "{replicated}"
// IOTA-SAME: mhlo.sharding = "{replicated}"
// IOTA-SAME: mhlo.sharding = "{replicated}"
// IOTA-SAME: -> (tensor<16x128xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}", xla.sharding
func.func @fsdp_v2(%w: tensor<64x128xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"fsdp"}]>},
                   %x: tensor<16x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"data", "fsdp"}, {}]>},
                   %y: tensor<16x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                   %t: tensor<16x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {"data"}]>},
                   %r: tensor<16x128xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>},
                   %s: tensor<16x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"tensor"}, {}]>},
                   %scalar: tensor<f32> {xla.sharding = #xla.sharding<@mesh, []>},
                   %unannotated: tensor<4xf32>)
    -> (tensor<16x128xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"fsdp", "tensor"}]>}) {
  return %y : tensor<16x128xf32>
}

// -----

// A tuple merges its axes in tuple order: ("y", "x") is a different device
// order from ("x", "y").
xla.mesh @mesh = <["x"=2, "y"=4]>

// CHECK-LABEL: func.func @tuples
// CHECK-SAME: mhlo.sharding = "{devices=[8]0,1,2,3,4,5,6,7}"
// CHECK-SAME: mhlo.sharding = "{devices=[8]0,4,1,5,2,6,3,7}"
// CHECK-SAME: mhlo.sharding = "{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}"
// IOTA-LABEL: func.func @tuples
// IOTA-SAME: mhlo.sharding = "{devices=[8]<=[8]}"
// IOTA-SAME: mhlo.sharding = "{devices=[8]<=[2,4]T(1,0)}"
// IOTA-SAME: mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"
func.func @tuples(%a: tensor<16xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
                  %b: tensor<16xf32> {xla.sharding = #xla.sharding<@mesh, [{"y", "x"}]>},
                  %c: tensor<8x8xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}) {
  return
}

// -----

// An explicit device order (torch_xla Mesh(device_ids, ...)) is printed as
// the explicit list even in iota mode; replication groups are sorted.
xla.mesh @perm = <["x"=4, "y"=2], devices=[0, 2, 4, 6, 1, 3, 5, 7]>

// CHECK-LABEL: func.func @explicit_devices
// CHECK-SAME: mhlo.sharding = "{devices=[4,1,2]0,2,4,6,1,3,5,7 last_tile_dim_replicate}"
// CHECK-SAME: mhlo.sharding = "{devices=[1,2,4]0,1,4,5,2,3,6,7 last_tile_dim_replicate}"
// IOTA-LABEL: func.func @explicit_devices
// IOTA-SAME: mhlo.sharding = "{devices=[4,1,2]0,2,4,6,1,3,5,7 last_tile_dim_replicate}"
// IOTA-SAME: mhlo.sharding = "{devices=[1,2,4]0,1,4,5,2,3,6,7 last_tile_dim_replicate}"
func.func @explicit_devices(%a: tensor<8x8xf32> {xla.sharding = #xla.sharding<@perm, [{"x"}, {}]>},
                            %b: tensor<8x8xf32> {xla.sharding = #xla.sharding<@perm, [{}, {"y"}]>}) {
  return
}

// -----

// A hybrid mesh orders devices slice by slice; its iota form has one
// reshape dimension per DCN and per ICI factor.
xla.mesh @hybrid = hybrid<ici=["x"=2, "y"=2], dcn=["x"=1, "y"=2]>

// CHECK-LABEL: func.func @hybrid_mesh
// CHECK-SAME: mhlo.sharding = "{devices=[4,1,2]0,2,1,3,4,6,5,7 last_tile_dim_replicate}"
// CHECK-SAME: mhlo.sharding = "{devices=[2,4]0,1,4,5,2,3,6,7}"
// IOTA-LABEL: func.func @hybrid_mesh
// IOTA-SAME: mhlo.sharding = "{devices=[4,1,2]<=[2,2,2]T(0,2,1) last_tile_dim_replicate}"
// IOTA-SAME: mhlo.sharding = "{devices=[2,4]<=[2,2,2]T(1,0,2)}"
func.func @hybrid_mesh(%a: tensor<8x8xf32> {xla.sharding = #xla.sharding<@hybrid, [{"y"}, {}]>},
                  %b: tensor<8x8xf32> {xla.sharding = #xla.sharding<@hybrid, [{"x"}, {"y"}]>}) {
  return
}

// -----

// One device: XLA's maximal sharding.
xla.mesh @single = <["x"=1]>

// CHECK-LABEL: func.func @single_device
// CHECK-SAME: mhlo.sharding = "{maximal device=0}"
// IOTA-LABEL: func.func @single_device
// IOTA-SAME: mhlo.sharding = "{maximal device=0}"
func.func @single_device(%a: tensor<8xf32> {xla.sharding = #xla.sharding<@single, [{"x"}]>}) {
  return
}

// -----

// A pending reduction has no HloSharding form (torch_xla has no partial
// sharding): skipped with a warning.
xla.mesh @mesh = <["x"=4]>

// CHECK-LABEL: func.func @partial
// CHECK-NOT: mhlo.sharding
// expected-warning @+1 {{result 0: a partial sharding (pending reduction) has no HloSharding form; no mhlo.sharding written}}
func.func @partial(%a: tensor<8xf32>) -> (tensor<8xf32> {xla.sharding = #xla.sharding<@mesh, [{}], partial={"x"}>}) {
  return %a : tensor<8xf32>
}
