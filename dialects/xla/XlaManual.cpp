//===- XlaManual.cpp - xla.full_to_shard, shard_to_full, manual_computation
//===//
//
// Verifiers and assembly of the manual-partitioning ops (XlaManualOps.td).
//
//===----------------------------------------------------------------------===//

#include "dialects/xla/XlaOps.h"
#include "dialects/xla/XlaShardLayout.h"

#include "dialects/xla/XlaSubAxes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;

namespace xspmd::xla {

RankedTensorType localTypeOf(ShardingAttr sharding, MeshAttr mesh,
                             RankedTensorType global) {
  // Sub-axes are whole axes of the refined mesh (same devices).
  std::string error;
  if (auto refined = refineForSharding(mesh, sharding, error))
    std::tie(mesh, sharding) = *refined;
  MeshModel model = MeshModel::fromAttr(mesh);
  ShardLayout layout =
      ShardLayout::fromSharding(sharding, model, global.getShape());
  return global.clone(layout.localShape(model));
}

/// Checks `sharding` for the global type `global` (mesh known, no pending
/// reduction) and returns the local type it gives, or null after an error.
static RankedTensorType checkManualSharding(Operation *op,
                                            ShardingAttr sharding, Type global,
                                            const Twine &what) {
  auto mesh = SymbolTable::lookupNearestSymbolFrom<MeshOp>(
      op, sharding.getMesh().getAttr());
  if (!mesh) {
    op->emitOpError() << what << " names unknown mesh " << sharding.getMesh();
    return {};
  }
  if (failed(
          sharding.verifyFor([&] { return op->emitOpError() << what << ": "; },
                             mesh.getMesh(), global)))
    return {};
  if (sharding.isPartial()) {
    op->emitOpError() << what
                      << " has pending (partial) axes; a manual boundary "
                         "takes whole values";
    return {};
  }
  return localTypeOf(sharding, mesh.getMesh(), cast<RankedTensorType>(global));
}

LogicalResult FullToShardOp::verify() {
  RankedTensorType local = checkManualSharding(
      *this, getSharding(), getInput().getType(), "sharding");
  if (!local)
    return failure();
  if (getType() != local)
    return emitOpError() << "result must be the local block " << local << " of "
                         << getInput().getType() << ", not " << getType();
  return success();
}

LogicalResult ShardToFullOp::verify() {
  RankedTensorType local =
      checkManualSharding(*this, getSharding(), getType(), "sharding");
  if (!local)
    return failure();
  if (getInput().getType() != local)
    return emitOpError() << "operand must be the local block " << local
                         << " of " << getType() << ", not "
                         << getInput().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// xla.manual_computation
//===----------------------------------------------------------------------===//

YieldOp ManualComputationOp::getBodyYield() {
  return cast<YieldOp>(getBody().front().getTerminator());
}

static ParseResult parseShardingList(OpAsmParser &parser, StringRef keyword,
                                     ArrayAttr &result) {
  SmallVector<Attribute> shardings;
  if (parser.parseKeyword(keyword) || parser.parseEqual() ||
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            ShardingAttr sharding;
            if (parser.parseCustomAttributeWithFallback(sharding, Type{}))
              return failure();
            shardings.push_back(sharding);
            return success();
          }))
    return failure();
  result = parser.getBuilder().getArrayAttr(shardings);
  return success();
}

static void printShardingList(OpAsmPrinter &p, StringRef keyword,
                              ArrayAttr shardings) {
  p << keyword << " = [";
  llvm::interleaveComma(shardings, p, [&](Attribute a) {
    p.printStrippedAttrOrType(cast<ShardingAttr>(a));
  });
  p << "]";
}

