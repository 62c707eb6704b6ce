//===- Passes.td - passes of xspmd -------------------------*- tablegen -*-===//

#ifndef XSPMD_PASSES_PASSES_TD
#define XSPMD_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Inspection
//===----------------------------------------------------------------------===//

def XlaDumpMeshesPass : Pass<"xla-dump-meshes", "::mlir::ModuleOp"> {
  let summary = "Prints every mesh's axes, link classes and device array";
  let description = [{
    For each `xla.mesh` of the module, prints to standard output its axes
    (size, and for hybrid meshes the ICI and DCN factors), the link class of
    each axis (ICI, DCN or mixed) and the device ids in row-major order of
    the logical mesh. The module is left unchanged.

    ```
    mesh @hybrid: 8 devices, shape [2, 4, 1], hybrid
      axis "data" size 2 (ici 1 x dcn 2) link dcn
      axis "fsdp" size 4 (ici 4 x dcn 1) link ici
      axis "tensor" size 1 (ici 1 x dcn 1) link ici
      devices (row-major): 0 1 2 3 4 5 6 7
      logical array: [[[0], [1], [2], [3]], [[4], [5], [6], [7]]]
    ```

    Use `-o /dev/null` to see the dump alone.
  }];
}

//===----------------------------------------------------------------------===//
// Trace annotations
//===----------------------------------------------------------------------===//

def XlaInlineTracePass : Pass<"xla-inline-trace", "::mlir::ModuleOp"> {
  let summary = "Inlines xla.trace regions, keeping their names in locations";
  let description = [{
    Moves the body of every `xla.trace` in place (inner traces first) and
    wraps the location of each op it held in `"xla.trace:<name>"`, so that
    propagation and partitioning work on flat function bodies while the
    simulator still attributes the ops, and the collectives created for
    them, to the trace (docs/simulator.md). The first step of
    `--xla-spmd-pipeline`.

    ```mlir
    %y = xla.trace "mlp" {
      %0 = xla.gelu %x : tensor<8xf32>
      xla.yield %0 : tensor<8xf32>
    } : tensor<8xf32>
    // becomes
    %0 = xla.gelu %x : tensor<8xf32> loc("xla.trace:mlp"(...))
    ```
  }];
}

def XlaOutlineManualComputationsPass
    : Pass<"xla-outline-manual-computations", "::mlir::ModuleOp"> {
  let summary = "Gathers the per-device code between xla.full_to_shard and "
                "xla.shard_to_full into xla.manual_computation ops";
  let description = [{
    torch_xla's `enable_manual_sharding` / `disable_manual_sharding` (HLO's
    SPMDFullToShardShape / SPMDShardToFullShape custom-calls) switch a
    program to per-device code and back without delimiting a region. In
    every block, the ops reachable from an `xla.full_to_shard` before an
    `xla.shard_to_full` are per-device; each connected piece of them becomes
    one `xla.manual_computation` whose operands are its full_to_shard inputs
    (with their shardings as `in_shardings`) and whose results replace its
    shard_to_full results. Values the piece reads that are computed from
    constants alone (constants, iotas, a broadcast scalar) are copied into
    its body. A global value used by per-device code, a per-device
    value reaching global code other than through `xla.shard_to_full`, or a
    `shard_to_full` of a global value is a located error. The first step of
    `--xla-spmd-pipeline` after inlining (docs/manual.md).

    ```mlir
    %l = xla.full_to_shard %x <@mesh, [{"data"}, {} ]> : tensor<8x16xf32> -> tensor<2x16xf32>
    %t = xla.tanh %l : tensor<2x16xf32>
    %y = xla.shard_to_full %t <@mesh, [{"data"}, {} ]> : tensor<2x16xf32> -> tensor<8x16xf32>
    // becomes
    %y = xla.manual_computation (%arg1 = %x : tensor<2x16xf32>)
        in_shardings = [<@mesh, [{"data"}, {} ]>]
        out_shardings = [<@mesh, [{"data"}, {} ]>] {
      %t = xla.tanh %arg1 : tensor<2x16xf32>
      xla.yield %t : tensor<2x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>
    ```
  }];
  let dependentDialects = ["::xspmd::xla::XlaDialect"];
}

//===----------------------------------------------------------------------===//
// Sharding propagation
//===----------------------------------------------------------------------===//

