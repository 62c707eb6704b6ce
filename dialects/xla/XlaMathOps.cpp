//===- XlaMathOps.cpp - verifiers and folders of XlaMathOps.td ------------===//

#include "dialects/xla/XlaOps.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace xspmd::xla {

//===----------------------------------------------------------------------===//
// xla.bitcast_convert
//===----------------------------------------------------------------------===//

LogicalResult BitcastConvertOp::verify() {
  Type from = getInput().getType().getElementType();
  Type to = getType().getElementType();
  unsigned fromBits = from.getIntOrFloatBitWidth();
  unsigned toBits = to.getIntOrFloatBitWidth();
  if (fromBits == toBits)
    return success();
  InFlightDiagnostic diag = emitOpError()
                            << "reinterprets " << from << " (" << fromBits
                            << " bits) as " << to << " (" << toBits
                            << " bits); the element types must have the same "
                               "bit width";
  if (fromBits == 16 || toBits == 16)
    diag << " (16-bit floats bitcast only to each other: the dialect has no "
            "16-bit integer type)";
  return diag;
}

OpFoldResult BitcastConvertOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// xla.reverse
//===----------------------------------------------------------------------===//

LogicalResult ReverseOp::verify() {
  int64_t rank = getType().getRank();
  llvm::SmallBitVector seen(rank);
  for (int64_t d : getDims()) {
    if (d < 0 || d >= rank)
      return emitOpError() << "dimension " << d << " is out of range for rank "
                           << rank;
    if (seen.test(d))
      return emitOpError() << "reverses dimension " << d << " twice";
    seen.set(d);
  }
  return success();
}

OpFoldResult ReverseOp::fold(FoldAdaptor) {
  // Reversing dimensions of at most one element changes nothing.
  RankedTensorType type = getType();
  if (llvm::all_of(getDims(),
                   [&](int64_t d) { return type.getDimSize(d) <= 1; }))
    return getInput();
  return {};
}

} // namespace xspmd::xla
