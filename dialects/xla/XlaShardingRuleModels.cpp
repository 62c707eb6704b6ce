//===- XlaShardingRuleModels.cpp - the sharding rule of every op ----------===//
//
// One function per op family builds the op's OpShardingRule; a template
// external model attaches ShardingRuleOpInterface to each op with it.
// docs/propagation.md tabulates the rules and explains each choice.
//
//===----------------------------------------------------------------------===//

#include "dialects/xla/XlaCombiner.h"
#include "dialects/xla/XlaContraction.h"
#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaReductionOps.h"
#include "dialects/xla/XlaShardingRule.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace xspmd::xla {
namespace {

using Kind = FactorKind;

ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

/// Elementwise ops, mark_sharding, sources (constant, iota, partition_id,
/// axis_index, device_table): every dimension of every tensor shares one factor
/// with the same dimension of the others.
OpShardingRule pointwiseRule(Operation *op) {
  return OpShardingRuleBuilder(op).addPointwise().build();
}

/// Random numbers are a pure function of the seed and the global element
/// index, so every result dimension can be sharded; the explicit offsets of
/// a partitioned rng must be replicated.
OpShardingRule rule(RngOp op) {
  OpShardingRuleBuilder b(op);
  for (auto [d, size] : llvm::enumerate(op.getType().getShape()))
    b.addFactor({-1}, {static_cast<int64_t>(d)}, size);
  if (Value offsets = op.getOffsets())
    b.mapOperand(0, 0, b.addFactor(shapeOf(offsets)[0], Kind::needReplication));
  return b.build();
}

/// Operand dimension i is result dimension dims[i]; a broadcast (size-1)
/// operand dimension has no factor, and the new result dimensions have their
/// own factors.
OpShardingRule rule(BroadcastInDimOp op) {
  OpShardingRuleBuilder b(op);
  ArrayRef<int64_t> in = shapeOf(op.getInput());
  ArrayRef<int64_t> out = op.getType().getShape();
  SmallVector<int64_t> operandDimOf(out.size(), -1);
  for (auto [i, d] : llvm::enumerate(op.getDims()))
    if (in[i] == out[d])
      operandDimOf[d] = i;
  for (auto [d, size] : llvm::enumerate(out))
    b.addFactor({operandDimOf[d]}, {static_cast<int64_t>(d)}, size);
  return b.build();
}

OpShardingRule rule(ReshapeOp op) {
  return reshapeRule(shapeOf(op.getInput()), op.getType().getShape());
}

OpShardingRule rule(TransposeOp op) {
  OpShardingRuleBuilder b(op);
  for (auto [d, p] : llvm::enumerate(op.getPermutation()))
    b.addFactor({p}, {static_cast<int64_t>(d)}, op.getType().getDimSize(d));
  return b.build();
}

/// A dimension kept whole passes through; a sliced one is a permutation
/// factor (its elements move between shards).
OpShardingRule rule(SliceOp op) {
  OpShardingRuleBuilder b(op);
  ArrayRef<int64_t> in = shapeOf(op.getInput());
  for (auto [d, size] : llvm::enumerate(op.getType().getShape())) {
    bool whole = op.getStart()[d] == 0 && op.getLimit()[d] == in[d] &&
                 op.getStrides()[d] == 1;
    int64_t dim = d;
    if (whole)
      b.addFactor({dim}, {dim}, size);
    else
      b.addWindowedFactor({dim}, {dim}, size);
  }
  return b.build();
}

/// Offsets are known only at run time: a sliced dimension must be
/// replicated, a dimension taken whole passes through. Offsets are scalars.
OpShardingRule rule(DynamicSliceOp op) {
  OpShardingRuleBuilder b(op);
  ArrayRef<int64_t> in = shapeOf(op.getInput());
  for (auto [d, size] : llvm::enumerate(op.getType().getShape())) {
    int64_t dim = d;
    if (size == in[d]) {
      b.addFactor({dim}, {dim}, size);
      continue;
    }
    b.mapOperand(0, dim, b.addFactor(in[d], Kind::needReplication));
    b.mapResult(0, dim, b.addFactor(size, Kind::needReplication));
  }
  return b.build();
}

/// The input and result share every dimension (each shard updates the part
/// of the block it holds, masking the rest); a dimension the update covers
/// only partly must be replicated in the update.
OpShardingRule rule(DynamicUpdateSliceOp op) {
  OpShardingRuleBuilder b(op);
  ArrayRef<int64_t> update = shapeOf(op.getUpdate());
  for (auto [d, size] : llvm::enumerate(op.getType().getShape())) {
    int64_t dim = d;
    if (update[d] == size) {
      b.addFactor({dim, dim}, {dim}, size);
      continue;
    }
    b.addFactor({dim, -1}, {dim}, size);
    b.mapOperand(1, dim, b.addFactor(update[d], Kind::needReplication));
  }
  return b.build();
}

/// A reversed dimension is a permutation factor (block k of the result is
/// made of the mirror block, n-1-k, of the input); the others pass through.
OpShardingRule rule(ReverseOp op) {
  OpShardingRuleBuilder b(op);
  for (auto [d, size] : llvm::enumerate(op.getType().getShape())) {
    int64_t dim = d;
    if (llvm::is_contained(op.getDims(), dim))
      b.addWindowedFactor({dim}, {dim}, size);
    else
      b.addFactor({dim}, {dim}, size);
  }
  return b.build();
}

/// Non-concatenated dimensions are shared; the concatenated dimension of
/// every operand and of the result is one permutation factor.
OpShardingRule rule(ConcatenateOp op) {
  OpShardingRuleBuilder b(op);
  int64_t numInputs = op.getInputs().size();
  for (auto [d, size] : llvm::enumerate(op.getType().getShape())) {
    SmallVector<int64_t> operandDims(numInputs, d);
    int64_t dim = d;
    if (dim == static_cast<int64_t>(op.getDim()))
      b.addWindowedFactor(operandDims, {dim}, size);
    else
      b.addFactor(operandDims, {dim}, size);
  }
  return b.build();
}

/// An unpadded dimension passes through; a padded one is a permutation
/// factor (shards shift by the padding).
OpShardingRule rule(PadOp op) {
  OpShardingRuleBuilder b(op);
  for (auto [d, size] : llvm::enumerate(op.getType().getShape())) {
    bool padded =
        op.getLow()[d] != 0 || op.getHigh()[d] != 0 || op.getInterior()[d] != 0;
    int64_t dim = d;
    if (padded)
      b.addWindowedFactor({dim}, {dim}, size);
    else
      b.addFactor({dim}, {dim}, size);
  }
  return b.build();
}

/// result[i..., j...] = table[indices[i...], j...]: index dimensions and
/// row dimensions pass through. A table sharded along its rows gives each
/// shard the rows it owns and zeros elsewhere, so the rows factor is a sum
/// reduction (the vocabulary-parallel embedding).
OpShardingRule rule(GatherOp op) {
  OpShardingRuleBuilder b(op);
  ArrayRef<int64_t> table = shapeOf(op.getTable());
  ArrayRef<int64_t> indices = shapeOf(op.getIndices());
  int64_t numIndexDims = indices.size();
  for (auto [d, size] : llvm::enumerate(indices))
    b.addFactor({-1, static_cast<int64_t>(d)}, {static_cast<int64_t>(d)}, size);
  for (int64_t d = 1, e = table.size(); d < e; ++d)
    b.addFactor({d, -1}, {numIndexDims + d - 1}, table[d]);
  b.addFactor({0, -1}, {}, table[0], Kind::reduction);
  // Devices not owning a row contribute the identity: false for i1 (which
  // has no sum), zero otherwise.
  if (op.getType().getElementType().isInteger(1))
    b.setReductionKind(ReductionKind::or_);
  return b.build();
}

/// HLO's gather (docs/propagation.md): the result's batch dimensions pass
/// through with the indices' (and with the operand's batching dimensions);
/// an operand dimension its slice covers whole passes through to its offset
/// dimension; an indexed dimension sliced by 1 is a reduction (each shard
/// gathers the starts it owns, zeros elsewhere: the vocabulary-parallel
/// embedding); any other sliced dimension needs replication.
OpShardingRule rule(HloGatherOp op) {
  OpShardingRuleBuilder b(op);
  ArrayRef<int64_t> operand = shapeOf(op.getOperand());
  ArrayRef<int64_t> indices = shapeOf(op.getStartIndices());
  ArrayRef<int64_t> result = op.getType().getShape();
  ArrayRef<int64_t> sizes = op.getSliceSizes();
  int64_t ivd = op.getIndexVectorDim();
  SmallVector<int64_t> operandDimOfIndicesDim(indices.size(), -1);
  for (auto [o, i] :
       llvm::zip(op.getOperandBatchingDims(), op.getStartIndicesBatchingDims()))
    operandDimOfIndicesDim[i] = o;
  for (auto [i, r] : llvm::enumerate(op.getBatchDims())) {
    int64_t dim = op.getIndicesDimOfBatch(i);
    b.addFactor({operandDimOfIndicesDim[dim], dim}, {r}, result[r]);
  }
  if (ivd < static_cast<int64_t>(indices.size()))
    b.mapOperand(1, ivd, b.addFactor(indices[ivd], Kind::needReplication));
  for (auto [d, r] : llvm::enumerate(op.getOffsetDimOfOperand())) {
    int64_t dim = d;
    if (llvm::is_contained(op.getOperandBatchingDims(), dim))
      continue;
    if (r >= 0 && sizes[d] == operand[d]) {
      b.addFactor({dim, -1}, {r}, operand[d]);
      continue;
    }
    if (sizes[d] == 1 && llvm::is_contained(op.getStartIndexMap(), dim)) {
      b.addFactor({dim, -1}, {}, operand[d], Kind::reduction);
      continue;
    }
    b.mapOperand(0, dim, b.addFactor(operand[d], Kind::needReplication));
    if (r >= 0)
      b.mapResult(0, r, b.addFactor(sizes[d], Kind::needReplication));
  }
  // Devices owning no start contribute the identity: false for i1 (which
  // has no sum), zero otherwise.
  if (op.getType().getElementType().isInteger(1))
    b.setReductionKind(ReductionKind::or_);
  return b.build();
}

/// HLO's scatter (docs/propagation.md). Operands are the N inputs, the
/// indices, then the N updates. The updates' scatter dimensions pair with
/// the indices': a batching pair passes through with its input dimension;
/// otherwise, when the update computation is a recognised pairwise
/// combiner (add, max, ...), a reduction of that kind (each shard scatters
/// its updates, the partial results are combined), else need-replication.
/// An input dimension the window covers whole passes through with the
/// window; an indexed dimension of window size 1 passes through between
/// inputs and results only (each shard applies the updates that land in
/// its block); any other dimension needs replication.
OpShardingRule rule(ScatterOp op) {
  OpShardingRuleBuilder b(op);
  int64_t n = op.getInputs().size();
  int64_t indicesOperand = n;
  ArrayRef<int64_t> input = shapeOf(op.getInputs().front());
  ArrayRef<int64_t> indices = shapeOf(op.getScatterIndices());
  ArrayRef<int64_t> update = shapeOf(op.getUpdates().front());
  int64_t ivd = op.getIndexVectorDim();
  std::optional<ReductionKind> combiner =
      matchPairwiseCombiner(op.getUpdateComputation());
  if (combiner)
    b.setReductionKind(*combiner);
  // Operand dims for: input dimension `in` of every input, dimension
  // `index` of the indices, dimension `upd` of every update.
  auto operandDims = [&](int64_t in, int64_t index, int64_t upd) {
    SmallVector<int64_t> dims(n, in);
    dims.push_back(index);
    dims.append(n, upd);
    return dims;
  };
  SmallVector<int64_t> inputDimOfIndicesDim(indices.size(), -1);
  for (auto [in, i] :
       llvm::zip(op.getInputBatchingDims(), op.getScatterIndicesBatchingDims()))
    inputDimOfIndicesDim[i] = in;
  for (auto [i, u] : llvm::enumerate(op.getUpdateScatterDims())) {
    int64_t dim = op.getIndicesDimOfScatter(i);
    int64_t in = inputDimOfIndicesDim[dim];
    if (in >= 0)
      b.addFactor(operandDims(in, dim, u), SmallVector<int64_t>(n, in),
                  update[u]);
    else
      b.addFactor(operandDims(-1, dim, u), {}, update[u],
                  combiner ? Kind::reduction : Kind::needReplication);
  }
  if (ivd < static_cast<int64_t>(indices.size()))
    b.mapOperand(indicesOperand, ivd,
                 b.addFactor(indices[ivd], Kind::needReplication));
  for (auto [d, w] : llvm::enumerate(op.getWindowDimOfInput())) {
    int64_t dim = d;
    if (llvm::is_contained(op.getInputBatchingDims(), dim))
      continue;
    int64_t window = w >= 0 ? update[w] : 1;
    SmallVector<int64_t> resultDims(n, dim);
    if (w >= 0 && window == input[d]) {
      b.addFactor(operandDims(dim, -1, w), resultDims, input[d]);
      continue;
    }
    if (window == 1 &&
        llvm::is_contained(op.getScatterDimsToOperandDims(), dim)) {
      b.addFactor(operandDims(dim, -1, -1), resultDims, input[d]);
      continue;
    }
    b.addFactor(operandDims(dim, -1, -1), resultDims, input[d],
                Kind::needReplication);
    if (w >= 0) {
      int64_t f = b.addFactor(window, Kind::needReplication);
      for (int64_t i = 0; i < n; ++i)
        b.mapOperand(n + 1 + i, w, f);
    }
  }
  return b.build();
}

/// Every input and result shares each dimension; the sorted one needs
/// replication (its rows are permuted as a whole).
OpShardingRule rule(SortOp op) {
  OpShardingRuleBuilder b(op);
  int64_t n = op.getInputs().size();
  for (auto [d, size] : llvm::enumerate(shapeOf(op.getInputs().front()))) {
    SmallVector<int64_t> dims(n, d);
    b.addFactor(dims, dims, size,
                d == op.getDimension() ? Kind::needReplication
                                       : Kind::passThrough);
  }
  return b.build();
}

/// dot_general, matmul and einsum: one factor per einsum label; a label
/// missing from the result is a sum reduction.
OpShardingRule contractionRule(Operation *op) {
  ContractionLabels c = getContractionLabels(op);
  OpShardingRuleBuilder b(op);
  SmallVector<int64_t> factorOf;
  for (auto [label, size] : llvm::enumerate(c.sizes))
    factorOf.push_back(b.addFactor(
        size, llvm::is_contained(c.result, static_cast<int64_t>(label))
                  ? Kind::passThrough
                  : Kind::reduction));
  for (auto [d, label] : llvm::enumerate(c.lhs))
    b.mapOperand(0, d, factorOf[label]);
  for (auto [d, label] : llvm::enumerate(c.rhs))
    b.mapOperand(1, d, factorOf[label]);
  for (auto [d, label] : llvm::enumerate(c.result))
    b.mapResult(0, d, factorOf[label]);
  return b.build();
}

ReductionKind partialKindOf(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::sum:
  case ReduceKind::mean: // a sum, scaled once the partials are combined
    return ReductionKind::sum;
  case ReduceKind::prod:
    return ReductionKind::mul;
  case ReduceKind::max:
    return ReductionKind::max;
  case ReduceKind::min:
    return ReductionKind::min;
  case ReduceKind::and_:
    return ReductionKind::and_;
  case ReduceKind::or_:
    return ReductionKind::or_;
  }
  llvm_unreachable("unknown reduce kind");
}