// xla.manual_computation (%l = %x : tensor<2x16xf32>, ...)
//     in_shardings = [...] out_shardings = [...] attributes {...} { ... }
//     : (tensor<8x16xf32>, ...) -> (...)
ParseResult ManualComputationOp::parse(OpAsmParser &parser,
                                       OperationState &result) {
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<OpAsmParser::UnresolvedOperand> inputs;
  auto parseInput = [&]() -> ParseResult {
    OpAsmParser::Argument &arg = args.emplace_back();
    if (parser.parseArgument(arg) || parser.parseEqual() ||
        parser.parseOperand(inputs.emplace_back()) || parser.parseColon() ||
        parser.parseType(arg.type))
      return failure();
    return success();
  };
  ArrayAttr in, out;
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                     parseInput) ||
      parseShardingList(parser, "in_shardings", in) ||
      parseShardingList(parser, "out_shardings", out) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  result.addAttribute(getInShardingsAttrName(result.name), in);
  result.addAttribute(getOutShardingsAttrName(result.name), out);
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, args))
    return failure();
  FunctionType type;
  SMLoc typeLoc = parser.getCurrentLocation();
  if (parser.parseColonType(type) ||
      parser.resolveOperands(inputs, type.getInputs(), typeLoc,
                             result.operands))
    return failure();
  result.addTypes(type.getResults());
  return success();
}

void ManualComputationOp::print(OpAsmPrinter &p) {
  Block &body = getBody().front();
  p << " (";
  llvm::interleaveComma(llvm::zip_equal(body.getArguments(), getInputs()), p,
                        [&](auto pair) {
                          auto [arg, input] = pair;
                          p.printRegionArgument(arg, {}, /*omitType=*/true);
                          p << " = " << input << " : " << arg.getType();
                        });
  p << ") ";
  printShardingList(p, "in_shardings", getInShardings());
  p << " ";
  printShardingList(p, "out_shardings", getOutShardings());
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {getInShardingsAttrName(), getOutShardingsAttrName()});
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  p << " : ";
  p.printFunctionalType(getInputs().getTypes(), getResultTypes());
}

LogicalResult ManualComputationOp::verify() {
  if (getInShardings().size() != getInputs().size())
    return emitOpError() << "has " << getInputs().size() << " operand(s) but "
                         << getInShardings().size() << " in_shardings";
  if (getOutShardings().size() != getNumResults())
    return emitOpError() << "has " << getNumResults() << " result(s) but "
                         << getOutShardings().size() << " out_shardings";
  return success();
}

LogicalResult ManualComputationOp::verifyRegions() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body takes " << body.getNumArguments()
                         << " argument(s) for " << getInputs().size()
                         << " operand(s)";
  FlatSymbolRefAttr meshName;
  auto checkMesh = [&](ShardingAttr sharding,
                       const Twine &what) -> LogicalResult {
    if (!meshName)
      meshName = sharding.getMesh();
    if (sharding.getMesh() == meshName)
      return success();
    return emitOpError() << what << " is over mesh " << sharding.getMesh()
                         << " but in_shardings[0] is over " << meshName
                         << "; one manual computation spans one mesh";
  };
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto sharding = cast<ShardingAttr>(getInShardings()[i]);
    std::string what = "in_shardings[" + std::to_string(i) + "]";
    if (failed(checkMesh(sharding, what)))
      return failure();
    RankedTensorType local =
        checkManualSharding(*this, sharding, input.getType(), what);
    if (!local)
      return failure();
    if (body.getArgument(i).getType() != local)
      return emitOpError() << "body argument " << i << " must be the local "
                           << "block " << local << " of operand " << i
                           << " under " << what << ", not "
                           << body.getArgument(i).getType();
  }
  YieldOp yield = getBodyYield();
  if (yield.getValues().size() != getNumResults())
    return emitOpError() << "body yields " << yield.getValues().size()
                         << " value(s) for " << getNumResults() << " result(s)";
  for (auto [i, result] : llvm::enumerate(getResults())) {
    auto sharding = cast<ShardingAttr>(getOutShardings()[i]);
    std::string what = "out_shardings[" + std::to_string(i) + "]";
    if (failed(checkMesh(sharding, what)))
      return failure();
    RankedTensorType local =
        checkManualSharding(*this, sharding, result.getType(), what);
    if (!local)
      return failure();
    if (yield.getValues()[i].getType() != local)
      return emitOpError() << "body must yield the local block " << local
                           << " of result " << i << " under " << what
                           << ", not " << yield.getValues()[i].getType();
  }
  return success();
}

} // namespace xspmd::xla
