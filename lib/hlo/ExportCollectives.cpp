//===- ExportCollectives.cpp - HLO for device-level xla ops ---------------===//
//
// Sharding markers (custom-call Sharding, SPMDFullToShardShape/ShardToFull)
// and the ops of partitioned programs: collectives with their replica groups
// as global device ids (use_global_device_ids=true, one channel each), and
// the per-device helpers (axis_index, device_table, all_slice), which read a
// constant table at partition-id.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloExportContext.h"

#include "dialects/xla/XlaMesh.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;
using xspmd::xla::DeviceGroups;

namespace {

RankedTensorType tensorOf(Value v) {
  return cast<RankedTensorType>(v.getType());
}

std::string groupsText(const DeviceGroups &groups) {
  std::string s = "{";
  for (auto [i, g] : llvm::enumerate(groups))
    s += (i ? "," : "") + hloIntList(g);
  return s + "}";
}

StringRef reducerOpcode(xla::ReductionKind kind) {
  switch (kind) {
  case xla::ReductionKind::sum:
    return "add";
  case xla::ReductionKind::mul:
    return "multiply";
  case xla::ReductionKind::and_:
    return "and";
  case xla::ReductionKind::or_:
    return "or";
  case xla::ReductionKind::min:
    return "minimum";
  case xla::ReductionKind::max:
    return "maximum";
  }
  return "add";
}

/// `reduced` times the reduction's `scale` (a mean's 1/n): HLO's reducing
/// collectives have no scale, so it is a multiply after them.
std::string emitScaled(ComputationExporter &ce, const std::string &reduced,
                       const APFloat &scale, RankedTensorType type) {
  double factor = scale.convertToDouble();
  if (factor == 1.0)
    return reduced;
  return ce.emit("multiply", type, "multiply",
                 {reduced, ce.emitSplat(factor, type)});
}

/// The groups a collective runs over, as device ids.
DeviceGroups participants(ComputationExporter &ce, Operation *op) {
  auto coll = cast<xla::CollectiveOpInterface>(op);
  xla::MeshAttr mesh;
  if (FlatSymbolRefAttr ref = coll.getMeshAttr())
    mesh = ce.getModule().lookupMesh(ref);
  return xla::resolveParticipantGroups(coll, mesh,
                                       ce.getModule().getNumDevices());
}

std::string collectiveAttrs(ComputationExporter &ce, Operation *op) {
  return "channel_id=" + std::to_string(ce.getModule().nextChannel()) +
         ", replica_groups=" + groupsText(participants(ce, op)) +
         ", use_global_device_ids=true";
}

/// A scalar of `element` read from `table` at the running device.
std::string emitDeviceScalar(ComputationExporter &ce, ArrayRef<int64_t> table,
                             Type element) {
  auto tableType = RankedTensorType::get({(int64_t)table.size()}, element);
  std::string literal = "{";
  for (auto [i, v] : llvm::enumerate(table))
    literal += (i ? ", " : "") + formatScalar(v, element);
  literal += "}";
  std::string t = ce.emitConstant(tableType, literal);
  std::string pid = ce.emit("partition-id", "u32[]", "partition-id", {});
  std::string one =
      ce.emit("dynamic-slice", RankedTensorType::get({1}, element),
              "dynamic-slice", {t, pid}, "dynamic_slice_sizes={1}");
  return ce.emit("reshape", RankedTensorType::get({}, element), "reshape",
                 {one});
}

} // namespace

