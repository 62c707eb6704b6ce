// A program over 4096 devices lowers to a handful of bodies, not 4096:
// device-dependent offsets are tables (data), so devices differ only where
// they use different links in some collective.

// RUN: xla-opt %s -split-input-file --xla-spmd-pipeline | FileCheck %s
// RUN: xla-opt %s -split-input-file --xla-spmd-pipeline | grep -c "xla.devices = " | FileCheck %s --check-prefix=BODIES

// One body for the first module, two for the second.
// BODIES: {{^}}3{{$}}

// Megatron MLP over a 64 x 64 mesh: one body runs on every device.
// CHECK-LABEL: func.func @mlp
// CHECK-NEXT: xla.dispatch [@mlp.body0](
// CHECK: func.func private @mlp.body0
// CHECK-SAME: xla.devices = array<i64: 0, 1, 2, {{.*}}, 4094, 4095>
// CHECK: xla.all_reduce sum {{.*}} groups = {{\[}}[0, 1, 2, {{.*}}, 63], [64, 65, {{.*}}, 4095]] link = ici
// CHECK: xla.all_gather {{.*}} groups = {{\[}}[0, 64, 128, {{.*}}, 4032], [1, 65, {{.*}}, 4095]] link = ici
// Rows 4 * data of the gathered rows.
// CHECK: xla.device_table [0, 0, {{.*}}, 0, 4, 4, {{.*}}, 252, 252] : tensor<i32>
// CHECK-NOT: func.func
xla.mesh @mesh = <["data"=64, "model"=64]>
func.func @mlp(%x: tensor<256x512xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
               %w1: tensor<512x1024xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
               %w2: tensor<1024x512xf32> {xla.sharding = #xla.sharding<@mesh, [{"model"}, {}]>})
    -> (tensor<256x512xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %h = xla.matmul %x, %w1 : (tensor<256x512xf32>, tensor<512x1024xf32>) -> tensor<256x1024xf32>
  %g = xla.gelu %h : tensor<256x1024xf32>
  %y = xla.matmul %g, %w2 : (tensor<256x1024xf32>, tensor<1024x512xf32>) -> tensor<256x512xf32>
  %s = xla.softmax %y, dim = 0 : tensor<256x512xf32>
  return %s : tensor<256x512xf32>
}

// -----

// 16 slices of 16 x 16 chips; "data" and "model" both span ICI and DCN.
// A halo exchange along "data" (slice with an offset) crosses the DCN only
// at slice boundaries: the 384 devices on either side of one (2 rows x 64
// columns x 3 boundaries) use ICI and DCN there and run a second body.
// CHECK-LABEL: func.func @halo_mlp
// CHECK-NEXT: xla.dispatch [@halo_mlp.body0, @halo_mlp.body1](
// CHECK: func.func private @halo_mlp.body0
// CHECK-SAME: xla.devices = array<i64: 0, 1, 2, {{.*}}, 4094, 4095>
// CHECK: xla.collective_permute {{.*}} link = ici
// CHECK: xla.device_table [0, 0, {{.*}}, 630, 630] : tensor<i32>
// CHECK: func.func private @halo_mlp.body1
// CHECK-SAME: xla.devices = array<i64: 240, 241, {{.*}}, 3854, 3855>
// CHECK: xla.collective_permute {{.*}} link = mixed
// CHECK-NOT: func.func
xla.mesh @mesh = hybrid<ici=["data"=16, "model"=16], dcn=["data"=4, "model"=4]>
func.func @halo_mlp(%x: tensor<640x256xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
                    %w: tensor<256x512xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>})
    -> (tensor<638x512xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}) {
  %s = xla.slice %x, start = [1, 0], limit = [639, 256], strides = [1, 1] : (tensor<640x256xf32>) -> tensor<638x256xf32>
  %s2 = xla.mark_sharding %s <@mesh, [{"data"}, {}]> : tensor<638x256xf32>
  %h = xla.matmul %s2, %w : (tensor<638x256xf32>, tensor<256x512xf32>) -> tensor<638x512xf32>
  %r = xla.reduce sum %h, dims = [1] : (tensor<638x512xf32>) -> tensor<638xf32>
  %b = xla.broadcast_in_dim %r, dims = [0] : (tensor<638xf32>) -> tensor<638x512xf32>
  %y = xla.add %h, %b : tensor<638x512xf32>
  return %y : tensor<638x512xf32>
}
