//===- PropagationState.h - state of propagation in one function -*- C++ -*-//
//
// Internal to passes/propagation/: the per-value sharding state, the op
// records the worklist runs over, and the class that ties them together.
// Propagation.cpp drives it (initialisation, rounds, write-back),
// OpPropagation.cpp propagates through one op, Explain.cpp prints origins
// and conflicts.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_PROPAGATION_PROPAGATIONSTATE_H
#define XSPMD_PASSES_PROPAGATION_PROPAGATIONSTATE_H

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaShardingRule.h"
#include "dialects/xla/XlaShardingRuleCache.h"
#include "dialects/xla/XlaSubAxes.h"
#include "passes/partition/ReshardPlanner.h"
#include "passes/propagation/AxisSharding.h"
#include "passes/propagation/Propagation.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace xspmd::prop::detail {

/// Priority of axes that no prioritised annotation produced.
constexpr int64_t kNoPriority = std::numeric_limits<int64_t>::max();

/// Where a dimension's axes (or a value's pending axes) came from.
struct Origin {
  int32_t record = -1; ///< op record that set them, -1 for an annotation
  int32_t tensor = -1; ///< tensor of that op they were taken from
  int32_t root = -1;   ///< user annotation they descend from
};

struct DimState {
  AxisList axes;
  /// May gain axes. Values without a user sharding are open everywhere.
  bool open = true;
  /// Priority of the annotation the axes descend from.
  int64_t priority = kNoPriority;
  /// The priority as the user wrote it (printed back on user shardings).
  std::optional<int64_t> userPriority;
  Origin origin;
};

struct ValueState {
  /// Mesh of the sharding; null until some sharding reaches the value.
  mlir::FlatSymbolRefAttr mesh;
  llvm::SmallVector<DimState, 4> dims;
  AxisList partial;
  xla::ReductionKind partialKind = xla::ReductionKind::sum;
  Origin partialOrigin;
  /// Holds a user sharding: its axes stay, it never becomes partial.
  bool user = false;
  /// A function result: never partial (the caller gets full values).
  bool isFuncResult = false;
  /// A loop-carried value (the result and region arguments of an
  /// xla.while share it) or an xla.case result: never partial, as every
  /// iteration reads it whole and each branch yields it whole.
  bool carried = false;
  int32_t annotation = -1;
  double bytes = 0;
  /// The IR value (null for a function result or a manual computation's
  /// in_shardings entry).
  mlir::Value value;
  /// The value's type; null when it is not a ranked tensor.
  mlir::RankedTensorType type;
  int64_t funcResult = -1;

  AxisSharding toAxisSharding() const;
};

/// An op (or the function's return) with the rule propagation follows.
struct OpRecord {
  mlir::Operation *op;
  /// Owned by the function's rule cache (or its return rules): ops of one
  /// kind share a rule.
  const xla::OpShardingRule *rule;
  /// State index of each rule tensor (operands, then results).
  llvm::SmallVector<int32_t, 4> tensors;
  /// Index of the first result in `tensors`.
  int32_t numOperands = 0;
  /// For the identity records that tie an xla.while's operand (op = the
  /// while) or its body's yielded value (op = the yield) to carried value
  /// `carried`, or an xla.case branch's yielded value (op = the yield) to
  /// result `carried`, or an xla.manual_computation's operand `carried` to
  /// its in_shardings entry (op = the manual computation); -1 otherwise.
  int32_t carried = -1;
};

/// One alternative of a conflict, for --xla-explain-sharding.
struct ConflictOption {
  AxisList axes;
  int32_t factor = -1;
  int32_t tensor = -1; ///< a tensor proposing it
  int64_t priority = kNoPriority;
  double cost = 0;
};

struct ConflictRecord {
  int32_t record;
  /// Set for one axis wanted by several factors; else the factor whose
  /// candidate axes disagree.
  mlir::StringAttr axis;
  int32_t factor = -1;
  llvm::SmallVector<ConflictOption, 2> options;
  int32_t chosen = 0;
};

