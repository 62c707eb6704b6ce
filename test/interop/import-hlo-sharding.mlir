// RUN: xla-opt %s -split-input-file -verify-diagnostics --xla-import-hlo-sharding | FileCheck %s
// Round trips: exporting (explicit or iota form) then importing gives the
// original partition specs back.
// RUN: xla-opt %s -split-input-file -verify-diagnostics --xla-import-hlo-sharding --xla-export-hlo-sharding --xla-import-hlo-sharding | FileCheck %s
// RUN: xla-opt %s -split-input-file -verify-diagnostics --xla-import-hlo-sharding --xla-export-hlo-sharding=iota=true --xla-import-hlo-sharding | FileCheck %s

xla.mesh @mesh = <["data"=2, "fsdp"=4, "tensor"=1]>

// CHECK-LABEL: func.func @both_forms
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{}, {"fsdp"}]>
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{}, {"fsdp"}]>
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{"data", "fsdp"}, {}]>
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{"fsdp", "data"}, {}]>
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {"data"}]>
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{}, {}]>
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, []>
// CHECK-SAME: -> (tensor<16x128xf32> {mhlo.sharding = "{{[^"]*}}", xla.sharding = #xla.sharding<@mesh, [{"data"}, {"fsdp"}]>})
// CHECK: xla.exp {{.*}}xla.sharding = #xla.sharding<@mesh, [{"fsdp"}, {}]>
func.func @both_forms(
    %w0: tensor<64x128xf32> {mhlo.sharding = "{devices=[1,4,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}"},
    %w1: tensor<64x128xf32> {mhlo.sharding = "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"},
    %x0: tensor<16x128xf32> {mhlo.sharding = "{devices=[8,1]<=[8]}"},
    %x1: tensor<16x128xf32> {mhlo.sharding = "{devices=[8,1]0,4,1,5,2,6,3,7}"},
    %y: tensor<16x128xf32> {mhlo.sharding = "{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}"},
    %t: tensor<16x128xf32> {mhlo.sharding = "{devices=[4,2]<=[2,4]T(1,0)}"},
    %r: tensor<16x128xf32> {mhlo.sharding = "{replicated}"},
    %s: tensor<f32> {mhlo.sharding = "{replicated}"})
    -> (tensor<16x128xf32> {mhlo.sharding = "{devices=[2,4]0,1,2,3,4,5,6,7}"}) {
  %0 = xla.exp %x0 {mhlo.sharding = "{devices=[4,1,2]0,4,1,5,2,6,3,7 last_tile_dim_replicate}"} : tensor<16x128xf32>
  return %y : tensor<16x128xf32>
}

// Replication groups may list their devices in any order, subgroups may be
// spelled last_tile_dims={replicated}.
// CHECK-LABEL: func.func @equivalent_spellings
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>
func.func @equivalent_spellings(
    %a: tensor<16x128xf32> {mhlo.sharding = "{devices=[2,1,4]3,2,1,0,7,6,5,4 last_tile_dim_replicate}"},
    %b: tensor<16x128xf32> {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dims={replicated}}"}) {
  return
}

// -----

// A hybrid mesh: specs over its axes from either form.
xla.mesh @hybrid = hybrid<ici=["x"=2, "y"=2], dcn=["x"=1, "y"=2]>

// CHECK-LABEL: func.func @hybrid_mesh
// CHECK-SAME: xla.sharding = #xla.sharding<@hybrid, [{"y"}, {}]>
// CHECK-SAME: xla.sharding = #xla.sharding<@hybrid, [{"x"}, {"y"}]>
func.func @hybrid_mesh(%a: tensor<8x8xf32> {mhlo.sharding = "{devices=[4,1,2]0,2,1,3,4,6,5,7 last_tile_dim_replicate}"},
                       %b: tensor<8x8xf32> {mhlo.sharding = "{devices=[2,4]<=[2,2,2]T(1,0,2)}"}) {
  return
}

// -----

xla.mesh @single = <["x"=1]>