/// Reduced dimensions are reduction factors of the reduce's own kind; the
/// others pass through to the result.
OpShardingRule rule(ReduceOp op) {
  OpShardingRuleBuilder b(op);
  b.setReductionKind(partialKindOf(op.getKind()));
  ArrayRef<int64_t> in = shapeOf(op.getInput());
  SmallVector<bool> reduced(in.size(), false);
  for (int64_t d : op.getDims())
    reduced[d] = true;
  int64_t resultDim = 0;
  for (auto [d, size] : llvm::enumerate(in)) {
    if (reduced[d])
      b.addFactor({static_cast<int64_t>(d)}, {}, size, Kind::reduction);
    else
      b.addFactor({static_cast<int64_t>(d)}, {resultDim++}, size);
  }
  return b.build();
}

/// The N inputs share every dimension (inits have none); kept dimensions
/// pass through to the N results. A recognised reduction (one input, a
/// sum/mul/max/min/and/or body, an identity init) has reduction factors of
/// its kind, as xla.reduce; any other body has need-replication reduced
/// dimensions: the partitioner may still reduce per shard and combine the
/// shards' results (docs/partitioning.md).
OpShardingRule rule(ReduceRegionOp op) {
  OpShardingRuleBuilder b(op);
  std::optional<ReductionKind> kind = op.getRecognizedReduction();
  if (kind)
    b.setReductionKind(*kind);
  int64_t n = op.getInputs().size();
  ArrayRef<int64_t> in = shapeOf(op.getInputs().front());
  SmallVector<bool> reduced(in.size(), false);
  for (int64_t d : op.getDims())
    reduced[d] = true;
  int64_t resultDim = 0;
  for (auto [d, size] : llvm::enumerate(in)) {
    SmallVector<int64_t> operandDims(2 * n, -1);
    std::fill_n(operandDims.begin(), n, static_cast<int64_t>(d));
    if (reduced[d])
      b.addFactor(operandDims, SmallVector<int64_t>(n, -1), size,
                  kind ? Kind::reduction : Kind::needReplication);
    else
      b.addFactor(operandDims, SmallVector<int64_t>(n, resultDim++), size);
  }
  return b.build();
}