/// Identifies a conflict across runs: (op record, contested axis, factor).
using ConflictKey = std::tuple<int32_t, const void *, int32_t>;

/// A choice forced at a conflict: the option whose factor (axis conflicts)
/// or axes (factor conflicts) match.
struct ForcedChoice {
  int32_t factor = -1;
  AxisList axes;
};
using ForcedChoices = std::map<ConflictKey, ForcedChoice>;

/// A conflict decided by a margin within the tie tolerance, and the option
/// that lost it.
struct NearTie {
  ConflictKey key;
  ForcedChoice alternative;
};

/// Operand reshards done: (state, target sharding printed as a key).
using ReshardsDone = std::set<std::pair<int32_t, std::string>>;

/// An op's name and, for file locations, `file:line:col`.
std::string describeOp(mlir::Operation *op);

class FunctionPropagation {
public:
  FunctionPropagation(mlir::func::FuncOp func,
                      mlir::SymbolTableCollection &symbols,
                      const PropagationOptions &options,
                      ForcedChoices forced = {});

  /// Builds the states from the user's annotations; fails on annotations
  /// naming unknown meshes.
  mlir::LogicalResult initialize();
  /// Runs the rounds to a fixed point.
  void propagate();
  /// Moves the reshard a function result or mark_sharding needs up a chain
  /// of data-moving ops to where it is cheapest (ReshardPlacement.cpp).
  void placeReshards();
  /// Writes the shardings onto the IR.
  void writeBack();
  /// Prints origins and conflicts to `os`.
  void explain(llvm::raw_ostream &os);
  /// Estimated weighted bytes of the whole plan: per op record, the
  /// reshards its tensors need given the shardings they ended with
  /// (OpPropagation.cpp).
  double planCost() const;
  /// What the partitioner will move around op record `r`: its reshards
  /// priced by the partitioner's planner (weighted, or plain bytes per
  /// device with `bytesOnly`). Operand reshards already in `done` (a value
  /// resharded to a layout by an earlier op) are free, as the partitioner
  /// reuses them; the others are added to it.
  double recordCost(int32_t r, ReshardsDone *done = nullptr,
                    bool bytesOnly = false) const;
  /// The conflicts decided by a margin within the tie tolerance, in the
  /// order they were last decided.
  std::vector<NearTie> nearTies() const;
  /// Notes, for the explanation, a near tie re-decided by the whole plan's
  /// cost.
  void noteGlobalDecision(const NearTie &tie, double kept, double other);
  /// Adds this function's counters to `stats`.
  void addStats(PropagationStats &stats) const;

private:
  /// For an op whose partitioning decides more than a factor assignment
  /// (partition::decidesBeyondAssignment): what partition::planOp chooses
  /// from the layouts propagation gave its operands and results, priced by
  /// partition::priceOpPlan. None when a layout is not one the partitioner
  /// plans (sub-axes).
  std::optional<double> opPlanCost(int32_t r, mlir::FlatSymbolRefAttr mesh,
                                   ReshardsDone *done, bool bytesOnly) const;
  /// What partition::planOp chooses for record `r`'s op when its operands
  /// are laid out as `current` and its results are wanted as `targets`,
  /// priced as the partitioner carries it out (reshards reused, unused
  /// results never resharded); records where the op leaves its results.
  double priceOpOnLayouts(int32_t r, mlir::FlatSymbolRefAttr mesh,
                          llvm::ArrayRef<xla::ShardLayout> current,
                          llvm::ArrayRef<xla::ShardLayout> targets,
                          ReshardsDone *done, bool bytesOnly) const;
  /// For a record with a tensor on a maximal mesh (one device,
  /// passes/partition/Maximal.h): what the partitioner moves for it, priced
  /// by its planner on the function's mesh (broadcasts from the device,
  /// gathers to it). None when no tensor is maximal or the record is not
  /// one the partitioner carries out from layouts alone.
  std::optional<double> maximalRecordCost(int32_t r, ReshardsDone *done,
                                          bool bytesOnly) const;
  /// The mesh the partitioner partitions the function over: the first
  /// ordinary mesh a user sharding names, else the module's first mesh.
  mlir::FlatSymbolRefAttr functionMesh() const;
  /// The partitioner's plan from `from` to `to` for `state`'s value: its
  /// weighted cost, or its bytes per device; nothing when the planner
  /// cannot price it (sub-axes, no static shape).
  std::optional<double> plannedCost(mlir::FlatSymbolRefAttr mesh,
                                    const AxisSharding &from,
                                    const AxisSharding &to,
                                    const ValueState &state,
                                    bool bytesOnly) const;
  /// The state holding what a boundary use (a returned value, a
  /// mark_sharding's or manual computation's operand) must become.
  std::optional<int32_t> boundaryTarget(mlir::OpOperand &use) const;
  /// The mesh the partitioner plans `mesh`'s layouts on: its axes split
  /// into atoms at the sub-axes in use (as xla::refineSubAxes does for the
  /// partitioner). Those of the whole function once propagation has settled
  /// (placeReshards ran), and those `extra` names. Null when they are
  /// incompatible (the partitioner rejects such sub-axes too).
  const xla::MeshRefinement *
  getRefinement(mlir::FlatSymbolRefAttr mesh,
                llvm::ArrayRef<const AxisSharding *> extra = {}) const;
  /// The mesh `mesh` names (null if none).
  xla::MeshAttr meshAttrOf(mlir::FlatSymbolRefAttr mesh) const;
  /// The partitioner's planner for `mesh`'s refinement (made on first use).
  partition::ReshardPlanner &getPlanner(mlir::FlatSymbolRefAttr mesh) const;
  partition::ReshardPlanner &
  getPlanner(const xla::MeshRefinement &refinement) const;
  /// `s` as the partitioner's layout of a `type` tensor over `refinement`
  /// (by default `mesh`'s); nothing for a shape that is not static or axes
  /// the refinement does not split at.
  std::optional<xla::ShardLayout>
  toLayout(mlir::FlatSymbolRefAttr mesh, const AxisSharding &s,
           mlir::RankedTensorType type, xla::ReductionKind kind,
           const xla::MeshRefinement *refinement = nullptr) const;
  /// The partitioner's planners (and plan caches), per refined mesh.
  mutable llvm::DenseMap<mlir::Attribute,
                         std::unique_ptr<partition::ReshardPlanner>>
      planners;
  /// Refinements by mesh symbol and cut points (null: incompatible cuts).
  mutable std::map<std::pair<const void *, std::string>,
                   std::unique_ptr<xla::MeshRefinement>>
      refinements;
  /// The sub-axis cuts of the function's shardings per mesh, once settled.
  mutable llvm::DenseMap<mlir::Attribute, xla::SubAxisCuts> settledCuts;
  /// The layout each op result is in where its op leaves it (the local
  /// result of partition::planOp's choice), filled as recordCost visits
  /// ops in order once settled: the partitioner hands that local value
  /// unchanged to a user wanting exactly this layout (Partitioner::getAs).
  mutable llvm::DenseMap<mlir::Value, xla::ShardLayout> localLayouts;
  /// Whether `state`'s value is an op result its op leaves in the layout
  /// `to` has (so a reshard to `to` moves nothing).
  bool producedAs(mlir::FlatSymbolRefAttr mesh, const ValueState &state,
                  const AxisSharding &to) const;
  /// The key under which a reshard of `state` to `to` is reused, the one
  /// opPlanCost uses for the same layout.
  std::string reuseKey(mlir::FlatSymbolRefAttr mesh, const ValueState &state,
                       const AxisSharding &to) const;
  /// Set when propagation and reshard placement are done: the shardings
  /// are those the partitioner will see.
  bool settled = false;

