//===- CostModel.h - the time of every instruction of a program -*- C++ -*-===//
//
// Before a timed run, every program the devices run is costed once on the
// topology: each compute instruction by the roofline (runtime/cost
// ComputeCost.h) from its FLOPs and bytes, each collective by the
// collective cost model on the actual links. Collective estimates are
// cached per distinct collective (kind, groups, pairs, bytes): one estimate
// over thousands of devices takes milliseconds, and programs repeat the
// same collectives many times. Costs do not depend on the data, so numeric
// and timing-only runs read the same table.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_TIMELINE_COSTMODEL_H
#define XSPMD_RUNTIME_TIMELINE_COSTMODEL_H

#include "runtime/collectives/CollectiveCall.h"
#include "runtime/cost/CollectiveCost.h"
#include "runtime/cost/ComputeCost.h"
#include "runtime/exec/Program.h"
#include "runtime/timeline/ClockSlots.h"
#include "runtime/topology/Topology.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Error.h"

#include <map>
#include <vector>

namespace xspmd::timeline {

/// One distinct collective and its estimate.
struct CollectiveRecord {
  runtime::CollectiveKind kind = runtime::CollectiveKind::allReduce;
  /// Each participant's input buffer (the cost model's bytesPerDevice).
  double bytesPerDevice = 0;
  int64_t numGroups = 0, groupSize = 0;
  cost::CollectiveEstimate estimate;
  /// Per device of the topology, its own group's duration, when groups
  /// differ (empty: every device takes `estimate.seconds`).
  std::vector<double> deviceSeconds;
  /// Per device, its group in the estimate (-1: none, or a permute), when
  /// groups differ.
  std::vector<int32_t> deviceGroup;

  /// How long `device`'s part of the collective lasts once its group met.
  double secondsOf(int64_t device) const {
    return deviceSeconds.empty() ? estimate.seconds : deviceSeconds[device];
  }
  /// How long `device`'s group spends in `phase` (the slowest group's time
  /// when unknown).
  double phaseSecondsOf(const cost::CollectivePhase &phase,
                        int64_t device) const {
    int32_t group = deviceGroup.empty() ? -1 : deviceGroup[device];
    return group < 0 ? phase.seconds : phase.secondsOfGroup(group);
  }
};

/// The time of each instruction of one program.
struct ProgramCosts {
  /// Compute time, or the collective's slowest group's duration once it has
  /// met (CollectiveRecord::secondsOf gives each device's own); 0 for views.
  std::vector<double> seconds;
  /// For collectives: the CollectiveRecord index; -1 otherwise.
  std::vector<int32_t> collective;
  /// For compute instructions: the roofline detail.
  std::vector<cost::ComputeEstimate> compute;
  /// Where the device clocks keep the program's slots (planned once here,
  /// shared by every device running the program).
  ClockSlots slots;
};

struct CostModelOptions {
  cost::ComputeOptions compute;
  cost::CollectiveCostOptions collectives;
  /// Count HBM bytes after elementwise fusion (runtime/exec/Fusion.h);
  /// false: every op reads and writes HBM.
  bool fuseElementwise = true;
};

class CostModel {
public:
  CostModel(const topology::Topology &topology, CostModelOptions options = {});

  const topology::Topology &getTopology() const { return topology; }
  const CostModelOptions &getOptions() const { return options; }
  /// The HBM bytes the roofline charges `inst`.
  double hbmBytes(const runtime::Instruction &inst) const {
    return options.fuseElementwise ? inst.fusedBytes : inst.work.bytes;
  }

  /// Costs `program` (once; later calls return the same table). Fails when
  /// a collective names devices outside the topology.
  llvm::Expected<const ProgramCosts *> addProgram(const runtime::Program &p);
  /// The table of a program added before.
  const ProgramCosts &costsOf(const runtime::Program &program) const;

  /// The duration of instruction `index` of `costs` on `device`.
  double secondsOn(const ProgramCosts &costs, int32_t index,
                   int64_t device) const {
    int32_t record = costs.collective[index];
    return record < 0 ? costs.seconds[index]
                      : collectives[record].secondsOf(device);
  }

  llvm::ArrayRef<CollectiveRecord> getCollectives() const {
    return collectives;
  }
  /// Distinct collectives estimated, and collective instructions that
  /// reused one of them.
  int64_t getEstimates() const { return collectives.size(); }
  int64_t getCacheHits() const { return cacheHits; }

private:
  llvm::Expected<int32_t> estimate(const runtime::CollectiveCall &call);

  const topology::Topology &topology;
  CostModelOptions options;
  cost::CollectiveCostModel collectiveModel;
  std::vector<CollectiveRecord> collectives;
  std::map<std::vector<int64_t>, int32_t> cache;
  int64_t cacheHits = 0;
  llvm::DenseMap<const runtime::Program *, std::unique_ptr<ProgramCosts>>
      programs;
};

/// The cost model's kind of a runtime collective.
cost::CollectiveKind toCostKind(runtime::CollectiveKind kind);

/// Bytes of one participant's input buffer.
double inputBytes(const runtime::CollectiveCall &call);

} // namespace xspmd::timeline

#endif // XSPMD_RUNTIME_TIMELINE_COSTMODEL_H
