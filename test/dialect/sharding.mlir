// Round trip of #xla.sharding (partition specs), xla.sharding on function
// arguments, results and op results, xla.donate / xla.aliases on arguments,
// and xla.mark_sharding.

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

xla.mesh @mesh = <["data"=4, "model"=2]>
xla.mesh @hybrid = hybrid<ici=["data"=1, "fsdp"=4, "tensor"=1], dcn=["data"=2, "fsdp"=1, "tensor"=1]>

// CHECK-LABEL: func.func @partition_specs
// None, one axis, an ordered tuple (major to minor, order kept).
// CHECK-SAME: #xla.sharding<@mesh, [{}, {}]>
// CHECK-SAME: #xla.sharding<@mesh, [{"data"}, {}]>
// CHECK-SAME: #xla.sharding<@mesh, [{"data", "model"}, {}]>
// CHECK-SAME: #xla.sharding<@mesh, [{}, {"model", "data"}]>
// Scalars have an empty spec.
// CHECK-SAME: #xla.sharding<@mesh, []>
func.func @partition_specs(
    %a: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}]>},
    %b: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>},
    %c: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data", "model"}, {}]>},
    %d: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {"model", "data"}]>},
    %e: tensor<f32> {xla.sharding = #xla.sharding<@mesh, []>}) {
  return
}

// Integer axis indices (torch_xla's partition_spec=(0, None)) are printed as
// the axis names they stand for.
// CHECK-LABEL: func.func @axis_indices
// CHECK-SAME: #xla.sharding<@mesh, [{"data"}, {"model"}]>
// CHECK-SAME: #xla.sharding<@mesh, [{"model", "data"}, {}]>
// CHECK-SAME: #xla.sharding<@hybrid, [{"data", "fsdp"}, {"tensor"}]>
// CHECK-SAME: #xla.sharding<@mesh, [{"data"}, {}], partial={"model"}>
func.func @axis_indices(
    %a: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{0}, {1}]>},
    %b: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{1, "data"}, {}]>},
    %c: tensor<8x32xf32> {xla.sharding = #xla.sharding<@hybrid, [{0, 1}, {2}]>},
    %d: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{0}, {}], partial={1}>}) {
  return
}

// Open dimensions (`?`) and priorities (`p<N>`), as in Shardy.
// CHECK-LABEL: func.func @open_and_priorities
// CHECK-SAME: #xla.sharding<@mesh, [{?}, {"model", ?}]>
// CHECK-SAME: #xla.sharding<@mesh, [{"data"}p0, {"model"}p1]>
// CHECK-SAME: #xla.sharding<@mesh, [{?}p2, {"model", ?}p12]>
func.func @open_and_priorities(
    %a: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{?}, {"model", ?}]>},
    %b: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}p0, {"model"}p1]>},
    %c: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{?}p2, {"model",?}p12]>}) {
  return
}

// Partial values: a pending sum (the default kind, not printed) or another
// reduction over the listed axes.
// CHECK-LABEL: func.func @partial
// CHECK-SAME: #xla.sharding<@mesh, [{"data"}, {}], partial={"model"}>
// CHECK-SAME: #xla.sharding<@mesh, [{}, {}], partial={"data", "model"}>
// CHECK-SAME: #xla.sharding<@mesh, [{}, {}], partial<max>={"model"}>
// CHECK-SAME: #xla.sharding<@mesh, [{}, {}], partial<min>={"model"}>
// CHECK-SAME: #xla.sharding<@mesh, [{}, {}], partial<mul>={"model"}>
// CHECK-SAME: #xla.sharding<@mesh, [{}], partial<and>={"data"}>
// CHECK-SAME: #xla.sharding<@mesh, [{}], partial<or>={"data"}>
// CHECK-SAME: #xla.sharding<@mesh, [{"data"}, {}], partial={"model"}>
func.func @partial(
    %a: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}], partial={"model"}>},
    %b: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}], partial={"data", "model"}>},
    %c: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}], partial<max>={"model"}>},
    %d: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}], partial<min>={"model"}>},
    %e: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{}, {}], partial<mul>={"model"}>},
    %f: tensor<8xi1> {xla.sharding = #xla.sharding<@mesh, [{}], partial<and>={"data"}>},
    %g: tensor<8xi32> {xla.sharding = #xla.sharding<@mesh, [{}], partial<or>={"data"}>},
    %h: tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}], partial<sum>={"model"}>}) {
  return
}