def XlaAnnotateShardingRulesPass
    : Pass<"xla-annotate-sharding-rules", "::mlir::ModuleOp"> {
  let summary = "Writes each op's sharding rule onto it as an attribute";
  let description = [{
    Sets `xla.sharding_rule = #xla.op_sharding_rule<...>` on every op that
    has a sharding rule (every computational xla op, and any op that already
    carries one), so that rules can be read and tested with FileCheck:

    ```mlir
    %0 = xla.matmul %a, %b {xla.sharding_rule = #xla.op_sharding_rule<
        ([i, j], [j, k])->([i, k]) {i=8, j=16, k=4} reduction={j}>} ...
    ```

    Since an `xla.sharding_rule` attribute overrides an op's own rule, the
    annotated module propagates exactly as the original one.
  }];
}

class XlaPropagationPassBase<string name> : Pass<name, "::mlir::ModuleOp"> {
  list<Option> costOptions = [
    Option<"iciCost", "ici-cost", "double", "1.0",
           "Cost of one byte received over ICI (intra-slice links)">,
    Option<"dcnCost", "dcn-cost", "double", "16.0",
           "Cost of one byte received over DCN (between slices); mixed axes "
           "pay this rate">,
    Option<"globalTrials", "global-trials", "int64_t", "8",
           "Near ties re-decided by the whole plan's estimated cost: at most "
           "this many extra propagation runs per function (0: local only)">,
    Option<"tieTolerance", "tie-tolerance", "double", "0.05",
           "Relative cost difference within which two options of a conflict "
           "are a near tie">,
    Option<"halo", "halo", "::xspmd::partition::HaloMode",
           "::xspmd::partition::HaloMode::automatic",
           "The --xla-partition halo= mode the plan is priced for: split "
           "dimensions of windowed ops, concatenate, reverse and reshape "
           "relayouts exchange halos or gather as the partitioner will",
           [{::llvm::cl::values(
             clEnumValN(::xspmd::partition::HaloMode::automatic, "auto",
                        "by cost"),
             clEnumValN(::xspmd::partition::HaloMode::always, "always",
                        "halo exchange whenever the window fits"),
             clEnumValN(::xspmd::partition::HaloMode::never, "never",
                        "gather the dimension"))}]>,
  ];
}

def XlaPropagateShardingPass
    : XlaPropagationPassBase<"xla-propagate-sharding"> {
  let summary = "Gives every tensor value a sharding, from the user's";
  let description = [{
    Starting from the user's shardings (`xla.sharding` on function arguments
    and results, `xla.mark_sharding`, `xla.sharding` already on ops),
    propagates forward and backward through every op's sharding rule
    (`--xla-annotate-sharding-rules` shows them) until nothing changes, then
    writes a sharding on every function argument and result and every op
    with tensor results.

    - User shardings never lose axes; closed dimensions (`{}`, `{"x"}`) are
      never extended, open ones (`{"x", ?}`) may gain minor axes.
    - Priorities (`{"x"}p0`) propagate first, strongest first.
    - Conflicts (two tensors of an op wanting different axes for the same
      factor, or one axis wanted by two factors) go to the stronger
      priority, then to the choice the partitioner would pay least for: the
      estimated bytes moved, a DCN byte costing `dcn-cost` and an ICI byte
      `ici-cost`.
    - A sharded reduction (contracting dimensions, reduced dimensions, the
      rows of an embedding table) leaves the result `partial`.
    - A function no sharding reaches is replicated over the module's first
      mesh.

    docs/propagation.md describes the algorithm; `--xla-explain-sharding`
    prints why each value got its sharding.
  }];
  let options = !listconcat(costOptions, [
    Option<"explain", "explain", "bool", "false",
           "Also print what --xla-explain-sharding prints">,
    // Debian's LLVM is built without statistics (mlir-pass-statistics
    // prints nothing), hence an option.
    Option<"printStats", "stats", "bool", "false",
           "Print the work done: ops followed, op visits, decisions">,
  ]);
}

def XlaExplainShardingPass
    : XlaPropagationPassBase<"xla-explain-sharding"> {
  let summary = "Propagates shardings and prints where each one came from";
  let description = [{
    Runs `--xla-propagate-sharding` and prints to standard output, per
    function and per value, the sharding chosen and, for each sharded
    dimension, the user annotation it descends from and the op that brought
    it; then each conflict met, its alternatives with their priority and
    estimated cost, and the one chosen.

    For a Megatron MLP whose weights are annotated, the hidden activation
    reads (shardings abbreviated):

    ```
    %0 = xla.matmul at mlp.mlir:6:8: #xla.sharding<...>
      dim 1 {"model"}: from argument 1 through xla.matmul at mlp.mlir:6:8 (operand 1)
    conflict at xla.matmul at mlp.mlir:9:8: axis "fsdp" wanted by factors i k
      on factor i from operand 0: cost 7168  <- chosen
      on factor k from operand 1: cost 14336
    ```
  }];
  let options = costOptions;
}

