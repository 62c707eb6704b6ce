//===- XlaControlFlow.cpp - xla.while, xla.case, xla.yield ----------------===//
//
// Assembly format and verifiers of the control-flow ops
// (XlaControlFlowOps.td) and of the terminator of every xla region.
//
//===----------------------------------------------------------------------===//

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;

namespace xspmd::xla {

//===----------------------------------------------------------------------===//
// xla.yield
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  Operation *parent = (*this)->getParentOp();
  if (isa<TraceOp, WhileOp, CaseOp, ManualComputationOp>(parent) ||
      parent->hasTrait<ScalarBodies>())
    return success();
  return emitOpError("ends a region of xla.trace, xla.while, xla.case, "
                     "xla.manual_computation or an op with scalar bodies, "
                     "not of '")
         << parent->getName() << "'";
}

//===----------------------------------------------------------------------===//
// xla.while
//===----------------------------------------------------------------------===//

// xla.while (%a = %x, %b = %y) : tensor<i32>, tensor<4xf32> attributes {...}
//     cond { ... } do { ... }
ParseResult WhileOp::parse(OpAsmParser &parser, OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> inits;
  auto parseCarried = [&]() -> ParseResult {
    if (parser.parseArgument(args.emplace_back()) || parser.parseEqual() ||
        parser.parseOperand(inits.emplace_back()))
      return failure();
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseCarried))
    return failure();
  SmallVector<Type> types;
  SMLoc typesLoc = parser.getCurrentLocation();
  if (succeeded(parser.parseOptionalColon()) && parser.parseTypeList(types))
    return failure();
  if (types.size() != inits.size())
    return parser.emitError(typesLoc)
           << "expected " << inits.size() << " types of carried values, got "
           << types.size();
  for (auto [arg, type] : llvm::zip_equal(args, types))
    arg.type = type;
  if (parser.resolveOperands(inits, types, typesLoc, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addTypes(types);
  Region *cond = result.addRegion();
  Region *body = result.addRegion();
  if (parser.parseKeyword("cond") || parser.parseRegion(*cond, args) ||
      parser.parseKeyword("do") || parser.parseRegion(*body, args))
    return failure();
  return success();
}

void WhileOp::print(OpAsmPrinter &p) {
  Block &cond = getCond().front();
  p << " (";
  llvm::interleaveComma(llvm::zip_equal(cond.getArguments(), getInits()), p,
                        [&](auto pair) {
                          auto [arg, init] = pair;
                          p.printRegionArgument(arg, {}, /*omitType=*/true);
                          p << " = " << init;
                        });
  p << ")";
  if (!getInits().empty()) {
    p << " : ";
    llvm::interleaveComma(getInits().getTypes(), p);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  p << " cond ";
  p.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  p << " do ";
  // The body's arguments print under the names of the condition's.
  p.shadowRegionArgs(getBody(), cond.getArguments());
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

YieldOp WhileOp::getBodyYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

Value WhileOp::getCondition() {
  return cast<YieldOp>(getCond().front().getTerminator()).getValues().front();
}

LogicalResult WhileOp::verify() {
  TypeRange carried = getInits().getTypes();
  if (getResultTypes() != carried)
    return emitOpError() << "has results (" << getResultTypes()
                         << ") but carries (" << carried << ")";
  for (auto [name, region] :
       {std::pair<StringRef, Region *>{"cond", &getCond()},
        {"body", &getBody()}}) {
    Block &block = region->front();
    if (block.getArgumentTypes() != carried)
      return emitOpError() << "'" << name << "' takes arguments ("
                           << block.getArgumentTypes()
                           << ") but the loop carries (" << carried << ")";
    if (block.empty() || !isa<YieldOp>(block.back()))
      return emitOpError() << "'" << name << "' must end in xla.yield";
  }
  auto condYield = cast<YieldOp>(getCond().front().back());
  auto pred = RankedTensorType::get({}, IntegerType::get(getContext(), 1));
  if (condYield.getValues().getTypes() != TypeRange(pred)) {
    InFlightDiagnostic diag = emitOpError()
                              << "'cond' must yield one tensor<i1>, got "
                              << condYield.getValues().getTypes();
    diag.attachNote(condYield.getLoc()) << "yielded here";
    return diag;
  }
  YieldOp bodyYield = getBodyYield();
  if (bodyYield.getValues().getTypes() != carried) {
    InFlightDiagnostic diag =
        emitOpError() << "'body' yields (" << bodyYield.getValues().getTypes()
                      << ") but the loop carries (" << carried << ")";
    diag.attachNote(bodyYield.getLoc()) << "yielded here";
    return diag;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// xla.case
//===----------------------------------------------------------------------===//

YieldOp CaseOp::getBranchYield(unsigned i) {
  return cast<YieldOp>(getBranches()[i].front().getTerminator());
}

bool CaseOp::isPredicated() {
  return cast<RankedTensorType>(getIndex().getType())
      .getElementType()
      .isInteger(1);
}

LogicalResult CaseOp::verify() {
  if (getBranches().empty())
    return emitOpError("needs at least one branch");
  if (isPredicated() && getBranches().size() != 2)
    return emitOpError() << "with an i1 predicate needs 2 branches (true, "
                            "false), got "
                         << getBranches().size();
  for (auto [i, branch] : llvm::enumerate(getBranches())) {
    Block &block = branch.front();
    if (block.getNumArguments() != 0)
      return emitOpError() << "branch " << i
                           << " takes arguments; branches use the values "
                              "defined above the xla.case";
    auto yield = dyn_cast<YieldOp>(block.empty() ? nullptr : &block.back());
    if (!yield)
      return emitOpError() << "branch " << i << " must end in xla.yield";
    if (yield.getValues().getTypes() != getResultTypes()) {
      InFlightDiagnostic diag = emitOpError() << "branch " << i << " yields ("
                                              << yield.getValues().getTypes()
                                              << ") but the results are ("
                                              << getResultTypes() << ")";
      diag.attachNote(yield.getLoc()) << "yielded here";
      return diag;
    }
  }
  return success();
}

} // namespace xspmd::xla