  int32_t addState(mlir::Value value, mlir::Type type);
  /// States of an xla.manual_computation: its results hold out_shardings,
  /// and one state per operand (no value) holds in_shardings.
  mlir::LogicalResult
  addManualStates(xla::ManualComputationOp op,
                  llvm::function_ref<mlir::LogicalResult(xla::ShardingAttr,
                                                         mlir::Operation *)>
                      checkMesh);
  /// One state per carried value of `op`, shared by its result and the
  /// arguments of both regions.
  void addCarriedStates(xla::WhileOp op);
  /// The identity rule between two values of `type`.
  const xla::OpShardingRule *identityRule(mlir::Type type);
  void setUserSharding(ValueState &state, xla::ShardingAttr sharding,
                       const std::string &what);
  const MeshAxes *getMeshAxes(mlir::FlatSymbolRefAttr mesh);
  /// Whether `mesh` is a maximal (single-device) mesh.
  bool isMaximalMesh(mlir::FlatSymbolRefAttr mesh);
  /// The maximal mesh every operand of `op` is on (none pending), if any.
  mlir::FlatSymbolRefAttr maximalMeshOfOperands(mlir::Operation *op);
  mlir::FlatSymbolRefAttr getDefaultMesh();
  xla::ShardingAttr toAttr(const ValueState &state);

