//===- XlaManualOps.td - manually partitioned regions ------*- tablegen -*-===//
//
// Code that is already per-device inside a single-device program: torch_xla's
// enable_manual_sharding / disable_manual_sharding and JAX's shard_map, which
// XLA writes as the custom-calls SPMDFullToShardShape and
// SPMDShardToFullShape. Included by XlaOps.td; docs/manual.md explains them.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLAMANUALOPS_TD
#define XSPMD_DIALECTS_XLA_XLAMANUALOPS_TD

def Xla_FullToShardOp : Xla_Op<"full_to_shard", [Pure]> {
  let summary = "From here on, each device works on its own shard (manual)";
  let description = [{
    The result is the block of the global operand that the running device
    holds under `sharding` (torch_xla's `enable_manual_sharding`, HLO's
    SPMDFullToShardShape): its type is the local shape, padded at the end
    as the partitioner pads uneven dimensions. Ops using it work on
    per-device values until an `xla.shard_to_full` turns them back into a
    global value. `--xla-outline-manual-computations` gathers the ops
    between the two into an `xla.manual_computation`.

    ```mlir
    %l = xla.full_to_shard %x <@mesh, [{"data"}, {} ]> : tensor<8x16xf32> -> tensor<2x16xf32>
    ```
  }];
  let arguments = (ins Xla_Tensor:$input, Xla_ShardingAttr:$sharding);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input $sharding attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Xla_ShardToFullOp : Xla_Op<"shard_to_full", [Pure]> {
  let summary = "Assembles per-device shards into a global value";
  let description = [{
    The operand is each device's block of the result under `sharding`
    (torch_xla's `disable_manual_sharding`, HLO's SPMDShardToFullShape);
    devices that hold the same block (axes the sharding does not use) must
    hold the same values.

    ```mlir
    %g = xla.shard_to_full %l <@mesh, [{"data"}, {} ]> : tensor<2x16xf32> -> tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Xla_Tensor:$input, Xla_ShardingAttr:$sharding);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input $sharding attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Xla_ManualComputationOp : Xla_Op<"manual_computation",
    [IsolatedFromAbove, RecursiveMemoryEffects]> {
  let summary = "A region of per-device code (shard_map, manual sharding)";
  let description = [{
    Each operand is split by its `in_shardings` entry; the body runs on every
    device of the mesh with that device's blocks as arguments (local shapes)
    and may use collectives, `axis_index` and `partition_id`; the values it
    yields are the devices' blocks of the results under `out_shardings`.
    All axes of the mesh are manual inside the body (as HLO's `{manual}`).
    As Shardy's `sdy.manual_computation`.

    ```mlir
    // On <["data"=4]>: tanh of each block, and the column sums of the whole.
    %y, %sum = xla.manual_computation (%lx = %x : tensor<2x16xf32>)
        in_shardings = [<@mesh, [{"data"}, {} ]>]
        out_shardings = [<@mesh, [{"data"}, {} ]>, <@mesh, [{} ]>] {
      %t = xla.tanh %lx : tensor<2x16xf32>
      %s = xla.reduce sum %t, dims = [0] : (tensor<2x16xf32>) -> tensor<16xf32>
      %all = xla.all_reduce sum %s mesh_axes = @mesh["data"] : tensor<16xf32>
      xla.yield %t, %all : tensor<2x16xf32>, tensor<16xf32>
    } : (tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<16xf32>)
    ```

    Propagation treats the operands and results as annotated with their
    shardings and never looks inside; the partitioner reshards the operands
    to `in_shardings` and copies the body as it is.
  }];
  let arguments = (ins Variadic<Xla_Tensor>:$inputs,
                       TypedArrayAttrBase<Xla_ShardingAttr, "shardings">:$in_shardings,
                       TypedArrayAttrBase<Xla_ShardingAttr, "shardings">:$out_shardings);
  let results = (outs Variadic<Xla_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The `xla.yield` ending the body.
    YieldOp getBodyYield();
  }];
}

#endif // XSPMD_DIALECTS_XLA_XLAMANUALOPS_TD
