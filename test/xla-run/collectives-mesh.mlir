// Collectives whose participants are mesh axes, on 4 devices. Inputs are
// global; each argument is split by its sharding, each result assembled by
// its sharding. With [{"x", "y"}] over 8 elements, device d holds elements
// 2d and 2d+1 (mesh devices 0..3 row-major: x major, y minor), so the y
// groups are [[0, 1], [2, 3]] and the x groups [[0, 2], [1, 3]].
// Expected values worked out by hand.
//
// RUN: xla-run %s --function=all_reduce_kinds --input=8xf32=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=AR
// RUN: xla-run %s --function=all_reduce_int --input=8xi32=1,2,3,4,5,6,7,8 --input=4xi1=1,1,0,1 | FileCheck %s --check-prefix=ARINT
// RUN: xla-run %s --function=all_reduce_bf16 --input=4xbf16=1,0.00390625,0.00390625,0 | FileCheck %s --check-prefix=ARBF16
// RUN: xla-run %s --function=all_gathers --input=8xf32=1,2,3,4,5,6,7,8 --input=2x4xf32=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=AG
// RUN: xla-run %s --function=reduce_scatters --input=16xf32=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 | FileCheck %s --check-prefix=RS
// RUN: xla-run %s --function=all_to_alls --input=16xi64=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --input=4x2xf32=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=A2A
// RUN: xla-run %s --function=permutes --input=8xf16=1,2,3,4,5,6,7,8 | FileCheck %s --check-prefix=CP
// RUN: xla-run %s --function=all_slice --input=4xi8=1,2,3,4 | FileCheck %s --check-prefix=SLICE
// RUN: xla-run %s --function=ids | FileCheck %s --check-prefix=IDS
// RUN: xla-run %s --function=on_hybrid --input=4xf32=1,2,3,4 | FileCheck %s --check-prefix=HYBRID

xla.mesh @mesh = <["x"=2, "y"=2]>
// A permuted device order: (a, b) = (0,0) is device 0, (0,1) device 2,
// (1,0) device 1, (1,1) device 3.
xla.mesh @perm = <["a"=2, "b"=2], devices=[0, 2, 1, 3]>
// Two slices of two chips, the slice (DCN) index on axis "s": device at
// (i, s) is 2s + i, i.e. devices [0, 2, 1, 3] row-major.
xla.mesh @hybrid = hybrid<ici=["i"=2, "s"=1], dcn=["i"=1, "s"=2]>

