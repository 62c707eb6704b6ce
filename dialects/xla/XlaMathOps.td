//===- XlaMathOps.td - math, bit and reversal ops of xla ---*- tablegen -*-===//
//
// The rest of HLO's elementwise vocabulary (rounding, sign, transcendental
// functions, remainder, shifts, clamp, bitcast-convert) and reverse, which
// an HLO importer maps opcode by opcode. Included by XlaOps.td; the
// semantics are XLA's (docs/dialect.md, docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLAMATHOPS_TD
#define XSPMD_DIALECTS_XLA_XLAMATHOPS_TD

/// Integers that shift: i8, i32, i64 (i1 has no bits to shift).
def Xla_ShiftableTensor : StaticShapeTensorOf<[I8, I32, I64]>;

//===----------------------------------------------------------------------===//
// Rounding and sign
//===----------------------------------------------------------------------===//

def Xla_FloorOp : Xla_UnaryOp<"floor", Xla_FloatTensor> {
  let summary = "Elementwise floor (HLO floor)";
}
def Xla_CeilOp : Xla_UnaryOp<"ceil", Xla_FloatTensor> {
  let summary = "Elementwise ceiling (HLO ceil)";
}
def Xla_RoundNearestAfzOp : Xla_UnaryOp<"round_nearest_afz", Xla_FloatTensor> {
  let summary = "Rounds to the nearest integer, halves away from zero (HLO round-nearest-afz)";
}
def Xla_RoundNearestEvenOp : Xla_UnaryOp<"round_nearest_even", Xla_FloatTensor> {
  let summary = "Rounds to the nearest integer, halves to even (HLO round-nearest-even)";
}
def Xla_SignOp : Xla_UnaryOp<"sign", Xla_NumericTensor> {
  let summary = "Elementwise sign: -1, 0 or 1 (HLO sign)";
  let description = [{
    Floats: `-1.0` for negative, `1.0` for positive, the operand itself for
    `±0` (so `-0.0` stays `-0.0`) and NaN. Integers: -1, 0 or 1.
  }];
}

//===----------------------------------------------------------------------===//
// Transcendental functions
//===----------------------------------------------------------------------===//

def Xla_ErfOp : Xla_UnaryOp<"erf", Xla_FloatTensor> {
  let summary = "Elementwise error function (HLO erf)";
}
def Xla_CosOp : Xla_UnaryOp<"cos", Xla_FloatTensor> {
  let summary = "Elementwise cosine (HLO cosine)";
}
def Xla_SinOp : Xla_UnaryOp<"sin", Xla_FloatTensor> {
  let summary = "Elementwise sine (HLO sine)";
}
def Xla_TanOp : Xla_UnaryOp<"tan", Xla_FloatTensor> {
  let summary = "Elementwise tangent (HLO tan)";
}
def Xla_Log1pOp : Xla_UnaryOp<"log1p", Xla_FloatTensor> {
  let summary = "Elementwise log(1 + x), accurate near 0 (HLO log-plus-one)";
}
def Xla_Expm1Op : Xla_UnaryOp<"expm1", Xla_FloatTensor> {
  let summary = "Elementwise e^x - 1, accurate near 0 (HLO exponential-minus-one)";
}
def Xla_CbrtOp : Xla_UnaryOp<"cbrt", Xla_FloatTensor> {
  let summary = "Elementwise real cube root (HLO cbrt)";
}
def Xla_Atan2Op : Xla_BinaryOp<"atan2", Xla_FloatTensor> {
  let summary = "Elementwise atan2(lhs, rhs), the angle of (rhs, lhs) (HLO atan2)";
}

