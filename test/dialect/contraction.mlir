// Round trip of the contractions: dot_general (batch and contracting
// dimensions), matmul (torch.matmul) and einsum (torch.einsum).

// RUN: xla-opt %s | xla-opt | FileCheck %s
// RUN: xla-opt %s --mlir-print-op-generic | xla-opt | FileCheck %s
// RUN: xla-opt %s > %t.custom && xla-opt %t.custom | diff %t.custom -
// RUN: xla-opt %s --mlir-print-op-generic > %t.generic && xla-opt %t.generic --mlir-print-op-generic | diff %t.generic -

// Result dimensions: batch, then lhs free, then rhs free.
// CHECK-LABEL: func.func @dot_general
// CHECK-SAME: (%[[A:.*]]: tensor<4x8x16xf32>, %[[B:.*]]: tensor<4x16x32xf32>, %[[M:.*]]: tensor<8x16xf32>, %[[N:.*]]: tensor<32x16xf32>)
// CHECK: xla.dot_general %[[A]], %[[B]], batch = [0] x [0], contract = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
// A plain matrix product, and one against a transposed rhs.
// CHECK: xla.dot_general %[[M]], %[[B]], batch = [] x [], contract = [1] x [1] : (tensor<8x16xf32>, tensor<4x16x32xf32>) -> tensor<8x4x32xf32>
// CHECK: xla.dot_general %[[M]], %[[N]], batch = [] x [], contract = [1] x [1] : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
// No contraction at all: an outer product.
// CHECK: xla.dot_general %[[M]], %[[N]], batch = [] x [], contract = [] x [] : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x16x32x16xf32>
// Several contracting dimensions.
// CHECK: xla.dot_general %[[A]], %[[A]], batch = [] x [], contract = [0, 2] x [0, 2] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<8x8xf32>
func.func @dot_general(%a: tensor<4x8x16xf32>, %b: tensor<4x16x32xf32>, %m: tensor<8x16xf32>, %n: tensor<32x16xf32>) {
  %0 = xla.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1] : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
  %1 = xla.dot_general %m, %b, batch = [] x [], contract = [1] x [1] : (tensor<8x16xf32>, tensor<4x16x32xf32>) -> tensor<8x4x32xf32>
  %2 = xla.dot_general %m, %n, batch = [] x [], contract = [1] x [1] : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x32xf32>
  %3 = xla.dot_general %m, %n, batch = [] x [], contract = [] x [] : (tensor<8x16xf32>, tensor<32x16xf32>) -> tensor<8x16x32x16xf32>
  %4 = xla.dot_general %a, %a, batch = [] x [], contract = [0, 2] x [0, 2] : (tensor<4x8x16xf32>, tensor<4x8x16xf32>) -> tensor<8x8xf32>
  return
}

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[X:.*]]: tensor<8x128x64xbf16>, %[[W:.*]]: tensor<64x256xbf16>, %[[Y:.*]]: tensor<8x64x32xbf16>, %[[I:.*]]: tensor<4x4xi32>)
// A linear layer applied to every leading index of the lhs.
// CHECK: xla.matmul %[[X]], %[[W]] : (tensor<8x128x64xbf16>, tensor<64x256xbf16>) -> tensor<8x128x256xbf16>
// Batched, with the same leading dimensions.
// CHECK: xla.matmul %[[X]], %[[Y]] : (tensor<8x128x64xbf16>, tensor<8x64x32xbf16>) -> tensor<8x128x32xbf16>
// CHECK: xla.matmul %[[I]], %[[I]] : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
func.func @matmul(%x: tensor<8x128x64xbf16>, %w: tensor<64x256xbf16>, %y: tensor<8x64x32xbf16>, %i: tensor<4x4xi32>) {
  %0 = xla.matmul %x, %w : (tensor<8x128x64xbf16>, tensor<64x256xbf16>) -> tensor<8x128x256xbf16>
  %1 = xla.matmul %x, %y : (tensor<8x128x64xbf16>, tensor<8x64x32xbf16>) -> tensor<8x128x32xbf16>
  %2 = xla.matmul %i, %i : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
  return
}

// CHECK-LABEL: func.func @einsum
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x16xf32>, %[[W:.*]]: tensor<16x32xf32>, %[[Q:.*]]: tensor<2x4x8x16xf32>)
// CHECK: xla.einsum "bsd,df->bsf" %[[X]], %[[W]] : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
// Attention scores: the output may reorder and the letters may be any case.
// CHECK: xla.einsum "bhqd,bhkd->bhqk" %[[Q]], %[[Q]] : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x8xf32>
// CHECK: xla.einsum "bsD,DF->Fbs" %[[X]], %[[W]] : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<32x2x8xf32>
// Letters missing from the output are summed over, even if in one operand only.
// CHECK: xla.einsum "bsd,df->f" %[[X]], %[[W]] : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<32xf32>
func.func @einsum(%x: tensor<2x8x16xf32>, %w: tensor<16x32xf32>, %q: tensor<2x4x8x16xf32>) {
  %0 = xla.einsum "bsd,df->bsf" %x, %w : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<2x8x32xf32>
  %1 = xla.einsum "bhqd,bhkd->bhqk" %q, %q : (tensor<2x4x8x16xf32>, tensor<2x4x8x16xf32>) -> tensor<2x4x8x8xf32>
  %2 = xla.einsum "bsD,DF->Fbs" %x, %w : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<32x2x8xf32>
  %3 = xla.einsum "bsd,df->f" %x, %w : (tensor<2x8x16xf32>, tensor<16x32xf32>) -> tensor<32xf32>
  return
}