/// A dimension the window leaves alone (size 1, stride 1, no padding or
/// dilation) passes through from the inputs to the results; a windowed one
/// is a permutation factor (halo exchange).
OpShardingRule rule(ReduceWindowOp op) {
  OpShardingRuleBuilder b(op);
  int64_t n = op.getInputs().size();
  ArrayRef<int64_t> out = shapeOf(op.getResults().front());
  for (auto [d, size] : llvm::enumerate(out)) {
    int64_t dim = d;
    SmallVector<int64_t> operandDims(2 * n, -1);
    std::fill_n(operandDims.begin(), n, dim);
    SmallVector<int64_t> resultDims(n, dim);
    bool windowed =
        op.getWindowDimensions()[d] != 1 || op.getWindowStrides()[d] != 1 ||
        op.getBaseDilations()[d] != 1 || op.getPadding()[2 * d] != 0 ||
        op.getPadding()[2 * d + 1] != 0;
    if (windowed)
      b.addWindowedFactor(operandDims, resultDims, size);
    else
      b.addFactor(operandDims, resultDims, size);
  }
  return b.build();
}

/// The operand, the source and the result share each dimension: untouched
/// dimensions pass through, windowed ones are permutation factors (the
/// partitioner keeps them split only where windows stay inside shards).
OpShardingRule rule(SelectAndScatterOp op) {
  OpShardingRuleBuilder b(op);
  for (auto [d, size] : llvm::enumerate(op.getType().getShape())) {
    int64_t dim = d;
    bool windowed =
        op.getWindowDimensions()[d] != 1 || op.getWindowStrides()[d] != 1 ||
        op.getPadding()[2 * d] != 0 || op.getPadding()[2 * d + 1] != 0;
    if (windowed)
      b.addWindowedFactor({dim, dim, -1}, {dim}, size);
    else
      b.addFactor({dim, dim, -1}, {dim}, size);
  }
  return b.build();
}