// Sum over y: [1+3, 2+4] on devices 0 and 1, [5+7, 6+8] on 2 and 3.
// AR: EXEC @all_reduce_kinds on 4 devices
// AR: result[0]: 4xf32=4 6 12 14
// Max over x: [5 6] on devices 0 and 2, [7 8] on 1 and 3.
// AR: result[1]: 4xf32=5 6 7 8
// Min over both axes: every device holds [1 2].
// AR: result[2]: 2xf32=1 2
// Product over y, scaled by 0.5: [1*3, 2*4]/2 and [5*7, 6*8]/2.
// AR: result[3]: 4xf32=1.5 4 17.5 24
func.func @all_reduce_kinds(%a: tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>},
        tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}]>},
        tensor<2xf32>,
        tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>}) {
  %0 = xla.all_reduce sum %a mesh_axes = @mesh["y"] : tensor<2xf32>
  %1 = xla.all_reduce max %a mesh_axes = @mesh["x"] : tensor<2xf32>
  %2 = xla.all_reduce min %a mesh_axes = @mesh["x", "y"] : tensor<2xf32>
  %3 = xla.all_reduce mul %a mesh_axes = @mesh["y"] scale = 5.000000e-01 : tensor<2xf32>
  return %0, %1, %2, %3 : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// And over y: [1&3, 2&4] = [1 0], [5&7, 6&8] = [5 0]. Or over x:
// [1|5, 2|6] = [5 6], [3|7, 4|8] = [7 12]. i1 (device d holds bit d of
// 1 1 0 1): min (and) over all = 0, max (or) over all = 1.
// ARINT: result[0]: 4xi32=1 0 5 0
// ARINT: result[1]: 4xi32=5 6 7 12
// ARINT: result[2]: 1xi1=0
// ARINT: result[3]: 1xi1=1
func.func @all_reduce_int(%a: tensor<2xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
                          %b: tensor<1xi1> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<2xi32> {xla.sharding = #xla.sharding<@mesh, [{"x"}]>},
        tensor<2xi32> {xla.sharding = #xla.sharding<@mesh, [{"y"}]>},
        tensor<1xi1>, tensor<1xi1>) {
  %0 = xla.all_reduce and %a mesh_axes = @mesh["y"] : tensor<2xi32>
  %1 = xla.all_reduce or %a mesh_axes = @mesh["x"] : tensor<2xi32>
  %2 = xla.all_reduce min %b mesh_axes = @mesh["x", "y"] : tensor<1xi1>
  %3 = xla.all_reduce max %b mesh_axes = @mesh["x", "y"] : tensor<1xi1>
  return %0, %1, %2, %3 : tensor<2xi32>, tensor<2xi32>, tensor<1xi1>, tensor<1xi1>
}

// bf16 folds in f32 and rounds once: 1 + 2^-8 + 2^-8 = 1.0078125 (printed
// 1.01); folding in bf16 would round 1 + 2^-8 (a tie) to 1 at each step.
// ARBF16: result[0]: 1xbf16=1.01
func.func @all_reduce_bf16(%a: tensor<1xbf16> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) -> tensor<1xbf16> {
  %0 = xla.all_reduce sum %a mesh_axes = @mesh["x", "y"] : tensor<1xbf16>
  return %0 : tensor<1xbf16>
}

// Gathering over ["y", "x"] orders the group y-major: devices 0, 2, 1, 3.
// AG: result[0]: 8xf32=1 2 5 6 3 4 7 8
// 2x4 split [{"x"}, {"y"}]: device (x, y) holds row x, columns 2y..2y+1.
// Gathering dim 1 over y rebuilds rows; dim 0 over x rebuilds columns.
// AG: result[1]: 2x4xf32=[1 2 3 4][5 6 7 8]
// AG: result[2]: 2x4xf32=[1 2 3 4][5 6 7 8]
func.func @all_gathers(%a: tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
                       %b: tensor<1x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8xf32>,
        tensor<1x4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x"}, {}]>},
        tensor<2x2xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = xla.all_gather %a, dim = 0 mesh_axes = @mesh["y", "x"] : (tensor<2xf32>) -> tensor<8xf32>
  %1 = xla.all_gather %b, dim = 1 mesh_axes = @mesh["y"] : (tensor<1x2xf32>) -> tensor<1x4xf32>
  %2 = xla.all_gather %b, dim = 0 mesh_axes = @mesh["x"] : (tensor<1x2xf32>) -> tensor<2x2xf32>
  return %0, %1, %2 : tensor<8xf32>, tensor<1x4xf32>, tensor<2x2xf32>
}

// Device d holds 4d+1..4d+4. Over y, devices 0 and 1 sum to [6 8 10 12]:
// device 0 keeps [6 8], device 1 [10 12]; devices 2 and 3 sum to
// [22 24 26 28].
// RS: result[0]: 8xf32=6 8 10 12 22 24 26 28
// RS: result[1]: 8xf32=3 4 5 6 11 12 13 14
func.func @reduce_scatters(%a: tensor<4xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
        tensor<2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = xla.reduce_scatter sum %a, dim = 0 mesh_axes = @mesh["y"] : (tensor<4xf32>) -> tensor<2xf32>
  %1 = xla.reduce_scatter sum %a, dim = 0 mesh_axes = @mesh["y"] scale = 5.000000e-01 : (tensor<4xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// Over y, device 0 gets block 0 of devices 0 and 1: [1 2 5 6]; device 1
// block 1 of each: [3 4 7 8]; likewise on devices 2 and 3.
// A2A: result[0]: 16xi64=1 2 5 6 3 4 7 8 9 10 13 14 11 12 15 16
// 4x2 split by rows; over x, device 0 (position 0) receives column 0 of
// devices 0 and 2 ([1] and [5]) stacked on dim 0; device 2 column 1.
// A2A: result[1]: 4x2xf32=[1 2][5 6][3 4][7 8]
func.func @all_to_alls(%a: tensor<4xi64> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
                       %b: tensor<1x2xf32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}, {}]>})
    -> (tensor<4xi64> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
        tensor<2x1xf32> {xla.sharding = #xla.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %0 = xla.all_to_all %a, split_dim = 0, concat_dim = 0, split_count = 2 mesh_axes = @mesh["y"] : (tensor<4xi64>) -> tensor<4xi64>
  %1 = xla.all_to_all %b, split_dim = 1, concat_dim = 0, split_count = 2 mesh_axes = @mesh["x"] : (tensor<1x2xf32>) -> tensor<2x1xf32>
  return %0, %1 : tensor<4xi64>, tensor<2x1xf32>
}

// Swap within each y group; then only position 0 -> 1 (position 0 gets
// zeros).
// CP: result[0]: 8xf16=3 4 1 2 7 8 5 6
// CP: result[1]: 8xf16=0 0 1 2 0 0 5 6
func.func @permutes(%a: tensor<2xf16> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>})
    -> (tensor<2xf16> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
        tensor<2xf16> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>}) {
  %0 = xla.collective_permute %a, pairs = [[0, 1], [1, 0]] mesh_axes = @mesh["y"] : tensor<2xf16>
  %1 = xla.collective_permute %a, pairs = [[0, 1]] mesh_axes = @mesh["y"] : tensor<2xf16>
  return %0, %1 : tensor<2xf16>, tensor<2xf16>
}

// Replicated [1 2 3 4]: the device at y position p keeps block p.
// SLICE: result[0]: 4xi8=1 2 3 4
func.func @all_slice(%a: tensor<4xi8>) -> (tensor<2xi8> {xla.sharding = #xla.sharding<@mesh, [{"y"}]>}) {
  %0 = xla.all_slice %a, dim = 0 mesh_axes = @mesh["y"] : (tensor<4xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// IDS: result[0]: 4xi32=0 1 2 3
// IDS: result[1]: 4xi32=0 0 1 1
// IDS: result[2]: 4xi32=0 1 0 1
// Axis a of @perm: devices 0 and 2 are at a = 0, devices 1 and 3 at a = 1.
// IDS: result[3]: 4xi32=0 1 0 1
// Device ids laid out by @perm: block (a, b) holds device [0 2 1 3][2a+b].
// IDS: result[4]: 4xi32=0 2 1 3
func.func @ids() -> (tensor<1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
                     tensor<1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
                     tensor<1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
                     tensor<1xi32> {xla.sharding = #xla.sharding<@mesh, [{"x", "y"}]>},
                     tensor<1xi32> {xla.sharding = #xla.sharding<@perm, [{"a", "b"}]>}) {
  %p = xla.partition_id : tensor<i32>
  %x = xla.axis_index @mesh["x"] : tensor<i32>
  %y = xla.axis_index @mesh["y"] : tensor<i32>
  %a = xla.axis_index @perm["a"] : tensor<i32>
  %0 = xla.broadcast_in_dim %p, dims = [] : (tensor<i32>) -> tensor<1xi32>
  %1 = xla.broadcast_in_dim %x, dims = [] : (tensor<i32>) -> tensor<1xi32>
  %2 = xla.broadcast_in_dim %y, dims = [] : (tensor<i32>) -> tensor<1xi32>
  %3 = xla.broadcast_in_dim %a, dims = [] : (tensor<i32>) -> tensor<1xi32>
  return %0, %1, %2, %3, %0 : tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>
}

// Block (i, s) of [{"i", "s"}] goes to device 2s + i: devices 0, 2, 1, 3
// hold 1, 2, 3, 4. Summing over the DCN axis s pairs devices {0, 2} and
// {1, 3}: 1+2 = 3 and 3+4 = 7, laid out by i.
// HYBRID: result[0]: 4xi32=0 2 1 3
// HYBRID: result[1]: 2xf32=3 7
func.func @on_hybrid(%a: tensor<1xf32> {xla.sharding = #xla.sharding<@hybrid, [{"i", "s"}]>})
    -> (tensor<1xi32> {xla.sharding = #xla.sharding<@hybrid, [{"i", "s"}]>},
        tensor<1xf32> {xla.sharding = #xla.sharding<@hybrid, [{"i"}]>}) {
  %p = xla.partition_id : tensor<i32>
  %0 = xla.broadcast_in_dim %p, dims = [] : (tensor<i32>) -> tensor<1xi32>
  %1 = xla.all_reduce sum %a mesh_axes = @hybrid["s"] : tensor<1xf32>
  return %0, %1 : tensor<1xi32>, tensor<1xf32>
}
