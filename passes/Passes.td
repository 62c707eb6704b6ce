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
    - function arguments and results take local types and keep their
      `xla.sharding`; `xla.global_type` records each global type and
      `xla.partitioned` marks the function.
  }];
  let options = [
    Option<"iciByteCost", "ici-byte-cost", "double", "1.0",
           "Relative cost of a byte sent over ICI">,
    Option<"dcnByteCost", "dcn-byte-cost", "double", "16.0",
           "Relative cost of a byte sent over DCN">,
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

#endif // XSPMD_PASSES_PASSES_TD