/// Softmax normalises along `dim`, which must be replicated.
OpShardingRule rule(SoftmaxOp op) {
  OpShardingRuleBuilder b(op);
  for (auto [d, size] : llvm::enumerate(op.getType().getShape())) {
    int64_t dim = d;
    b.addFactor({dim}, {dim}, size,
                dim == static_cast<int64_t>(op.getDim()) ? Kind::needReplication
                                                         : Kind::passThrough);
  }
  return b.build();
}

/// Input [N, S..., C], kernel [K..., C/g, O], result [N, S'..., O] with g
/// feature groups. N passes through; each spatial dimension is a windowed
/// (permutation) factor shared by input and result; kernel windows must be
/// replicated. The channels split into groups: the group factor g is shared
/// by C (major), O of the kernel and O of the result (major); the channels
/// within a group are a sum reduction shared by C (minor) and the kernel's
/// input features; the output features within a group pass through.
OpShardingRule rule(ConvolutionOp op) {
  OpShardingRuleBuilder b(op);
  ArrayRef<int64_t> in = shapeOf(op.getInput());
  ArrayRef<int64_t> kernel = shapeOf(op.getKernel());
  ArrayRef<int64_t> out = op.getType().getShape();
  int64_t rank = in.size(), spatial = rank - 2;
  b.addFactor({0, -1}, {0}, in[0]);
  for (int64_t s = 0; s < spatial; ++s) {
    b.addWindowedFactor({1 + s, -1}, {1 + s}, out[1 + s]);
    b.mapOperand(1, s, b.addFactor(kernel[s], Kind::needReplication));
  }
  int64_t groups = op.getFeatureGroups();
  int64_t channelsPerGroup = kernel[rank - 2];
  int64_t outPerGroup = out[rank - 1] / groups;
  b.addFactor({rank - 1, rank - 1}, {rank - 1}, groups);
  b.addFactor({rank - 1, rank - 2}, {-1}, channelsPerGroup, Kind::reduction);
  b.addFactor({-1, rank - 1}, {rank - 1}, outPerGroup);
  return b.build();
}