def Xla_IsFiniteOp : Xla_Op<"is_finite",
    [Pure, Elementwise,
     TypesMatchWith<"result has the input's shape and i1 elements",
                    "input", "result",
                    "::mlir::cast<::mlir::RankedTensorType>($_self).clone("
                    "::mlir::IntegerType::get($_self.getContext(), 1))">]> {
  let summary = "Elementwise: neither infinite nor NaN, giving i1 (HLO is-finite)";
  let arguments = (ins Xla_FloatTensor:$input);
  let results = (outs Xla_PredTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

//===----------------------------------------------------------------------===//
// Remainder and shifts
//===----------------------------------------------------------------------===//

def Xla_RemOp : Xla_BinaryOp<"rem", Xla_NumericTensor> {
  let summary = "Elementwise remainder with the sign of the dividend (HLO remainder)";
  let description = [{
    Floats: C's `fmod(lhs, rhs)`. Integers: the remainder of division
    rounded toward zero; as XLA defines them, `x rem 0 = x` and
    `MIN rem -1 = 0`.
  }];
}

def Xla_ShiftLeftOp : Xla_BinaryOp<"shift_left", Xla_ShiftableTensor> {
  let summary = "Elementwise lhs << rhs (HLO shift-left)";
  let description = [{
    The shift amount is read as unsigned: an amount of at least the bit
    width (a negative one included) gives 0, as XLA defines it.
  }];
}
def Xla_ShiftRightArithmeticOp
    : Xla_BinaryOp<"shift_right_arithmetic", Xla_ShiftableTensor> {
  let summary = "Elementwise lhs >> rhs, copying the sign bit (HLO shift-right-arithmetic)";
  let description = [{
    The shift amount is read as unsigned: an amount of at least the bit
    width (a negative one included) gives -1 for a negative lhs and 0
    otherwise, as XLA defines it.
  }];
}
def Xla_ShiftRightLogicalOp
    : Xla_BinaryOp<"shift_right_logical", Xla_ShiftableTensor> {
  let summary = "Elementwise lhs >> rhs, shifting in zeros (HLO shift-right-logical)";
  let description = [{
    The bits of lhs are shifted as unsigned. The shift amount is read as
    unsigned: an amount of at least the bit width (a negative one included)
    gives 0, as XLA defines it.
  }];
}

//===----------------------------------------------------------------------===//
// Clamp and bitcast-convert
//===----------------------------------------------------------------------===//

def Xla_ClampOp : Xla_Op<"clamp",
    [Pure, SameOperandsAndResultType, Elementwise]> {
  let summary = "Elementwise min(max(operand, min), max) (HLO clamp)";
  let description = [{
    The operands are in HLO's order: lower bound, operand, upper bound, all
    of one type (an importer broadcasts scalar bounds). `max` and `min` are
    the dialect's (NaN wins), so a NaN in any operand gives NaN.

    ```mlir
    %r = xla.clamp %lo, %x, %hi : tensor<8xf32>
    ```
  }];
  let arguments = (ins Xla_NumericTensor:$min, Xla_NumericTensor:$operand,
                       Xla_NumericTensor:$max);
  let results = (outs Xla_NumericTensor:$result);
  let assemblyFormat = "$min `,` $operand `,` $max attr-dict `:` type($result)";
}

def Xla_BitcastConvertOp : Xla_Op<"bitcast_convert",
    [Pure, Elementwise, SameOperandsAndResultShape]> {
  let summary = "Reinterprets the bits of each element as another type (HLO bitcast-convert)";
  let description = [{
    Input and result have the same shape and element types of the same bit
    width: f32 and i32, f64 and i64, f16 and bf16 (the dialect has no 16-bit
    integer type), or a type and itself. XLA's form that changes the shape
    between types of different widths is not supported.

    ```mlir
    %bits = xla.bitcast_convert %x : tensor<4xf32> -> tensor<4xi32>
    ```
  }];
  let arguments = (ins Xla_Tensor:$input);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Reverse
//===----------------------------------------------------------------------===//

def Xla_ReverseOp : Xla_Op<"reverse", [Pure, SameOperandsAndResultType]> {
  let summary = "Reverses the order of elements along dimensions (HLO reverse)";
  let description = [{
    `result[..., i_d, ...] = input[..., size_d - 1 - i_d, ...]` for every
    dimension `d` in `dims` (distinct, in range; any order); the other
    dimensions are unchanged.

    ```mlir
    %r = xla.reverse %x, dims = [0, 2] : tensor<4x8x16xf32>
    ```
  }];
  let arguments = (ins Xla_Tensor:$input, DenseI64ArrayAttr:$dims);
  let results = (outs Xla_Tensor:$result);
  let assemblyFormat = "$input `,` `dims` `=` $dims attr-dict `:` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // XSPMD_DIALECTS_XLA_XLAMATHOPS_TD
