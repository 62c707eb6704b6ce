//===- XlaContraction.cpp - dot_general/matmul/einsum as labels -----------===//

#include "dialects/xla/XlaContraction.h"
#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace xspmd::xla {

static LogicalResult fail(std::optional<Location> loc, const Twine &message) {
  return emitOptionalError(loc, message);
}

FailureOr<ContractionLabels> parseEinsum(StringRef equation,
                                         ArrayRef<int64_t> lhsShape,
                                         ArrayRef<int64_t> rhsShape,
                                         std::optional<Location> loc) {
  if (!equation.contains("->"))
    return fail(loc, "einsum equation '" + equation +
                         "' needs an explicit output ('ab,bc->ac')");
  auto [inputs, output] = equation.split("->");
  auto [lhsSpec, rhsSpec] = inputs.split(',');
  if (!inputs.contains(','))
    return fail(loc, "einsum equation '" + equation + "' needs two operands");
  ContractionLabels c;
  int64_t letterLabel[128];
  std::fill(std::begin(letterLabel), std::end(letterLabel), -1);
  auto assign = [&](StringRef spec, ArrayRef<int64_t> shape,
                    SmallVectorImpl<int64_t> &labels,
                    StringRef what) -> LogicalResult {
    spec = spec.trim();
    if (static_cast<int64_t>(spec.size()) != static_cast<int64_t>(shape.size()))
      return fail(loc, "einsum " + what + " '" + spec + "' has " +
                           Twine(spec.size()) + " letters but the " + what +
                           " has rank " + Twine(shape.size()));
    for (auto [i, ch] : llvm::enumerate(spec)) {
      if (!llvm::isAlpha(ch))
        return fail(loc, "einsum letters must be a-z or A-Z, got '" +
                             Twine(ch) + "'");
      if (spec.substr(0, i).contains(ch))
        return fail(loc, "einsum letter '" + Twine(ch) + "' repeats in the " +
                             what + " (diagonals are not supported)");
      int64_t &label = letterLabel[static_cast<unsigned char>(ch)];
      if (label < 0) {
        label = c.sizes.size();
        c.sizes.push_back(shape[i]);
      } else if (c.sizes[label] != shape[i]) {
        return fail(loc, "einsum letter '" + Twine(ch) + "' has size " +
                             Twine(shape[i]) + " in the " + what + " but " +
                             Twine(c.sizes[label]) + " elsewhere");
      }
      labels.push_back(label);
    }
    return success();
  };
  if (failed(assign(lhsSpec, lhsShape, c.lhs, "lhs")) ||
      failed(assign(rhsSpec, rhsShape, c.rhs, "rhs")))
    return failure();
  output = output.trim();
  for (auto [i, ch] : llvm::enumerate(output)) {
    if (!llvm::isAlpha(ch))
      return fail(loc,
                  "einsum letters must be a-z or A-Z, got '" + Twine(ch) + "'");
    if (output.substr(0, i).contains(ch))
      return fail(loc,
                  "einsum letter '" + Twine(ch) + "' repeats in the output");
    int64_t label = letterLabel[static_cast<unsigned char>(ch)];
    if (label < 0)
      return fail(loc, "einsum output letter '" + Twine(ch) +
                           "' appears in no operand");
    c.result.push_back(label);
  }
  return c;
}