//===----------------------------------------------------------------------===//
// HloSharding interop
//===----------------------------------------------------------------------===//

def XlaExportHloShardingPass
    : Pass<"xla-export-hlo-sharding", "::mlir::ModuleOp"> {
  let summary = "Adds XLA's HloSharding text beside each function sharding";
  let description = [{
    For every function argument and result with an `xla.sharding`, sets
    `mhlo.sharding` to the text XLA prints for the HloSharding PyTorch/XLA
    builds from the same mesh and partition spec:

    ```mlir
    // mesh <["data"=2, "model"=4]>, dimension 0 on "data", dimension 1 not
    {mhlo.sharding = "{devices=[2,1,4]0,1,2,3,4,5,6,7 last_tile_dim_replicate}"}
    // with iota=true
    {mhlo.sharding = "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"}
    ```

    `{replicated}` when nothing is sharded, `{maximal device=N}` on a
    single-device mesh. Meshes with an explicit device order that is not an
    iota transposition always use the explicit form. A partial sharding
    has no HloSharding form: it is skipped with a warning.
  }];
  let options = [
    Option<"iota", "iota", "bool", "false",
           "Print tile assignments in the iota form <=[dims]T(perm)">,
  ];
}

def XlaImportHloShardingPass
    : Pass<"xla-import-hlo-sharding", "::mlir::ModuleOp"> {
  let summary = "Turns mhlo.sharding strings into xla.sharding partition specs";
  let description = [{
    For every function argument and result, and every single-result op, with
    an `mhlo.sharding` string (explicit or iota form), sets `xla.sharding` to
    the partition spec over the mesh (the module's first, or `mesh=`) whose
    tile assignment it is; `mhlo.sharding` is kept. Fails with a located
    error when the text is malformed or no partition spec over the mesh has
    that tile assignment (e.g. a device order the mesh cannot produce).
  }];
  let options = [
    Option<"meshName", "mesh", "std::string", "\"\"",
           "Mesh to express the shardings over (default: the first)">,
  ];
}

def XlaReportCollectivesPass
    : Pass<"xla-report-collectives", "::mlir::ModuleOp"> {
  let summary = "Prints every collective with its participants, link class "
                "and bytes";
  let description = [{
    For each function, prints one line per collective (in program order):
    its kind, participants (mesh axes or group count x size), link class,
    the local bytes it consumes and the bytes each device sends with the
    ring algorithms the simulator models (all-gather (g-1)B, reduce-scatter
    and all-to-all (g-1)/g B, all-reduce 2(g-1)/g B, collective-permute B,
    all-slice 0, B the input block); then totals per link class. Tests and
    docs/recipes.md use it to state exactly what a partitioned program
    communicates. The module is left unchanged.

    ```
    @mlp.spmd: 1 collective, sends 32768 B per device (ici 32768 B, dcn 0 B)
      all_reduce sum mesh_axes ["model"] (group 4) ici in 16384 B sends 24576 B
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Partitioning
//===----------------------------------------------------------------------===//

def XlaPartitionPass : Pass<"xla-partition", "::mlir::ModuleOp"> {
  let summary = "Rewrites sharded programs into SPMD programs on local shapes";
  let description = [{
    For every function whose values carry shardings (run
    --xla-propagate-sharding first; values without one are treated as
    replicated), rewrites the body into the program each device runs on its
    local blocks:

    - every op computes in the layout its sharding rule allows, starting from
      the layout propagation chose for its result; a sharded reduction or
      contracting factor makes the local result a pending sum (`partial`);
    - operands are resharded to what the op needs by the cheapest sequence of
      all-gather, all-slice, all-to-all, collective-permute, reduce-scatter
      and all-reduce (bytes per device weighted by ICI/DCN link cost);
    - dimensions that do not divide are padded at the end; reductions mask
      the padding with their identity;
    - a split dimension that a windowed op (slice with offsets, pad,
      convolution, reduce_window), a concatenate or a reverse reads across
      shard boundaries either exchanges the edges with the neighbouring
      devices (collective_permute, a halo) or is gathered, whichever costs
      less; `halo=always` or `halo=never` forces the choice;
    - function arguments and results take local types and keep their
      `xla.sharding`; `xla.global_type` records each global type and
      `xla.partitioned` marks the function.
  }];
  let options = [
    Option<"iciByteCost", "ici-byte-cost", "double", "1.0",
           "Relative cost of a byte sent over ICI">,
    Option<"dcnByteCost", "dcn-byte-cost", "double", "16.0",
           "Relative cost of a byte sent over DCN">,
    Option<"reportBytes", "report-bytes", "bool", "false",
           "Print per function the bytes per device the emitted collectives "
           "send, by the op they reshard for (the key "
           "--xla-explain-sharding's planned bytes use)">,
    Option<"halo", "halo", "::xspmd::partition::HaloMode",
           "::xspmd::partition::HaloMode::automatic",
           "Split dimensions of windowed ops, concatenate and reverse: "
           "exchange halos with the neighbours or gather, by cost (auto), "
           "halos whenever the window fits (always), or gather (never)",
           [{::llvm::cl::values(
             clEnumValN(::xspmd::partition::HaloMode::automatic, "auto",
                        "by cost"),
             clEnumValN(::xspmd::partition::HaloMode::always, "always",
                        "halo exchange whenever the window fits"),
             clEnumValN(::xspmd::partition::HaloMode::never, "never",
                        "gather the dimension"))}]>,
  ];
  let statistics = [
    Statistic<"numReshards", "reshards", "Operands resharded">,
    Statistic<"numCollectives", "collectives", "Collectives emitted">,
  ];
}

//===----------------------------------------------------------------------===//
// Collective optimization
//===----------------------------------------------------------------------===//

def XlaOptimizeCollectivesPass
    : Pass<"xla-optimize-collectives", "::mlir::ModuleOp"> {
  let summary = "Combines, simplifies and decomposes collectives";
  let description = [{
    Rewrites the collectives of SPMD programs (those --xla-partition emits
    and hand-written ones) into cheaper equivalent ones. Each rewrite has a
    name, a statistic, and can be turned off with `disable=name,...`;
    docs/optimize.md gives each one's correctness argument and bytes saved.

    - `reduce-scatter`: an all_reduce used only by alike all_slices over the
      same participants becomes a reduce_scatter; over a subset S of its
      axes A, a reduce_scatter over S then an all_reduce over A \ S.
    - `slice-before-reduce`: all_slice axes disjoint from the all_reduce's:
      slice first, reduce the smaller block.
    - `gather-gather`, `slice-slice`, `reduce-reduce`: chains on one dim
      (over disjoint mesh axes) become one collective over the
      concatenated axes (gathers: the later gather's axes major).
    - `all-reduce-combiner`: independent all_reduces of a block with the
      same kind, scale, participants and element type become one all_reduce
      of their flattened concatenation (at most `combine-threshold-bytes`).
    - `gather-slice`: all_slice of an all_gather over the same participants
      is the gather's input; over a prefix of its axes, a smaller gather.
    - `gather-slice-to-all-to-all`: the same pair on different dims is an
      all_to_all.
    - `slice-gather`: all_gather over a suffix S of an all_slice's axes, of a
      value replicated over S, undoes the slice.
    - `identity-permute`, `trivial-group`, `dead-collective`,
      `duplicate-collective`: permutes of every device to itself, groups of
      one device, unused collectives, repeated identical collectives.
    - `hierarchical-all-reduce`, `hierarchical-reduce-scatter`,
      `hierarchical-all-gather`: on a hybrid mesh, a collective whose groups
      span d > 1 slices with i > 1 members each runs over ICI and DCN in
      stages so that DCN carries 1/i of the data; stages are tagged
      `link = ici` / `link = dcn`.

    ```mlir
    %r = xla.all_reduce sum %x mesh_axes = @mesh["model"] : tensor<8x32xf32>
    %s = xla.all_slice %r, dim = 0 mesh_axes = @mesh["model"] : (tensor<8x32xf32>) -> tensor<2x32xf32>
    // becomes
    %s = xla.reduce_scatter sum %x, dim = 0 mesh_axes = @mesh["model"] : (tensor<8x32xf32>) -> tensor<2x32xf32>
    ```
  }];
  let options = [
    ListOption<"disabled", "disable", "std::string",
               "Rewrites not to apply (comma-separated names)">,
    Option<"combineThresholdBytes", "combine-threshold-bytes", "int64_t",
           "31457280",
           "Largest all_reduce the all-reduce combiner builds, in bytes">,
    Option<"printCounts", "print-counts", "bool", "false",
           "Print how many times each rewrite fired to stderr (the "
           "statistics below are compiled out of release builds of LLVM)">,
  ];
  let statistics = [
    Statistic<"numReduceScatter", "reduce-scatter",
              "all_reduce + all_slice turned into reduce_scatter">,
    Statistic<"numSliceBeforeReduce", "slice-before-reduce",
              "all_slices moved before an all_reduce">,
    Statistic<"numGatherGather", "gather-gather", "all_gather pairs combined">,
    Statistic<"numSliceSlice", "slice-slice", "all_slice pairs combined">,
    Statistic<"numReduceReduce", "reduce-reduce", "all_reduce pairs combined">,
    Statistic<"numGatherSlice", "gather-slice",
              "all_gather + all_slice pairs removed or shrunk">,
    Statistic<"numGatherSliceToAllToAll", "gather-slice-to-all-to-all",
              "all_gather + all_slice pairs turned into all_to_all">,
    Statistic<"numSliceGather", "slice-gather",
              "all_slice + all_gather pairs removed or shrunk">,
    Statistic<"numIdentityPermute", "identity-permute",
              "identity collective_permutes removed">,
    Statistic<"numTrivialGroup", "trivial-group",
              "collectives over one-device groups removed">,
    Statistic<"numDeadCollective", "dead-collective",
              "unused collectives erased">,
    Statistic<"numDuplicateCollective", "duplicate-collective",
              "duplicate collectives replaced">,
    Statistic<"numAllReduceCombined", "all-reduce-combiner",
              "independent all_reduces merged into combined ones">,
    Statistic<"numHierarchicalAllReduce", "hierarchical-all-reduce",
              "all_reduces decomposed into ICI and DCN stages">,
    Statistic<"numHierarchicalReduceScatter", "hierarchical-reduce-scatter",
              "reduce_scatters decomposed into ICI and DCN stages">,
    Statistic<"numHierarchicalAllGather", "hierarchical-all-gather",
              "all_gathers decomposed into DCN and ICI stages">,
  ];
}

//===----------------------------------------------------------------------===//
// Lowering to per-device programs
//===----------------------------------------------------------------------===//

def XlaLowerToDevicePass : Pass<"xla-lower-to-device", "::mlir::ModuleOp"> {
  let summary = "Materializes per-device programs; identical ones share a body";
  let description = [{
    Lowers every SPMD function (partitioned by --xla-partition, or using
    collectives or device ids) to the programs the devices run, with
    everything that depends on the device resolved to concrete ids:

    - `axis_index`, `partition_id` and the scalar offset and predicate
      arithmetic on them become `xla.device_table`s (device i reads entry i)
      or constants; `all_slice` becomes a `dynamic_slice` at a table offset;
    - every collective lists its replica `groups` as device ids;
      `collective_permute` pairs become absolute device ids;
    - every collective carries the `link` each device uses in it: `ici`
      when its group lies in one slice of the module's hybrid meshes, `dcn`
      when each member is in a different slice, `mixed` otherwise (a plain
      mesh is one slice);
    - devices whose programs are identical (they differ at most in link
      tags, since tables are data) share one body: a private function
      `@<f>.body<k>` with the function's type and attributes and
      `xla.devices = array<i64: ...>`. The function keeps its signature and
      attributes and its body becomes one `xla.dispatch`.

    ```mlir
    func.func @f(%x: tensor<4x8xf32> {...}) -> ... attributes {xla.partitioned} {
      %0 = xla.dispatch [@f.body0](%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
      return %0 : tensor<4x8xf32>
    }
    func.func private @f.body0(%x: tensor<4x8xf32> {...}) -> ...
        attributes {xla.devices = array<i64: 0, 1, 2, 3, 4, 5, 6, 7>, xla.partitioned} {
      %r = xla.all_reduce sum %x groups = [[0, 1], [2, 3], [4, 5], [6, 7]] link = ici : tensor<4x8xf32>
      ...
    ```

    A module over 4096 devices lowers to a handful of bodies: device
    tables keep the bodies equal, and only collectives whose groups use
    different links on different devices split them. docs/lowering.md
    describes the form and the simulator runs it.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
  let statistics = [
    Statistic<"numBodies", "bodies", "Per-device bodies built">,
    Statistic<"numTables", "device-tables", "Device tables in the bodies' source">,
    Statistic<"numFolded", "folded", "Scalar ops evaluated for every device">,
    Statistic<"numCollectives", "collectives", "Collectives resolved to devices">,
  ];
}

#endif // XSPMD_PASSES_PASSES_TD