// Non-divisible dimensions are legal: the partitioner pads them.
// CHECK-LABEL: func.func @non_divisible
// CHECK-SAME: tensor<7x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>}
// CHECK-SAME: tensor<3xf32> {xla.sharding = #xla.sharding<@mesh, [{"data", "model"}]>}
// CHECK: xla.mark_sharding %{{.*}} <@mesh, [{"data"}, {}]> : tensor<7x5xf32>
func.func @non_divisible(
    %a: tensor<7x5xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>},
    %b: tensor<3xf32> {xla.sharding = #xla.sharding<@mesh, [{"data", "model"}]>}) -> tensor<7x5xf32> {
  %0 = xla.mark_sharding %a <@mesh, [{"data"}, {}]> : tensor<7x5xf32>
  return %0 : tensor<7x5xf32>
}

// Function results and op results carry shardings too; an op with several
// results takes an array.
// CHECK-LABEL: func.func @results
// CHECK-SAME: -> (tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}, tensor<8xf32>)
// CHECK: xla.add %{{.*}}, %{{.*}} {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>} : tensor<8x32xf32>
// CHECK: xla.sharding = [#xla.sharding<@mesh, [{"data"}]>]
func.func @results(%x: tensor<8x32xf32>, %y: tensor<8xf32>)
    -> (tensor<8x32xf32> {xla.sharding = #xla.sharding<@mesh, [{"data"}, {}]>}, tensor<8xf32>) {
  %0 = xla.add %x, %x {xla.sharding = #xla.sharding<@mesh, [{"data"}, {"model"}]>} : tensor<8x32xf32>
  %1 = xla.neg %y {xla.sharding = [#xla.sharding<@mesh, [{"data"}]>]} : tensor<8xf32>
  return %0, %1 : tensor<8x32xf32>, tensor<8xf32>
}

// Donated buffers and input/output aliasing (a training step updating its
// parameters in place).
// CHECK-LABEL: func.func @train_step
// CHECK-SAME: (%[[W:.*]]: tensor<32x32xf32> {xla.aliases = 0 : i64, xla.donate, xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
// CHECK-SAME:  %[[G:.*]]: tensor<32x32xf32> {xla.donate},
// CHECK-SAME:  %[[M:.*]]: tensor<32xf32> {xla.aliases = 1 : i64})
// CHECK: %[[NEW:.*]] = xla.sub %[[W]], %[[G]] : tensor<32x32xf32>
// CHECK: return %[[NEW]], %[[M]]
func.func @train_step(
    %w: tensor<32x32xf32> {xla.donate, xla.aliases = 0, xla.sharding = #xla.sharding<@mesh, [{}, {"model"}]>},
    %g: tensor<32x32xf32> {xla.donate},
    %m: tensor<32xf32> {xla.aliases = 1 : i64}) -> (tensor<32x32xf32>, tensor<32xf32>) {
  %0 = xla.sub %w, %g : tensor<32x32xf32>
  return %0, %m : tensor<32x32xf32>, tensor<32xf32>
}

// mark_sharding constrains an intermediate value (torch_xla mark_sharding).
// CHECK-LABEL: func.func @mark_sharding
// CHECK-SAME: (%[[X:.*]]: tensor<8x32xf32>)
// CHECK: %[[A:.*]] = xla.mark_sharding %[[X]] <@mesh, [{"data"}, {}]> : tensor<8x32xf32>
// CHECK: %[[B:.*]] = xla.mark_sharding %[[A]] <@mesh, [{"data"}, {"model"}]> : tensor<8x32xf32>
// CHECK: %[[C:.*]] = xla.mark_sharding %[[B]] <@mesh, [{}, {?}], partial={"data"}> : tensor<8x32xf32>
// CHECK: %[[D:.*]] = xla.mark_sharding %[[C]] <@hybrid, [{"data", "fsdp"}, {"tensor"}p0]> : tensor<8x32xf32>
// CHECK: return %[[D]]
func.func @mark_sharding(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %0 = xla.mark_sharding %x <@mesh, [{"data"}, {} ]> : tensor<8x32xf32>
  %1 = xla.mark_sharding %0 <@mesh, [{0}, {1}]> : tensor<8x32xf32>
  %2 = xla.mark_sharding %1 <@mesh, [{}, {?}], partial={"data"}> : tensor<8x32xf32>
  %3 = xla.mark_sharding %2 <@hybrid, [{"data", "fsdp"}, {"tensor"}p0]> : tensor<8x32xf32>
  return %3 : tensor<8x32xf32>
}

// Axis names that need escaping survive the round trip.
// CHECK-LABEL: module @escaped
// CHECK: xla.mark_sharding %{{.*}} <@m, [{"a\22b"}, {"c d"}]> : tensor<4x4xf32>
module @escaped {
  xla.mesh @m = <["a\"b"=2, "c d"=2]>
  func.func @f(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = xla.mark_sharding %x <@m, [{0}, {"c d"}]> : tensor<4x4xf32>
    return %0 : tensor<4x4xf32>
  }
}