FailureOr<ContractionLabels>
dotGeneralLabels(ArrayRef<int64_t> lhsShape, ArrayRef<int64_t> rhsShape,
                 ArrayRef<int64_t> lhsBatch, ArrayRef<int64_t> rhsBatch,
                 ArrayRef<int64_t> lhsContract, ArrayRef<int64_t> rhsContract,
                 std::optional<Location> loc) {
  if (lhsBatch.size() != rhsBatch.size())
    return fail(loc, "dot_general has " + Twine(lhsBatch.size()) +
                         " lhs batch dimensions but " + Twine(rhsBatch.size()) +
                         " rhs batch dimensions");
  if (lhsContract.size() != rhsContract.size())
    return fail(loc, "dot_general has " + Twine(lhsContract.size()) +
                         " lhs contracting dimensions but " +
                         Twine(rhsContract.size()) +
                         " rhs contracting dimensions");
  ContractionLabels c;
  int64_t lhsRank = lhsShape.size(), rhsRank = rhsShape.size();
  c.lhs.assign(lhsRank, -1);
  c.rhs.assign(rhsRank, -1);
  auto mark = [&](SmallVectorImpl<int64_t> &labels, int64_t rank, int64_t dim,
                  int64_t label, StringRef side) -> LogicalResult {
    if (dim < 0 || dim >= rank)
      return fail(loc, "dot_general " + side + " dimension " + Twine(dim) +
                           " is out of range for rank " + Twine(rank));
    if (labels[dim] >= 0)
      return fail(loc, "dot_general " + side + " dimension " + Twine(dim) +
                           " is used twice");
    labels[dim] = label;
    return success();
  };
  auto pair = [&](ArrayRef<int64_t> l, ArrayRef<int64_t> r,
                  StringRef kind) -> LogicalResult {
    for (auto [ld, rd] : llvm::zip(l, r)) {
      int64_t label = c.sizes.size();
      if (failed(mark(c.lhs, lhsRank, ld, label, "lhs")) ||
          failed(mark(c.rhs, rhsRank, rd, label, "rhs")))
        return failure();
      if (lhsShape[ld] != rhsShape[rd])
        return fail(loc, "dot_general " + kind + " dimensions lhs " +
                             Twine(ld) + " (size " + Twine(lhsShape[ld]) +
                             ") and rhs " + Twine(rd) + " (size " +
                             Twine(rhsShape[rd]) + ") differ in size");
      c.sizes.push_back(lhsShape[ld]);
    }
    return success();
  };
  if (failed(pair(lhsBatch, rhsBatch, "batch")))
    return failure();
  for (size_t i = 0; i < lhsBatch.size(); ++i)
    c.result.push_back(i);
  if (failed(pair(lhsContract, rhsContract, "contracting")))
    return failure();
  for (auto [labels, shape] :
       {std::pair{&c.lhs, lhsShape}, std::pair{&c.rhs, rhsShape}}) {
    for (auto [d, label] : llvm::enumerate(*labels)) {
      if (label >= 0)
        continue;
      label = c.sizes.size();
      c.sizes.push_back(shape[d]);
      c.result.push_back(label);
    }
  }
  return c;
}

FailureOr<ContractionLabels> matmulLabels(ArrayRef<int64_t> lhsShape,
                                          ArrayRef<int64_t> rhsShape,
                                          std::optional<Location> loc) {
  int64_t lhsRank = lhsShape.size(), rhsRank = rhsShape.size();
  if (lhsRank < 2 || rhsRank < 2)
    return fail(loc, "matmul operands need rank >= 2 (got " + Twine(lhsRank) +
                         " and " + Twine(rhsRank) + ")");
  if (rhsRank != 2 && rhsRank != lhsRank)
    return fail(loc, "matmul rhs must be a matrix or have the lhs's rank " +
                         Twine(lhsRank) + " (got rank " + Twine(rhsRank) + ")");
  int64_t k = lhsShape[lhsRank - 1];
  if (rhsShape[rhsRank - 2] != k)
    return fail(loc, "matmul contracting sizes differ: lhs has " + Twine(k) +
                         ", rhs has " + Twine(rhsShape[rhsRank - 2]));
  ContractionLabels c;
  // Leading dims of the lhs, then m, k, n.
  for (int64_t d = 0; d < lhsRank - 2; ++d) {
    c.lhs.push_back(d);
    c.result.push_back(d);
    c.sizes.push_back(lhsShape[d]);
  }
  if (rhsRank == lhsRank) {
    for (int64_t d = 0; d < rhsRank - 2; ++d) {
      if (rhsShape[d] != lhsShape[d])
        return fail(loc, "matmul batch dimension " + Twine(d) +
                             " differs: lhs " + Twine(lhsShape[d]) + ", rhs " +
                             Twine(rhsShape[d]));
      c.rhs.push_back(d);
    }
  }
  int64_t m = c.sizes.size(), kl = m + 1, n = m + 2;
  c.sizes.append({lhsShape[lhsRank - 2], k, rhsShape[rhsRank - 1]});
  c.lhs.append({m, kl});
  c.rhs.append({kl, n});
  c.result.append({m, n});
  return c;
}

ContractionLabels getContractionLabels(Operation *op) {
  auto shapeOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  };
  FailureOr<ContractionLabels> labels =
      llvm::TypeSwitch<Operation *, FailureOr<ContractionLabels>>(op)
          .Case([&](DotGeneralOp dot) {
            return dotGeneralLabels(shapeOf(dot.getLhs()),
                                    shapeOf(dot.getRhs()), dot.getLhsBatch(),
                                    dot.getRhsBatch(), dot.getLhsContract(),
                                    dot.getRhsContract(), std::nullopt);
          })
          .Case([&](MatmulOp mm) {
            return matmulLabels(shapeOf(mm.getLhs()), shapeOf(mm.getRhs()),
                                std::nullopt);
          })
          .Case([&](EinsumOp e) {
            return parseEinsum(e.getEquation(), shapeOf(e.getLhs()),
                               shapeOf(e.getRhs()), std::nullopt);
          })
          .Default([](Operation *) { return failure(); });
  assert(succeeded(labels) && "not a valid contraction op");
  return *labels;
}

SmallVector<int64_t> contractionResultShape(const ContractionLabels &c) {
  return llvm::map_to_vector(c.result,
                             [&](int64_t label) { return c.sizes[label]; });
}

} // namespace xspmd::xla