// CHECK-LABEL: func.func @maximal
// CHECK-SAME: xla.sharding = #xla.sharding<@single, [{}]>
func.func @maximal(%a: tensor<8xf32> {mhlo.sharding = "{maximal device=0}"}) {
  return
}

// -----

// Tile assignments no partition spec over the mesh produces.
xla.mesh @mesh = <["x"=2, "y"=4]>

// expected-error @+1 {{argument 0: no partition spec over mesh @mesh gives the tile assignment of HloSharding '{devices=[8]7,6,5,4,3,2,1,0}'}}
func.func @reversed(%a: tensor<16xf32> {mhlo.sharding = "{devices=[8]7,6,5,4,3,2,1,0}"}) {
  return
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// Shard counts no whole axes give (only "x" has size 2): "y" in two parts,
// as Shardy's sub-axes.
// CHECK-LABEL: func.func @two_by_two_by_two
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y":(1)2}, {"y":(2)2}]>
func.func @two_by_two_by_two(%a: tensor<4x4x4xf32> {mhlo.sharding = "{devices=[2,2,2]<=[8]}"}) {
  return
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// Parts of "y" in the other order: minor part on dimension 0.
// CHECK-LABEL: func.func @minor_part_first
// CHECK-SAME: xla.sharding = #xla.sharding<@mesh, [{"y":(2)2}, {"x", "y":(1)2}]>
func.func @minor_part_first(%a: tensor<4x4xf32> {mhlo.sharding = "{devices=[2,4]<=[2,2,2]T(2,0,1)}"}) {
  return
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// expected-error @+1 {{argument 0: HloSharding '{devices=[3,1]<=[3]}' spans 3 devices but mesh @mesh has 8}}
func.func @three_devices(%a: tensor<6x8xf32> {mhlo.sharding = "{devices=[3,1]<=[3]}"}) {
  return
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// expected-error @+1 {{argument 0: HloSharding '{devices=[2,4]<=[8]}' tiles 2 dimensions but the value has rank 1}}
func.func @rank_mismatch(%a: tensor<16xf32> {mhlo.sharding = "{devices=[2,4]<=[8]}"}) {
  return
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// expected-error @+1 {{argument 0: HloSharding '{maximal device=3}' puts the value on device 3 only; no partition spec over mesh @mesh of 8 devices does}}
func.func @maximal_on_many(%a: tensor<16xf32> {mhlo.sharding = "{maximal device=3}"}) {
  return
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// expected-error @+1 {{argument 0: HloSharding '{manual}' is not a partition spec}}
func.func @manual(%a: tensor<16xf32> {mhlo.sharding = "{manual}"}) {
  return
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// expected-error @+1 {{result 0: cannot parse HloSharding '{devices=[2,4]0,1,2}': the tile assignment lists 3 devices for 8 tiles}}
func.func @short_device_list(%a: tensor<16x8xf32>) -> (tensor<16x8xf32> {mhlo.sharding = "{devices=[2,4]0,1,2}"}) {
  return %a : tensor<16x8xf32>
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

func.func @bad_op_sharding(%a: tensor<16xf32>) -> tensor<16xf32> {
  // expected-error @+1 {{tuple shardings are not supported (each value is one array)}}
  %0 = xla.exp %a {mhlo.sharding = "{{replicated}, {replicated}}"} : tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

xla.mesh @mesh = <["x"=2, "y"=4]>

// expected-error @+1 {{argument 0: cannot parse HloSharding '{devices=[2,4]<=[2,4]T(0,0)}': T(...) must permute the 2 iota dimensions}}
func.func @bad_permutation(%a: tensor<16x8xf32> {mhlo.sharding = "{devices=[2,4]<=[2,4]T(0,0)}"}) {
  return
}

// -----

// expected-error @+1 {{argument 0: importing '{replicated}' needs a mesh in the module}}
func.func @no_mesh(%a: tensor<16x8xf32> {mhlo.sharding = "{replicated}"}) {
  return
}