std::optional<LogicalResult>
xspmd::hlo::exportDeviceLevelOp(ComputationExporter &ce, Operation *op,
                                ArrayRef<std::string> operands) {
  ModuleExporter &m = ce.getModule();
  auto bindOne = [&](const std::string &n) -> std::optional<LogicalResult> {
    ce.bind(op->getResult(0), n);
    return success();
  };
  auto unsupported = [&](StringRef why) -> std::optional<LogicalResult> {
    return LogicalResult(op->emitError() << "'" << op->getName()
                                         << "' has no HLO export: " << why);
  };
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case([&](xla::MarkShardingOp o) -> std::optional<LogicalResult> {
        FailureOr<std::string> text = m.shardingText(o.getSharding(), op);
        if (failed(text))
          return failure();
        return bindOne(
            ce.emit("custom-call", o.getType(), "custom-call", operands,
                    "custom_call_target=\"Sharding\", sharding=" + *text));
      })
      .Case([&](xla::FullToShardOp o) -> std::optional<LogicalResult> {
        FailureOr<std::string> text = m.shardingText(o.getSharding(), op);
        if (failed(text))
          return failure();
        // HLO reads the global layout from the operand's Sharding
        // custom-call: reuse a mark_sharding that already says it.
        std::string marked = operands[0];
        auto mark = o.getInput().getDefiningOp<xla::MarkShardingOp>();
        if (!mark || mark.getSharding() != o.getSharding())
          marked = ce.emit(
              "custom-call", o.getInput().getType(), "custom-call", operands,
              "custom_call_target=\"Sharding\", sharding=" + *text);
        return bindOne(ce.emit(
            "custom-call", o.getType(), "custom-call", {marked},
            "custom_call_target=\"SPMDFullToShardShape\", sharding={manual}"));
      })
      .Case([&](xla::ShardToFullOp o) -> std::optional<LogicalResult> {
        FailureOr<std::string> text = m.shardingText(o.getSharding(), op);
        if (failed(text))
          return failure();
        std::string marked = ce.emit(
            "custom-call", o.getInput().getType(), "custom-call", operands,
            "custom_call_target=\"Sharding\", sharding={manual}");
        return bindOne(ce.emit(
            "custom-call", o.getType(), "custom-call", {marked},
            "custom_call_target=\"SPMDShardToFullShape\", sharding=" + *text));
      })
      .Case([&](xla::AllReduceOp o) {
        auto type = cast<RankedTensorType>(o.getType());
        std::string reducer =
            m.getReducer(reducerOpcode(o.getKind()), type.getElementType());
        std::string r =
            ce.emit("all-reduce", type, "all-reduce", operands,
                    collectiveAttrs(ce, op) + ", to_apply=%" + reducer);
        return bindOne(emitScaled(ce, r, o.getScale(), type));
      })
      .Case([&](xla::AllGatherOp o) {
        return bindOne(ce.emit("all-gather", o.getType(), "all-gather",
                               operands,
                               collectiveAttrs(ce, op) + ", dimensions={" +
                                   std::to_string(o.getDim()) + "}"));
      })
      .Case([&](xla::ReduceScatterOp o) {
        auto type = cast<RankedTensorType>(o.getType());
        std::string reducer =
            m.getReducer(reducerOpcode(o.getKind()), type.getElementType());
        std::string r =
            ce.emit("reduce-scatter", type, "reduce-scatter", operands,
                    collectiveAttrs(ce, op) + ", dimensions={" +
                        std::to_string(o.getDim()) + "}, to_apply=%" + reducer);
        return bindOne(emitScaled(ce, r, o.getScale(), type));
      })
      .Case([&](xla::AllToAllOp o) -> std::optional<LogicalResult> {
        int64_t split = o.getSplitDim(), concat = o.getConcatDim();
        if (split == concat)
          return bindOne(ce.emit("all-to-all", o.getType(), "all-to-all",
                                 operands,
                                 collectiveAttrs(ce, op) + ", dimensions={" +
                                     std::to_string(split) + "}"));
        // HLO's array all-to-all splits and concatenates one dimension: the
        // blocks go to a new major dimension, which is exchanged and then
        // merged into the concat dimension (as XLA's partitioner does).
        auto in = tensorOf(o.getInput());
        int64_t groups = o.getSplitCount(), rank = in.getRank();
        SmallVector<int64_t> dims(in.getShape());
        dims[split] /= groups;
        SmallVector<int64_t> reshaped(dims), moved{groups};
        reshaped.insert(reshaped.begin() + split, groups);
        llvm::append_range(moved, dims);
        SmallVector<int64_t> toFront{split};
        for (int64_t d = 0; d <= rank; ++d)
          if (d != split)
            toFront.push_back(d);
        Type element = in.getElementType();
        std::string x =
            ce.emit("reshape", RankedTensorType::get(reshaped, element),
                    "reshape", operands);
        auto movedType = RankedTensorType::get(moved, element);
        if (split != 0)
          x = ce.emit("transpose", movedType, "transpose", {x},
                      "dimensions=" + hloIntList(toFront));
        x = ce.emit("all-to-all", movedType, "all-to-all", {x},
                    collectiveAttrs(ce, op) + ", dimensions={0}");
        SmallVector<int64_t> toConcat, merged;
        for (int64_t d = 1; d <= concat; ++d)
          toConcat.push_back(d);
        toConcat.push_back(0);
        for (int64_t d = concat + 1; d <= rank; ++d)
          toConcat.push_back(d);
        for (int64_t p : toConcat)
          merged.push_back(moved[p]);
        if (concat != 0)
          x = ce.emit("transpose", RankedTensorType::get(merged, element),
                      "transpose", {x}, "dimensions=" + hloIntList(toConcat));
        return bindOne(ce.emit("reshape", o.getType(), "reshape", {x}));
      })
      .Case([&](xla::CollectivePermuteOp o) -> std::optional<LogicalResult> {
        // Pairs are positions within each group; HLO wants device ids.
        SmallVector<int64_t> flat =
            llvm::to_vector(o.getPairs().getValues<int64_t>());
        bool grouped = o.getGroupsAttr() || o.getAxesAttr();
        DeviceGroups groups = grouped ? participants(ce, op) : DeviceGroups{};
        std::string pairs = "{";
        bool first = true;
        auto addPair = [&](int64_t s, int64_t t) {
          pairs += (first ? "{" : ",{") + std::to_string(s) + "," +
                   std::to_string(t) + "}";
          first = false;
        };
        if (!grouped) {
          for (size_t i = 0; i + 1 < flat.size(); i += 2)
            addPair(flat[i], flat[i + 1]);
        } else {
          for (const auto &g : groups)
            for (size_t i = 0; i + 1 < flat.size(); i += 2) {
              if (flat[i] < 0 || flat[i + 1] < 0 ||
                  flat[i] >= (int64_t)g.size() ||
                  flat[i + 1] >= (int64_t)g.size())
                return unsupported("a pair names a position outside its group");
              addPair(g[flat[i]], g[flat[i + 1]]);
            }
        }
        pairs += "}";
        return bindOne(ce.emit("collective-permute", o.getType(),
                               "collective-permute", operands,
                               "channel_id=" + std::to_string(m.nextChannel()) +
                                   ", source_target_pairs=" + pairs));
      })
      .Case([&](xla::AllSliceOp o) {
        // Block `position in group` of the input along dim.
        auto in = tensorOf(o.getInput());
        auto type = cast<RankedTensorType>(o.getType());
        DeviceGroups groups = participants(ce, op);
        SmallVector<int64_t> table(m.getNumDevices(), 0);
        for (const auto &g : groups)
          for (auto [pos, d] : llvm::enumerate(g))
            if (d < (int64_t)table.size())
              table[d] = pos * type.getDimSize(o.getDim());
        Type i32 = IntegerType::get(op->getContext(), 32);
        std::string offset = emitDeviceScalar(ce, table, i32);
        std::string zero = ce.emitScalar(0, i32);
        SmallVector<std::string> args{operands[0]};
        for (int64_t d = 0; d < in.getRank(); ++d)
          args.push_back(d == (int64_t)o.getDim() ? offset : zero);
        return bindOne(
            ce.emit("dynamic-slice", type, "dynamic-slice", args,
                    "dynamic_slice_sizes=" + hloIntList(type.getShape())));
      })
      .Case([&](xla::PartitionIdOp o) {
        return bindOne(ce.emit("partition-id", "u32[]", "partition-id", {}));
      })
      .Case([&](xla::AxisIndexOp o) -> std::optional<LogicalResult> {
        xla::MeshAttr mesh = m.lookupMesh(o.getMeshAttr());
        if (!mesh)
          return unsupported("unknown mesh");
        int64_t axis = mesh.getAxisIndex(o.getAxis());
        SmallVector<int64_t> shape;
        for (auto a : mesh.getAxes())
          shape.push_back(a.getSize());
        SmallVector<int64_t> strides = xla::rowMajorStrides(shape);
        SmallVector<int64_t> devices = mesh.getDeviceArray();
        SmallVector<int64_t> table(m.getNumDevices(), 0);
        for (auto [pos, d] : llvm::enumerate(devices))
          table[d] = (pos / strides[axis]) % shape[axis];
        return bindOne(emitDeviceScalar(
            ce, table, cast<RankedTensorType>(o.getType()).getElementType()));
      })
      .Case([&](xla::DeviceTableOp o) {
        return bindOne(emitDeviceScalar(
            ce, o.getValues(),
            cast<RankedTensorType>(o.getType()).getElementType()));
      })
      .Default([](Operation *) { return std::nullopt; });
}
