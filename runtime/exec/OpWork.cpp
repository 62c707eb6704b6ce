//===- OpWork.cpp - what one op costs, for the timing model ---------------===//
//
// Counts follow XLA's HloCostAnalysis where it has one: a multiply-add is 2
// FLOPs, an elementwise op one FLOP per result element, data movement none.
// Bytes are what an unfused op reads from and writes to HBM: every operand
// once and every result once (docs/simulator.md, "Compute cost").
//
//===----------------------------------------------------------------------===//

#include "runtime/exec/OpWork.h"
#include "runtime/exec/TypeMapping.h"

#include "dialects/xla/XlaContraction.h"
#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace xspmd::xla;

namespace xspmd::runtime {

cost::NumericType toNumericType(ElementType type) {
  switch (type) {
  case ElementType::f32:
    return cost::NumericType::F32;
  case ElementType::f64:
    return cost::NumericType::F64;
  case ElementType::bf16:
    return cost::NumericType::BF16;
  case ElementType::f16:
    return cost::NumericType::F16;
  case ElementType::i1:
    return cost::NumericType::I1;
  case ElementType::i8:
    return cost::NumericType::I8;
  case ElementType::i32:
    return cost::NumericType::I32;
  case ElementType::i64:
    return cost::NumericType::I64;
  }
  llvm_unreachable("unknown element type");
}

InstructionKind classifyInstruction(Operation *op) {
  if (isa<ReshapeOp, MarkShardingOp, BitcastConvertOp>(op))
    return InstructionKind::View;
  // all_slice keeps a block of the local value: a copy, no communication.
  if (isa<CollectiveOpInterface>(op) && !isa<AllSliceOp>(op))
    return InstructionKind::Collective;
  return InstructionKind::Compute;
}

FusionRole fusionRoleOf(Operation *op) {
  if (classifyInstruction(op) != InstructionKind::Compute)
    return FusionRole::None;
  if (isa<ReduceOp, SoftmaxOp, ReduceRegionOp, ReduceWindowOp>(op))
    return FusionRole::Input;
  if (isa<DotGeneralOp, MatmulOp, EinsumOp, ConvolutionOp>(op))
    return FusionRole::Matrix;
  // Every elementwise op of the dialect (arithmetic, math, compare, select,
  // convert, clamp) fuses; bitcast_convert is a view.
  if (isa<BroadcastInDimOp>(op) || op->hasTrait<OpTrait::Elementwise>())
    return FusionRole::Loop;
  return FusionRole::None;
}

static double elementsOf(Value v) {
  TensorSpec spec = specOf(v);
  double n = 1;
  for (int64_t d : spec.shape)
    n *= static_cast<double>(d);
  return n;
}

static double bytesOf(Value v) {
  return elementsOf(v) * static_cast<double>(byteWidth(specOf(v).type));
}

/// Every operand read once, every result written once.
static double streamedBytes(Operation *op) {
  double bytes = 0;
  for (Value v : op->getOperands())
    bytes += bytesOf(v);
  for (Value v : op->getResults())
    bytes += bytesOf(v);
  return bytes;
}

/// FLOPs per result element of an elementwise op: 1 (a transcendental
/// function too, as XLA's HloCostAnalysis counts it), except for the ops the
/// dialect defines as compositions (their arithmetic, counted as written in
/// docs/runtime.md: gelu x / (1 + e^(-2u)) with u = c (x + a x^3) is 8 ops,
/// sigmoid 1 / (1 + e^-x) is 4, clamp min(max(x, lo), hi) is 2).
static double elementwiseFlops(Operation *op) {
  if (isa<GeluOp>(op))
    return 8;
  if (isa<SigmoidOp>(op))
    return 4;
  if (isa<ClampOp>(op))
    return 2;
  return 1;
}

/// Ops a scalar computation executes per application: its ops but the
/// constants (the simulator's ScalarComputation::getNumOps()).
static double bodyOps(Region &region) {
  double ops = 0;
  for (Operation &op : region.front().without_terminator())
    if (!isa<ConstantOp>(op))
      ++ops;
  return ops;
}

/// Ops a scalar body runs per application, at least one (an overwrite or a
/// comparison still touches every element).
static double scalarBodyOps(Region &body) {
  return std::max(bodyOps(body), 1.0);
}

/// One comparison per element per level of a merge of each sorted row:
/// n ceil(log2 n) comparisons a row, each running the comparator.
static double sortFlops(SortOp op) {
  TensorSpec spec = specOf(op.getInputs().front());
  double n = static_cast<double>(spec.shape[op.getDimension()]);
  double rows = n > 0 ? elementsOf(op.getInputs().front()) / n : 0;
  double levels = n > 1 ? std::ceil(std::log2(n)) : 0;
  return rows * n * levels * scalarBodyOps(op.getComparator());
}

/// Elements of one window of a window op.
static double windowElements(ArrayRef<int64_t> window) {
  double n = 1;
  for (int64_t w : window)
    n *= static_cast<double>(w);
  return n;
}

/// 2 B M N K for the matrix part; labels summed inside one operand first are
/// a vector reduction over that operand.
static cost::OpWork contractionWork(Operation *op) {
  ContractionLabels labels = getContractionLabels(op);
  auto contains = [](ArrayRef<int64_t> list, int64_t label) {
    return llvm::is_contained(list, label);
  };
  cost::MatmulShape shape;
  double preReduced = 0;
  for (int64_t label = 0, e = labels.sizes.size(); label < e; ++label) {
    bool inLhs = contains(labels.lhs, label),
         inRhs = contains(labels.rhs, label);
    bool inResult = contains(labels.result, label);
    int64_t size = labels.sizes[label];
    if (inLhs && inRhs && inResult)
      shape.batch *= size;
    else if (inLhs && inRhs)
      shape.k *= size;
    else if (inLhs && inResult)
      shape.m *= size;
    else if (inRhs && inResult)
      shape.n *= size;
    else if (inLhs || inRhs)
      preReduced += elementsOf(op->getOperand(inLhs ? 0 : 1));
  }
  cost::OpWork work;
  work.flops = 2.0 * static_cast<double>(shape.batch) *
                   static_cast<double>(shape.m) * static_cast<double>(shape.n) *
                   static_cast<double>(shape.k) +
               preReduced;
  work.bytes = streamedBytes(op);
  work.type = toNumericType(specOf(op->getOperand(0)).type);
  work.unit = cost::ComputeUnit::Matrix;
  work.matmul = shape;
  return work;
}

/// 2 x N x output pixels x O x kernel window x C / groups.
static cost::OpWork convolutionWork(ConvolutionOp op) {
  TensorSpec in = specOf(op.getInput()), kernel = specOf(op.getKernel()),
             out = specOf(op.getResult());
  int64_t rank = in.shape.size();
  int64_t outPixels = 1, window = 1;
  for (int64_t d = 1; d + 1 < rank; ++d) {
    outPixels *= out.shape[d];
    window *= kernel.shape[d - 1];
  }
  int64_t groups = op.getFeatureGroups();
  int64_t channelsPerGroup = kernel.shape[rank - 2];
  int64_t outFeatures = out.shape[rank - 1];
  cost::MatmulShape shape;
  shape.batch = groups;
  shape.m = in.shape[0] * outPixels;
  shape.n = outFeatures / groups;
  shape.k = window * channelsPerGroup;
  cost::OpWork work;
  work.flops = 2.0 * static_cast<double>(shape.batch) *
               static_cast<double>(shape.m) * static_cast<double>(shape.n) *
               static_cast<double>(shape.k);
  work.bytes = streamedBytes(op);
  work.type = toNumericType(in.type);
  work.unit = cost::ComputeUnit::Matrix;
  work.matmul = shape;
  return work;
}

cost::OpWork describeWork(Operation *op) {
  cost::OpWork work;
  if (classifyInstruction(op) != InstructionKind::Compute)
    return work;
  if (op->getNumResults() == 0)
    return work;
  Value result = op->getResult(0);
  work.type = toNumericType(specOf(result).type);
  work.unit = cost::ComputeUnit::Vector;
  double outElements = elementsOf(result);
  return llvm::TypeSwitch<Operation *, cost::OpWork>(op)
      .Case<DotGeneralOp, MatmulOp, EinsumOp>(
          [](Operation *c) { return contractionWork(c); })
      .Case([](ConvolutionOp c) { return convolutionWork(c); })
      .Case([&](ReduceOp r) {
        // One combine per input element; mean also divides each result.
        work.flops = elementsOf(r.getInput()) +
                     (r.getKind() == ReduceKind::mean ? outElements : 0);
        work.bytes = streamedBytes(op);
        work.type = toNumericType(specOf(r.getInput()).type);
        return work;
      })
      .Case([&](ReduceRegionOp r) {
        // The body runs once per element of an input.
        work.flops = elementsOf(r.getInputs().front()) * bodyOps(r.getBody());
        work.bytes = streamedBytes(op);
        return work;
      })
      .Case([&](ReduceWindowOp r) {
        // The body runs once per window element of each result element.
        work.flops = outElements * windowElements(r.getWindowDimensions()) *
                     bodyOps(r.getBody());
        work.bytes = streamedBytes(op);
        return work;
      })
      .Case([&](SelectAndScatterOp s) {
        // select runs once per window element of each source element,
        // scatter once per source element.
        double sources = elementsOf(s.getSource());
        work.flops = sources * (windowElements(s.getWindowDimensions()) *
                                    bodyOps(s.getSelect()) +
                                bodyOps(s.getScatter()));
        work.bytes = streamedBytes(op);
        return work;
      })
      .Case([&](SoftmaxOp) {
        // max, subtract, exp, sum, divide.
        work.flops = 5 * outElements;
        work.bytes = streamedBytes(op);
        return work;
      })
      .Case<BroadcastInDimOp, TransposeOp, SliceOp, ConcatenateOp, PadOp,
            ReverseOp, AllSliceOp>([&](Operation *) {
        work.bytes = streamedBytes(op);
        return work;
      })
      .Case([&](SortOp sort) {
        work.flops = sortFlops(sort);
        work.bytes = streamedBytes(op);
        work.type = toNumericType(specOf(sort.getInputs().front()).type);
        return work;
      })
      .Case([&](ScatterOp scatter) {
        // In place, as XLA does: read the indices and every update, read
        // and write the element each update lands on; the body runs once
        // per update element.
        double updates = elementsOf(scatter.getUpdates().front());
        work.flops = updates * scalarBodyOps(scatter.getUpdateComputation());
        work.bytes = bytesOf(scatter.getScatterIndices());
        for (Value update : scatter.getUpdates())
          work.bytes += 3 * bytesOf(update);
        return work;
      })
      .Case<DynamicSliceOp, GatherOp, HloGatherOp>([&](Operation *) {
        // Reads the selected block (result-sized) and the indices, writes
        // the result; the rest of the operand is not touched.
        work.bytes = 2 * bytesOf(result);
        for (Value v : op->getOperands().drop_front())
          work.bytes += bytesOf(v);
        return work;
      })
      .Case([&](DynamicUpdateSliceOp u) {
        // In place, as XLA does: read the update, write it into the block.
        work.bytes = 2 * bytesOf(u.getUpdate());
        for (Value v : op->getOperands().drop_front(2))
          work.bytes += bytesOf(v);
        return work;
      })
      .Case<IotaOp, RngOp, PartitionIdOp, AxisIndexOp>([&](Operation *) {
        work.flops = outElements;
        work.bytes = bytesOf(result);
        return work;
      })
      .Default([&](Operation *) {
        // Elementwise arithmetic, math, compare, select, convert.
        work.flops = elementwiseFlops(op) * outElements;
        work.bytes = streamedBytes(op);
        return work;
      });
}

} // namespace xspmd::runtime