/// Collectives name devices, so their semantics are per device: every
/// dimension must be replicated. Dimensions of equal size in operand and
/// result share a factor; the gathered/scattered/exchanged ones do not.
OpShardingRule collectiveRule(Operation *op, ArrayRef<int64_t> changedDims) {
  OpShardingRuleBuilder b(op);
  ArrayRef<int64_t> in = shapeOf(op->getOperand(0));
  ArrayRef<int64_t> out = shapeOf(op->getResult(0));
  for (auto [d, size] : llvm::enumerate(out)) {
    int64_t dim = d;
    if (!llvm::is_contained(changedDims, dim)) {
      b.addFactor({dim}, {dim}, size, Kind::needReplication);
      continue;
    }
    b.mapOperand(0, dim, b.addFactor(in[d], Kind::needReplication));
    b.mapResult(0, dim, b.addFactor(size, Kind::needReplication));
  }
  return b.build();
}

/// The bodies of a dispatch run on local blocks: no dimension of its inputs
/// or results may be sharded further.
OpShardingRule rule(DispatchOp op) {
  OpShardingRuleBuilder b(op);
  for (int64_t i = 0; i < b.getNumOperands(); ++i)
    for (auto [d, size] : llvm::enumerate(shapeOf(op->getOperand(i))))
      b.mapOperand(i, d, b.addFactor(size, Kind::needReplication));
  for (int64_t i = 0; i < b.getNumResults(); ++i)
    for (auto [d, size] : llvm::enumerate(shapeOf(op->getResult(i))))
      b.mapResult(i, d, b.addFactor(size, Kind::needReplication));
  return b.build();
}

