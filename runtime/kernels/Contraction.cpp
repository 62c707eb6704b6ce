//===- Contraction.cpp - einsum-style contractions ------------------------===//

#include "runtime/kernels/Contraction.h"
#include "runtime/kernels/DataMovement.h"
#include "runtime/kernels/Gemm.h"
#include "runtime/kernels/Reduce.h"

#include "llvm/ADT/STLExtras.h"

namespace xspmd::runtime {

namespace {

bool contains(llvm::ArrayRef<int64_t> labels, int64_t label) {
  return llvm::is_contained(labels, label);
}

int64_t positionOf(llvm::ArrayRef<int64_t> labels, int64_t label) {
  return llvm::find(labels, label) - labels.begin();
}

Shape concat(std::initializer_list<llvm::ArrayRef<int64_t>> parts) {
  Shape all;
  for (llvm::ArrayRef<int64_t> p : parts)
    all.append(p.begin(), p.end());
  return all;
}

bool isIdentity(llvm::ArrayRef<int64_t> perm) {
  for (auto [i, p] : llvm::enumerate(perm))
    if (static_cast<int64_t>(i) != p)
      return false;
  return true;
}

} // namespace

ContractionPlan::ContractionPlan(const ContractionDims &dims) {
  // Labels summed in one operand only are reduced out of it first.
  auto splitOwn = [&](llvm::ArrayRef<int64_t> own,
                      llvm::ArrayRef<int64_t> other, OperandLayout &layout) {
    Shape kept;
    for (auto [d, label] : llvm::enumerate(own)) {
      if (!contains(other, label) && !contains(dims.result, label)) {
        layout.reduceDims.push_back(d);
        continue;
      }
      kept.push_back(label);
      layout.reducedShape.push_back(dims.sizes[label]);
    }
    return kept;
  };
  Shape lhs = splitOwn(dims.lhs, dims.rhs, lhsLayout);
  Shape rhs = splitOwn(dims.rhs, dims.lhs, rhsLayout);

  Shape bs, ms, ns, ks;
  for (int64_t label : dims.result)
    if (contains(lhs, label) && contains(rhs, label))
      bs.push_back(label);
  for (int64_t label : lhs) {
    if (contains(bs, label))
      continue;
    (contains(rhs, label) ? ks : ms).push_back(label);
  }
  for (int64_t label : rhs)
    if (!contains(lhs, label))
      ns.push_back(label);
  auto product = [&](llvm::ArrayRef<int64_t> labels) {
    int64_t p = 1;
    for (int64_t l : labels)
      p *= dims.sizes[l];
    return p;
  };
  batch = product(bs);
  m = product(ms);
  n = product(ns);
  k = product(ks);

  // Use the stored layout when it is [B, X, Y] or [B, Y, X]; else permute.
  auto place = [&](llvm::ArrayRef<int64_t> labels, llvm::ArrayRef<int64_t> x,
                   llvm::ArrayRef<int64_t> y, OperandLayout &layout) {
    Shape straight = concat({bs, x, y});
    if (llvm::equal(labels, straight))
      return;
    if (llvm::equal(labels, concat({bs, y, x}))) {
      layout.trans = true;
      return;
    }
    Shape perm;
    for (int64_t label : straight)
      perm.push_back(positionOf(labels, label));
    layout.permutation = perm;
  };
  place(lhs, ms, ks, lhsLayout);
  place(rhs, ks, ns, rhsLayout);

  Shape produced = concat({bs, ms, ns});
  for (int64_t label : produced)
    productShape.push_back(dims.sizes[label]);
  Shape perm;
  for (int64_t label : dims.result)
    perm.push_back(positionOf(produced, label));
  if (!isIdentity(perm))
    resultPermutation = perm;
}

Tensor ContractionPlan::prepare(const Tensor &operand,
                                const OperandLayout &layout) const {
  Tensor t = operand;
  if (!layout.reduceDims.empty()) {
    Tensor reduced =
        Tensor::allocate(operand.getElementType(), layout.reducedShape);
    reduce(ReduceKind::sum, operand, layout.reduceDims, reduced);
    t = reduced;
  }
  if (layout.permutation) {
    Shape shape;
    for (int64_t p : *layout.permutation)
      shape.push_back(t.getDimSize(p));
    Tensor permuted = Tensor::allocate(t.getElementType(), shape);
    transpose(t, *layout.permutation, permuted);
    t = permuted;
  }
  return t;
}

void ContractionPlan::run(const Tensor &lhs, const Tensor &rhs,
                          Tensor &out) const {
  Tensor a = prepare(lhs, lhsLayout);
  Tensor b = prepare(rhs, rhsLayout);
  ElementType type = out.getElementType();
  if (!resultPermutation) {
    batchedGemm(type, batch, m, n, k, a.data(), lhsLayout.trans, b.data(),
                rhsLayout.trans, out.data());
    return;
  }
  Tensor product = Tensor::allocate(type, productShape);
  batchedGemm(type, batch, m, n, k, a.data(), lhsLayout.trans, b.data(),
              rhsLayout.trans, product.data());
  transpose(product, *resultPermutation, out);
}

} // namespace xspmd::runtime
