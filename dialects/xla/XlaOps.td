//===- XlaOps.td - ops of the xla dialect ------------------*- tablegen -*-===//

#ifndef XSPMD_DIALECTS_XLA_XLAOPS_TD
#define XSPMD_DIALECTS_XLA_XLAOPS_TD

include "dialects/xla/XlaAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

def Xla_FloatElement : AnyTypeOf<[F32, BF16, F16, F64]>;
def Xla_IntElement : AnyTypeOf<[I1, I8, I32, I64]>;
def Xla_Tensor : StaticShapeTensorOf<[F32, BF16, F16, F64, I1, I8, I32, I64]>;
def Xla_FloatTensor : StaticShapeTensorOf<[F32, BF16, F16, F64]>;
def Xla_IntTensor : StaticShapeTensorOf<[I1, I8, I32, I64]>;
def Xla_NumericTensor : StaticShapeTensorOf<[F32, BF16, F16, F64, I8, I32, I64]>;
def Xla_PredTensor : StaticShapeTensorOf<[I1]>;
def Xla_IndexTensor : StaticShapeTensorOf<[I32, I64]>;
def Xla_ScalarI32 : 0DTensorOf<[I32]>;
def Xla_IndexScalar : 0DTensorOf<[I32, I64]>;

class Xla_Op<string mnemonic, list<Trait> traits = []>
    : Op<Xla_Dialect, mnemonic, traits>;

// The op's regions are scalar computations applied per element (HLO's
// to_apply and comparator computations): dialects/xla/XlaTraits.h.
def Xla_ScalarBodies : NativeOpTrait<"ScalarBodies"> {
  let cppNamespace = "::xspmd::xla";
}

//===----------------------------------------------------------------------===//
// Meshes and sharding annotations
//===----------------------------------------------------------------------===//

def Xla_MeshOp : Xla_Op<"mesh", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "Declares a named device mesh";
  let description = [{
    ```mlir
    xla.mesh @mesh = <["data"=4, "model"=2]>
    xla.mesh @perm = <["x"=4, "y"=2], devices=[0, 2, 4, 6, 1, 3, 5, 7]>
    xla.mesh @hybrid = hybrid<ici=["data"=1, "fsdp"=4], dcn=["data"=2, "fsdp"=1]>
    ```
    All meshes of a module span the same number of devices.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Xla_MeshAttr:$mesh);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Xla_MarkShardingOp : Xla_Op<"mark_sharding",
    [Pure, SameOperandsAndResultType]> {
  let summary = "Constrains the sharding of a value (torch_xla mark_sharding)";
  let description = [{
    The result is the operand, with the given sharding. Propagation never
    changes it; the partitioner reshards to it.

    ```mlir
    %1 = xla.mark_sharding %0 <@mesh, [{"data"}, {} ]> : tensor<8x32xf32>
    ```
  }];
  let arguments = (ins Xla_Tensor:$input, Xla_ShardingAttr:$sharding);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Trace annotations
//===----------------------------------------------------------------------===//

def Xla_TraceOp : Xla_Op<"trace",
    [RecursiveMemoryEffects, SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "Names a region of the program in traces (torch_xla xp.Trace)";
  let description = [{
    The equivalent of torch_xla's `with xp.Trace("name"):` (and of
    `xp.StepTrace` around a step): the ops of the body run as if written in
    place, and the simulator's trace shows a slice `name` on each device's
    annotation line spanning them. Traces nest. The body's `xla.yield` gives
    the results; the body may use any value defined above it.

    ```mlir
    %h = xla.trace "mlp" {
      %0 = xla.matmul %x, %w : (tensor<8x16xf32>, tensor<16x32xf32>) -> tensor<8x32xf32>
      %1 = xla.gelu %0 : tensor<8x32xf32>
      xla.yield %1 : tensor<8x32xf32>
    } : tensor<8x32xf32>
    ```

    Sharding propagation and partitioning see through it: the SPMD pipeline
    first inlines every trace (`--xla-inline-trace`), recording its name in
    the location of each op of its body (`loc("xla.trace:mlp"(...))`), so
    the name follows the ops, and the collectives the partitioner creates
    for them, into the partitioned program, as XLA's op metadata carries
    torch_xla's annotations into HLO.

    With `kernel`, the body is one hand-written kernel (a Pallas kernel such
    as flash attention, a custom call): the values made and used only inside
    it stay in VMEM, so the simulator charges HBM traffic for the values the
    body reads from outside (once each) and for its results only, and each
    op of the body its compute time (docs/simulator.md 3). A kernel holds no
    collectives, control flow or other kernels. The numerics are those of
    the body. The SPMD pipeline inlines a kernel like any trace (the
    partitioner may put collectives between its ops): the claim holds for
    programs that are already per-device.

    ```mlir
    %o = xla.trace "flash_attention" kernel {
      %s = xla.einsum "bqhd,bkhd->bhqk" %q, %k : (...) -> tensor<1x2x64x64xbf16>
      %p = xla.softmax %s, dim = 3 : tensor<1x2x64x64xbf16>
      %c = xla.einsum "bhqk,bkhd->bqhd" %p, %v : (...) -> tensor<1x64x2x16xbf16>
      xla.yield %c : tensor<1x64x2x16xbf16>
    } : tensor<1x64x2x16xbf16>
    ```
  }];
  let arguments = (ins StrAttr:$name, UnitAttr:$kernel);
  let results = (outs Variadic<Xla_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name (`kernel` $kernel^)? attr-dict-with-keyword $body (`:` type($results)^)?
  }];
  let hasVerifier = 1;
}