OpShardingRule rule(AllReduceOp op) { return collectiveRule(op, {}); }
OpShardingRule rule(CollectivePermuteOp op) { return collectiveRule(op, {}); }
OpShardingRule rule(AllGatherOp op) {
  return collectiveRule(op, {static_cast<int64_t>(op.getDim())});
}
OpShardingRule rule(ReduceScatterOp op) {
  return collectiveRule(op, {static_cast<int64_t>(op.getDim())});
}
OpShardingRule rule(AllSliceOp op) {
  return collectiveRule(op, {static_cast<int64_t>(op.getDim())});
}
OpShardingRule rule(AllToAllOp op) {
  return collectiveRule(op, {static_cast<int64_t>(op.getSplitDim()),
                             static_cast<int64_t>(op.getConcatDim())});
}

/// xla.trace and its xla.yield constrain nothing themselves: every
/// dimension of every result (yielded value) is a factor of its own. The
/// ops of the body carry the constraints; --xla-spmd-pipeline inlines
/// traces (--xla-inline-trace) before propagating, so these rules only
/// describe the ops to tools that list rules.
OpShardingRule independentRule(Operation *op) {
  OpShardingRuleBuilder b(op);
  int64_t numOperands = op->getNumOperands(), numResults = op->getNumResults();
  for (int64_t i = 0; i < numOperands; ++i)
    for (auto [d, size] : llvm::enumerate(shapeOf(op->getOperand(i)))) {
      SmallVector<int64_t> dims(numOperands, -1);
      dims[i] = static_cast<int64_t>(d);
      b.addFactor(dims, SmallVector<int64_t>(numResults, -1), size);
    }
  for (int64_t r = 0; r < numResults; ++r)
    for (auto [d, size] : llvm::enumerate(shapeOf(op->getResult(r)))) {
      SmallVector<int64_t> dims(numResults, -1);
      dims[r] = static_cast<int64_t>(d);
      b.addFactor(SmallVector<int64_t>(numOperands, -1), dims, size);
    }
  return b.build();
}

