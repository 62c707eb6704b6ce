// RUN: xla-opt %s --xla-explain-sharding --xla-partition=report-bytes=true -o /dev/null | FileCheck %s
// RUN: xla-run %s --function=contraction_kept --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=hybrid_einsum --check | FileCheck %s --check-prefix=EXEC
// RUN: xla-run %s --function=left_as_wanted --check | FileCheck %s --check-prefix=EXEC
// EXEC: [SUCCESS]

// Explain prices each op by the factor assignment the partitioner chooses
// (partition::planOp), not by one re-derived beside it. Found by
// utils/random-programs.py: the plan re-derived here gathered %w whole
// (168 B) where the partitioner keeps its "y" split of the contraction and
// all-reduces the partial product (120 B), and similar on a hybrid mesh.
// A value its op leaves in the layout a user wants is used as it is
// (Partitioner::getAs): @left_as_wanted's slice gathers its operand's "y"
// split and the whole columns are returned as they are, where the plan
// priced their slicing to "y" and a second gather at the return (24 B).

// CHECK: planned bytes of @contraction_kept:
// CHECK-NEXT: xla.dot_general at {{.*}}: 120 B per device
// CHECK-NEXT: func.return at {{.*}}: 64 B per device
// CHECK: planned bytes of @hybrid_einsum:
// CHECK-NEXT: xla.einsum at {{.*}}: 216 B per device
// CHECK-NEXT: func.return at {{.*}}: 128 B per device
// CHECK: planned bytes of @left_as_wanted:
// CHECK-NEXT: xla.slice at {{.*}}: 24 B per device
// CHECK-NOT: func.return
// CHECK: emitted bytes of @contraction_kept:
// CHECK-NEXT: xla.dot_general at {{.*}}: 120 B per device
// CHECK-NEXT: func.return at {{.*}}: 64 B per device
// CHECK: emitted bytes of @hybrid_einsum:
// CHECK-NEXT: xla.einsum at {{.*}}: 216 B per device
// CHECK-NEXT: func.return at {{.*}}: 128 B per device
// CHECK: emitted bytes of @left_as_wanted:
// CHECK-NEXT: xla.slice at {{.*}}: 24 B per device
// CHECK-NOT: func.return

xla.mesh @m2x4 = <["x"=2, "y"=4]>

func.func @contraction_kept(
    %a: tensor<8x12xf32> {xla.sharding = #xla.sharding<@m2x4, [{"x"}, {}]>},
    %w: tensor<12x4xf32> {xla.sharding = #xla.sharding<@m2x4, [{"y"}, {"x"}]>})
    -> (tensor<8x4xf32> {xla.sharding = #xla.sharding<@m2x4, [{}, {}]>}) {
  %0 = xla.dot_general %a, %w, batch = [] x [], contract = [1] x [0] : (tensor<8x12xf32>, tensor<12x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}

xla.mesh @h = hybrid<ici=["dcn"=1, "ici"=2, "t"=2], dcn=["dcn"=2, "ici"=1, "t"=1]>

func.func @hybrid_einsum(
    %a: tensor<16x12xf32> {xla.sharding = #xla.sharding<@h, [{}, {"t", "ici"}]>},
    %b: tensor<12x4xf32> {xla.sharding = #xla.sharding<@h, [{"t", "dcn"}, {"ici"}]>})
    -> (tensor<4x16xf32> {xla.sharding = #xla.sharding<@h, [{"ici"}, {}]>}) {
  %0 = xla.einsum "ij,jk->ki" %a, %b : (tensor<16x12xf32>, tensor<12x4xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

func.func @left_as_wanted(
    %a: tensor<4x4xf32> {xla.sharding = #xla.sharding<@m2x4, [{}, {}]>},
    %b: tensor<4x4xf32> {xla.sharding = #xla.sharding<@m2x4, [{"x"}, {"y"}]>})
    -> (tensor<4x2xf32> {xla.sharding = #xla.sharding<@m2x4, [{"x"}, {}]>}) {
  %0 = xla.sub %a, %b : tensor<4x4xf32>
  %1 = xla.slice %0, start = [0, 2], limit = [4, 4], strides = [1, 1] : (tensor<4x4xf32>) -> tensor<4x2xf32>
  return %1 : tensor<4x2xf32>
}