def Xla_YieldOp : Xla_Op<"yield", [Pure, Terminator]> {
  let summary = "Ends a region of an xla op, giving its values";
  let description = [{
    Ends the body of `xla.trace`, the regions of `xla.while` and the
    branches of `xla.case`, and the scalar computations of ops with scalar
    bodies (a reduction's combiner, a sort's comparator), where it yields
    rank-0 tensors.
  }];
  let arguments = (ins Variadic<Xla_Tensor>:$values);
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

def Xla_ConstantOp : Xla_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "A constant tensor";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Xla_IotaOp : Xla_Op<"iota", [Pure]> {
  let summary = "Indices along one dimension";
  let description = [{
    `result[i0, ..., in] = i_dim`, converted to the element type.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs Xla_NumericTensor:$result);
  let assemblyFormat = "`dim` `=` $dim attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Xla_RngOp : Xla_Op<"rng", [Pure]> {
  let summary = "Seeded random numbers";
  let description = [{
    Counter-based random numbers: element `i` (row-major index in the global
    tensor) is a pure function of `seed` and `i`, so a sharded tensor holds
    exactly the slices of the unsharded one. `uniform` draws from [a, b),
    `normal` from N(mean=a, stddev=b).

    A partitioned program passes the global shape and the offset of the
    local block: `xla.rng normal seed = 3, a = 0.0, b = 1.0 in [8, 4] at %off`.
  }];
  let arguments = (ins Xla_RngDistribution:$distribution, I64Attr:$seed,
                       DefaultValuedAttr<F64Attr, "0.0">:$a,
                       DefaultValuedAttr<F64Attr, "1.0">:$b,
                       OptionalAttr<DenseI64ArrayAttr>:$global_shape,
                       Optional<StaticShapeTensorOf<[I32, I64]>>:$offsets);
  let results = (outs Xla_FloatTensor:$result);
  let assemblyFormat = [{
    $distribution `seed` `=` $seed `,` `a` `=` $a `,` `b` `=` $b
    (`in` $global_shape^)? (`at` $offsets^ `:` type($offsets))?
    attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def Xla_PartitionIdOp : Xla_Op<"partition_id", [Pure]> {
  let summary = "The id of the device running the program";
  let results = (outs Xla_ScalarI32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Xla_AxisIndexOp : Xla_Op<"axis_index",
    [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "The running device's coordinate along a mesh axis";
  let arguments = (ins FlatSymbolRefAttr:$mesh, StrAttr:$axis);
  let results = (outs Xla_ScalarI32:$result);
  let assemblyFormat = "$mesh `[` $axis `]` attr-dict `:` type($result)";
}

def Xla_DeviceTableOp : Xla_Op<"device_table", [Pure]> {
  let summary = "A per-device value: entry i is device i's";
  let description = [{
    The value of a device-dependent scalar, resolved for every device: the
    running device with id `i` gets `values[i]`. `--xla-lower-to-device`
    turns `axis_index`, `partition_id` and the offset arithmetic on them
    into tables, so that every device runs the same code and differs only
    in the data it reads.

    ```mlir
    // axis_index @mesh["data"] on <["data"=2, "model"=2]>
    %0 = xla.device_table [0, 0, 1, 1] : tensor<i32>
    ```

    There is one entry per device of the module (its meshes' device
    count); each entry fits the result's element type.
  }];
  let arguments = (ins DenseI64ArrayAttr:$values);
  let results = (outs 0DTensorOf<[I1, I8, I32, I64]>:$result);
  let assemblyFormat = "$values attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Xla_DispatchOp : Xla_Op<"dispatch",
    [DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "Runs, on each device, the per-device body that lists it";
  let description = [{
    The entry of a program lowered to per-device programs
    (`--xla-lower-to-device`): each body is a `func.func` whose
    `xla.devices` lists the devices that run it. Every device of the module
    is listed by exactly one body, and every body has the type
    `(inputs) -> results`. Devices with identical programs share a body.

    ```mlir
    func.func @main(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
      %0 = xla.dispatch [@main.body0, @main.body1](%x)
          : (tensor<2x8xf32>) -> tensor<2x8xf32>
      return %0 : tensor<2x8xf32>
    }
    func.func private @main.body0(%x: tensor<2x8xf32>) -> tensor<2x8xf32>
        attributes {xla.devices = array<i64: 0, 3>} { ... }
    func.func private @main.body1(%x: tensor<2x8xf32>) -> tensor<2x8xf32>
        attributes {xla.devices = array<i64: 1, 2>} { ... }
    ```

    The simulator runs an entry function whose body is one dispatch of its
    arguments, returned as is.
  }];
  let arguments = (ins ConfinedAttr<FlatSymbolRefArrayAttr, [ArrayMinCount<1>]>:$bodies,
                       Variadic<Xla_Tensor>:$inputs);
  let results = (outs Variadic<Xla_Tensor>:$results);
  let assemblyFormat = [{
    $bodies `(` $inputs `)` attr-dict `:` functional-type($inputs, results)
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

class Xla_BinaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : Xla_Op<mnemonic, !listconcat(traits,
          [Pure, SameOperandsAndResultType, Elementwise])> {
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Xla_AddOp : Xla_BinaryOp<"add", Xla_NumericTensor, [Commutative]> {
  let summary = "Elementwise addition";
}
def Xla_SubOp : Xla_BinaryOp<"sub", Xla_NumericTensor> {
  let summary = "Elementwise subtraction";
}
def Xla_MulOp : Xla_BinaryOp<"mul", Xla_NumericTensor, [Commutative]> {
  let summary = "Elementwise multiplication";
}
def Xla_DivOp : Xla_BinaryOp<"div", Xla_NumericTensor> {
  let summary = "Elementwise division (integers round toward zero)";
}
def Xla_MaxOp : Xla_BinaryOp<"max", Xla_NumericTensor, [Commutative]> {
  let summary = "Elementwise maximum (NaN wins)";
}
def Xla_MinOp : Xla_BinaryOp<"min", Xla_NumericTensor, [Commutative]> {
  let summary = "Elementwise minimum (NaN wins)";
}
def Xla_PowOp : Xla_BinaryOp<"pow", Xla_FloatTensor> {
  let summary = "Elementwise power";
}
def Xla_AndOp : Xla_BinaryOp<"and", Xla_IntTensor, [Commutative]> {
  let summary = "Elementwise bitwise/logical and";
}
def Xla_OrOp : Xla_BinaryOp<"or", Xla_IntTensor, [Commutative]> {
  let summary = "Elementwise bitwise/logical or";
}
def Xla_XorOp : Xla_BinaryOp<"xor", Xla_IntTensor, [Commutative]> {
  let summary = "Elementwise bitwise/logical xor";
}

class Xla_UnaryOp<string mnemonic, Type type, list<Trait> traits = []>
    : Xla_Op<mnemonic, !listconcat(traits,
          [Pure, SameOperandsAndResultType, Elementwise])> {
  let arguments = (ins type:$input);
  let results = (outs type:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
}

def Xla_NegOp : Xla_UnaryOp<"neg", Xla_NumericTensor> {
  let summary = "Elementwise negation";
}
def Xla_AbsOp : Xla_UnaryOp<"abs", Xla_NumericTensor> {
  let summary = "Elementwise absolute value";
}
def Xla_ExpOp : Xla_UnaryOp<"exp", Xla_FloatTensor> {
  let summary = "Elementwise e^x";
}
def Xla_LogOp : Xla_UnaryOp<"log", Xla_FloatTensor> {
  let summary = "Elementwise natural logarithm";
}
def Xla_TanhOp : Xla_UnaryOp<"tanh", Xla_FloatTensor> {
  let summary = "Elementwise hyperbolic tangent";
}
def Xla_SqrtOp : Xla_UnaryOp<"sqrt", Xla_FloatTensor> {
  let summary = "Elementwise square root";
}
def Xla_RsqrtOp : Xla_UnaryOp<"rsqrt", Xla_FloatTensor> {
  let summary = "Elementwise reciprocal square root";
}
def Xla_SigmoidOp : Xla_UnaryOp<"sigmoid", Xla_FloatTensor> {
  let summary = "Elementwise logistic function";
}
def Xla_ReluOp : Xla_UnaryOp<"relu", Xla_NumericTensor> {
  let summary = "Elementwise max(x, 0)";
}
def Xla_GeluOp : Xla_UnaryOp<"gelu", Xla_FloatTensor> {
  let summary = "Elementwise GELU, tanh approximation (as torch's gelu(approximate='tanh'))";
}
def Xla_NotOp : Xla_UnaryOp<"not", Xla_IntTensor> {
  let summary = "Elementwise bitwise/logical not";
}

def Xla_CompareOp : Xla_Op<"compare",
    [Pure, Elementwise, SameTypeOperands, SameOperandsAndResultShape,
     InferTypeOpAdaptor]> {
  let summary = "Elementwise comparison, giving i1";
  let arguments = (ins Xla_CompareDirection:$direction,
                       Xla_Tensor:$lhs, Xla_Tensor:$rhs);
  let results = (outs Xla_PredTensor:$result);
  let assemblyFormat = "$direction `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
}

def Xla_SelectOp : Xla_Op<"select",
    [Pure, Elementwise, AllTypesMatch<["on_true", "on_false", "result"]>,
     TypesMatchWith<"predicate has the operands' shape and i1 elements",
                    "on_true", "pred",
                    "::mlir::cast<::mlir::RankedTensorType>($_self).clone("
                    "::mlir::IntegerType::get($_self.getContext(), 1))">]> {
  let summary = "Elementwise pred ? on_true : on_false";
  let arguments = (ins Xla_PredTensor:$pred, Xla_Tensor:$on_true,
                       Xla_Tensor:$on_false);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:` type($on_true)
  }];
}

def Xla_ConvertOp : Xla_Op<"convert",
    [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "Elementwise element-type conversion";
  let description = [{
    Float to float rounds to nearest even; float to integer truncates toward
    zero and saturates (NaN gives 0); integer to i1 is `x != 0`; i1 to any
    type is 0 or 1.
  }];
  let arguments = (ins Xla_Tensor:$input);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shape and data movement
//===----------------------------------------------------------------------===//

def Xla_BroadcastInDimOp : Xla_Op<"broadcast_in_dim", [Pure]> {
  let summary = "Broadcasts a tensor into a larger shape";
  let description = [{
    Operand dimension i becomes result dimension `dims[i]` (strictly
    increasing); its size must be 1 or equal the result's.
  }];
  let arguments = (ins Xla_Tensor:$input, DenseI64ArrayAttr:$dims);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `,` `dims` `=` $dims attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Xla_ReshapeOp : Xla_Op<"reshape", [Pure]> {
  let summary = "Row-major reshape";
  let arguments = (ins Xla_Tensor:$input);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Xla_TransposeOp : Xla_Op<"transpose", [Pure, InferTypeOpAdaptor]> {
  let summary = "Permutes dimensions: result dim i is operand dim perm[i]";
  let arguments = (ins Xla_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `,` `permutation` `=` $permutation attr-dict `:`
    functional-type(operands, results)
  }];
}

def Xla_SliceOp : Xla_Op<"slice", [Pure, InferTypeOpAdaptor]> {
  let summary = "Static strided slice";
  let arguments = (ins Xla_Tensor:$input, DenseI64ArrayAttr:$start,
                       DenseI64ArrayAttr:$limit, DenseI64ArrayAttr:$strides);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `,` `start` `=` $start `,` `limit` `=` $limit `,` `strides` `=`
    $strides attr-dict `:` functional-type(operands, results)
  }];
}

def Xla_DynamicSliceOp : Xla_Op<"dynamic_slice", [Pure]> {
  let summary = "Slice at run-time offsets (clamped into range)";
  let description = [{
    Offsets are scalar integers, one per dimension; each is clamped to
    [0, dim - size], as in XLA.
  }];
  let arguments = (ins Xla_Tensor:$input, Variadic<Xla_IndexScalar>:$offsets,
                       DenseI64ArrayAttr:$sizes);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `[` $offsets `]` `,` `sizes` `=` $sizes attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Xla_DynamicUpdateSliceOp : Xla_Op<"dynamic_update_slice",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "Overwrites a block at run-time offsets (clamped into range)";
  let arguments = (ins Xla_Tensor:$input, Xla_Tensor:$update,
                       Variadic<Xla_IndexScalar>:$offsets);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $update `[` $offsets `]` attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Xla_ConcatenateOp : Xla_Op<"concatenate", [Pure, InferTypeOpAdaptor]> {
  let summary = "Concatenates tensors along one dimension";
  let arguments = (ins Variadic<Xla_Tensor>:$inputs,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs Xla_Tensor:$result);
  // `%a, %b, dim = 0`: a custom directive, since a declarative `$inputs `,``
  // would read the comma as the start of another operand.
  let assemblyFormat = [{
    custom<ConcatInputs>($inputs, $dim) attr-dict `:`
    functional-type(operands, results)
  }];
}

def Xla_PadOp : Xla_Op<"pad", [Pure, InferTypeOpAdaptor]> {
  let summary = "Pads with a constant: edge (low/high, may be negative) and interior";
  let arguments = (ins Xla_Tensor:$input, DenseI64ArrayAttr:$low,
                       DenseI64ArrayAttr:$high, DenseI64ArrayAttr:$interior,
                       DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $input `,` `low` `=` $low `,` `high` `=` $high `,` `interior` `=` $interior
    `,` `value` `=` $value attr-dict `:` functional-type(operands, results)
  }];
}

def Xla_GatherOp : Xla_Op<"gather", [Pure, InferTypeOpAdaptor]> {
  let summary = "Gathers rows of a table (an embedding lookup)";
  let description = [{
    `result[i..., j...] = table[clamp(indices[i...]), j...]`: the result shape
    is the indices' shape followed by the table's shape without dimension 0.
    Out-of-range indices are clamped, as XLA does.
  }];
  let arguments = (ins Xla_Tensor:$table, Xla_IndexTensor:$indices);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $table `,` $indices attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Contractions, reductions, convolution
//===----------------------------------------------------------------------===//

def Xla_DotGeneralOp : Xla_Op<"dot_general",
    [Pure, InferTypeOpAdaptor, SameOperandsElementType]> {
  let summary = "General tensor contraction (XLA DotGeneral)";
  let description = [{
    Result dimensions are the batch dimensions (in order), then the lhs free
    dimensions, then the rhs free dimensions.

    ```mlir
    %r = xla.dot_general %a, %b, batch = [0] x [0], contract = [2] x [1]
        : (tensor<4x8x16xf32>, tensor<4x16x32xf32>) -> tensor<4x8x32xf32>
    ```
  }];
  let arguments = (ins Xla_NumericTensor:$lhs, Xla_NumericTensor:$rhs,
                       DenseI64ArrayAttr:$lhs_batch, DenseI64ArrayAttr:$rhs_batch,
                       DenseI64ArrayAttr:$lhs_contract,
                       DenseI64ArrayAttr:$rhs_contract);
  let results = (outs Xla_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `batch` `=` $lhs_batch `x` $rhs_batch `,` `contract` `=`
    $lhs_contract `x` $rhs_contract attr-dict `:`
    functional-type(operands, results)
  }];
}

def Xla_MatmulOp : Xla_Op<"matmul",
    [Pure, InferTypeOpAdaptor, SameOperandsElementType]> {
  let summary = "torch.matmul for rank >= 2: [..., m, k] x [..., k, n] or [k, n]";
  let description = [{
    Both operands have rank >= 2. Either the rhs is a matrix `[k, n]` (a
    linear layer applied to every leading index of the lhs) or both have the
    same leading (batch) dimensions.
  }];
  let arguments = (ins Xla_NumericTensor:$lhs, Xla_NumericTensor:$rhs);
  let results = (outs Xla_NumericTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def Xla_EinsumOp : Xla_Op<"einsum",
    [Pure, InferTypeOpAdaptor, SameOperandsElementType]> {
  let summary = "Two-operand einsum (torch.einsum)";
  let description = [{
    `"bsd,df->bsf"`: one letter per dimension; a letter shared by both
    operands has one size; letters missing from the output are summed over.
    No repeated letter within one operand, no ellipsis.
  }];
  let arguments = (ins StrAttr:$equation, Xla_NumericTensor:$lhs,
                       Xla_NumericTensor:$rhs);
  let results = (outs Xla_NumericTensor:$result);
  let assemblyFormat = [{
    $equation $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
}

def Xla_ReduceOp : Xla_Op<"reduce", [Pure, InferTypeOpAdaptor]> {
  let summary = "Reduces over dimensions (sum, prod, max, min, mean, and, or)";
  let description = [{
    The reduced dimensions are removed. `mean` divides the sum by the number
    of reduced elements (floats only); `and`/`or` take integer tensors.
  }];
  let arguments = (ins Xla_ReduceKind:$kind, Xla_Tensor:$input,
                       DenseI64ArrayAttr:$dims);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `,` `dims` `=` $dims attr-dict `:`
    functional-type(operands, results)
  }];
}

def Xla_SoftmaxOp : Xla_Op<"softmax", [Pure, SameOperandsAndResultType]> {
  let summary = "Softmax along one dimension (max-subtracted)";
  let arguments = (ins Xla_FloatTensor:$input,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$dim);
  let results = (outs Xla_FloatTensor:$result);
  let assemblyFormat = "$input `,` `dim` `=` $dim attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Xla_ConvolutionOp : Xla_Op<"convolution",
    [Pure, InferTypeOpAdaptor, SameOperandsElementType]> {
  let summary = "N-d convolution, NHWC input, HWIO kernel, NHWC output";
  let description = [{
    Input `[N, S1..Sd, C]`, kernel `[K1..Kd, C/groups, O]`, result
    `[N, S'1..S'd, O]` with `S' = floor((dilate(S) + lo + hi - dilate(K)) /
    stride) + 1` where `dilate(S) = (S-1)*lhs_dilation+1` and
    `dilate(K) = (K-1)*rhs_dilation+1`. `padding` is `[[lo, hi], ...]` per
    spatial dimension. `feature_groups` > 1 is a grouped (depthwise when equal
    to C) convolution.
  }];
  let arguments = (ins Xla_NumericTensor:$input, Xla_NumericTensor:$kernel,
                       DenseI64ArrayAttr:$strides, DenseI64ArrayAttr:$padding,
                       DenseI64ArrayAttr:$lhs_dilation,
                       DenseI64ArrayAttr:$rhs_dilation,
                       DefaultValuedAttr<I64Attr, "1">:$feature_groups);
  let results = (outs Xla_NumericTensor:$result);
  let assemblyFormat = [{
    $input `,` $kernel `,` `strides` `=` $strides `,` `padding` `=`
    custom<Padding>($padding) `,` `lhs_dilation` `=` $lhs_dilation `,`
    `rhs_dilation` `=` $rhs_dilation (`,` `feature_groups` `=` $feature_groups^)?
    attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Collectives: the interface is defined here (the interface generators only
// emit interfaces of the file they read); the ops are in XlaCollectiveOps.td.
//===----------------------------------------------------------------------===//

def Xla_CollectiveOpInterface : OpInterface<"CollectiveOpInterface"> {
  let cppNamespace = "::xspmd::xla";
  let description = [{
    A collective of the dialect. Its participants are named either by mesh
    axes (`mesh_axes = @mesh["x", "y"]`: the devices that differ only in those
    axes' coordinates, ordered by the listed axes, major to minor) or by
    explicit replica groups (`groups = [[0, 1], [2, 3]]`, device ids, as
    torch_xla's `groups`). With neither, every device is in one group, in id
    order. After lowering, `link` records the network the collective uses.
  }];
  let methods = [
    InterfaceMethod<"The mesh whose axes name the participants, if any.",
      "::mlir::FlatSymbolRefAttr", "getMeshAttr">,
    InterfaceMethod<"The mesh axes naming the participants, if any.",
      "::mlir::ArrayAttr", "getAxesAttr">,
    InterfaceMethod<"Explicit replica groups (a 2-d i64 tensor), if any.",
      "::mlir::DenseIntElementsAttr", "getGroupsAttr">,
    InterfaceMethod<"The link class, once lowered.",
      "::xspmd::xla::LinkClassAttr", "getLinkAttr">,
  ];
}

include "dialects/xla/XlaCollectiveOps.td"
include "dialects/xla/XlaMathOps.td"
include "dialects/xla/XlaControlFlowOps.td"
include "dialects/xla/XlaIndexingOps.td"
include "dialects/xla/XlaReductionOps.td"
include "dialects/xla/XlaManualOps.td"

#endif // XSPMD_DIALECTS_XLA_XLAOPS_TD