  // OpPropagation.cpp
  /// Records a conflict, replacing an earlier record of the same conflict
  /// (an op is revisited when its neighbours change).
  void logConflict(ConflictRecord record);
  void processOp(int32_t record, bool aggressive, int64_t round,
                 llvm::SmallVectorImpl<int32_t> &changed);
  /// Applies a forced choice to a decided conflict and notes a near tie.
  void
  decide(ConflictRecord &log,
         llvm::function_ref<bool(const ConflictOption &, const ForcedChoice &)>
             matches);
  static int32_t numOperands(const OpRecord &record) {
    return record.numOperands;
  }

  mlir::func::FuncOp func;
  mlir::SymbolTableCollection &symbols;
  const PropagationOptions &options;

  std::vector<ValueState> states;
  llvm::DenseMap<mlir::Value, int32_t> stateOf;
  std::vector<OpRecord> records;
  /// Op records touching each state.
  std::vector<llvm::SmallVector<int32_t, 2>> recordsOf;
  /// States of the function results, in order.
  llvm::SmallVector<int32_t> resultStates;
  /// Per xla.manual_computation, the states of its operands' in_shardings.
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<int32_t>>
      manualInputStates;
  /// Ops whose results get `xla.sharding` (those with ranked tensor results).
  llvm::SmallVector<mlir::Operation *> annotatedOps;
  /// Sharding rules, computed once per kind of op.
  xla::ShardingRuleCache rules;
  /// Identity rules between returned values and results, one per type.
  llvm::DenseMap<mlir::Type, std::unique_ptr<xla::OpShardingRule>> returnRules;

  llvm::DenseMap<mlir::Attribute, std::unique_ptr<MeshAxes>> meshes;
  mlir::FlatSymbolRefAttr firstUserMesh;

  // Explanation.
  std::vector<std::string> annotations;
  /// Reshards moved up a chain: the boundary that needed one, the value
  /// resharded instead, and the costs at the boundary and there.
  struct MovedReshard {
    mlir::Operation *boundary;
    mlir::Value value;
    double costAtBoundary, cost;
  };
  std::vector<MovedReshard> movedReshards;
  std::vector<ConflictRecord> conflicts;
  int64_t numVisits = 0, numDecisions = 0;
  std::map<ConflictKey, size_t> conflictIndex;
  /// Choices imposed by the whole-plan search (Propagation.cpp).
  ForcedChoices forced;
  /// Near ties of the last run, by conflict.
  std::map<ConflictKey, std::pair<size_t, ForcedChoice>> ties;
  /// Near ties re-decided by the whole plan's cost: the conflict, the plan
  /// cost of the choice kept and of the other.
  struct GlobalDecision {
    ConflictKey key;
    ForcedChoice kept;
    double keptCost, otherCost;
  };
  std::vector<GlobalDecision> globalDecisions;
};

} // namespace xspmd::prop::detail

#endif // XSPMD_PASSES_PROPAGATION_PROPAGATIONSTATE_H