OpShardingRule rule(TraceOp op) { return independentRule(op); }

/// A carried value has one sharding: operand i and result i share every
/// dimension's factor. (Propagation also ties the regions' arguments and
/// the body's yield to it: docs/control-flow.md.)
OpShardingRule rule(WhileOp op) {
  OpShardingRuleBuilder b(op);
  int64_t n = op.getNumResults();
  for (int64_t i = 0; i < n; ++i)
    for (auto [d, size] : llvm::enumerate(shapeOf(op.getResult(i)))) {
      SmallVector<int64_t> dims(n, -1);
      dims[i] = static_cast<int64_t>(d);
      b.addFactor(dims, dims, size);
    }
  return b.build();
}
OpShardingRule rule(YieldOp op) { return independentRule(op); }
/// The results of a case take the shardings of the branches' yields
/// (propagation ties them: docs/control-flow.md); the op itself relates no
/// dimensions.
OpShardingRule rule(CaseOp op) { return independentRule(op); }
/// Manual regions: propagation ties an xla.manual_computation's operands
/// and results to its in/out shardings (docs/manual.md) and refuses the
/// markers before they are outlined; the ops relate no dimensions.
OpShardingRule rule(ManualComputationOp op) { return independentRule(op); }
OpShardingRule rule(FullToShardOp op) { return independentRule(op); }
OpShardingRule rule(ShardToFullOp op) { return independentRule(op); }

template <typename OpTy>
struct PointwiseModel
    : ShardingRuleOpInterface::ExternalModel<PointwiseModel<OpTy>, OpTy> {
  OpShardingRule getShardingRule(Operation *op) const {
    return pointwiseRule(op);
  }
};

template <typename OpTy>
struct ContractionModel
    : ShardingRuleOpInterface::ExternalModel<ContractionModel<OpTy>, OpTy> {
  OpShardingRule getShardingRule(Operation *op) const {
    return contractionRule(op);
  }
};

/// Ops with a rule of their own: `rule(OpTy)` above.
template <typename OpTy>
struct OwnModel : ShardingRuleOpInterface::ExternalModel<OwnModel<OpTy>, OpTy> {
  OpShardingRule getShardingRule(Operation *op) const {
    return rule(cast<OpTy>(op));
  }
};

template <template <typename> class Model, typename... OpTys>
void attach(MLIRContext *ctx) {
  (OpTys::template attachInterface<Model<OpTys>>(*ctx), ...);
}

} // namespace

void registerShardingRuleModels(MLIRContext *ctx) {
  attach<PointwiseModel, MarkShardingOp, ConstantOp, IotaOp, PartitionIdOp,
         AxisIndexOp, DeviceTableOp, AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp,
         PowOp, AndOp, OrOp, XorOp, NegOp, AbsOp, ExpOp, LogOp, TanhOp, SqrtOp,
         RsqrtOp, SigmoidOp, ReluOp, GeluOp, NotOp, CompareOp, SelectOp,
         ConvertOp, FloorOp, CeilOp, RoundNearestAfzOp, RoundNearestEvenOp,
         SignOp, ErfOp, CosOp, SinOp, TanOp, Log1pOp, Expm1Op, CbrtOp, Atan2Op,
         IsFiniteOp, RemOp, ShiftLeftOp, ShiftRightArithmeticOp,
         ShiftRightLogicalOp, ClampOp, BitcastConvertOp>(ctx);
  attach<ContractionModel, DotGeneralOp, MatmulOp, EinsumOp>(ctx);
  attach<OwnModel, RngOp, BroadcastInDimOp, ReshapeOp, TransposeOp, SliceOp,
         DynamicSliceOp, DynamicUpdateSliceOp, ConcatenateOp, PadOp, GatherOp,
         ReverseOp, ReduceOp, ReduceRegionOp, ReduceWindowOp,
         SelectAndScatterOp, SoftmaxOp, ConvolutionOp, AllReduceOp,
         AllGatherOp, ReduceScatterOp, AllToAllOp, CollectivePermuteOp,
         AllSliceOp, DispatchOp, TraceOp, YieldOp, WhileOp, CaseOp,
         ManualComputationOp, FullToShardOp, ShardToFullOp, HloGatherOp,
         ScatterOp, SortOp>(ctx);
}

} // namespace xspmd::xla
