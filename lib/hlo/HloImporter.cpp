//===- HloImporter.cpp - HloModule text to the xla dialect ----------------===//

#include "lib/hlo/HloImporter.h"
#include "lib/hlo/HloImportContext.h"
#include "lib/hlo/HloParser.h"

#include "passes/common/FunctionAttrs.h"

#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

//===----------------------------------------------------------------------===//
// ModuleImporter
//===----------------------------------------------------------------------===//

ModuleImporter::ModuleImporter(const Module &ast, llvm::SourceMgr &sourceMgr,
                               ModuleOp module)
    : ast(ast), sourceMgr(sourceMgr), module(module),
      meshes(module.getContext()) {
  addElementwiseImporters(table);
  addShapeImporters(table);
  addDotConvImporters(table);
  addReduceImporters(table);
  addIndexingImporters(table);
  addControlFlowImporters(table);
  addCollectiveImporters(table);
  addBatchNormImporters(table);
}

FileLineColLoc ModuleImporter::getLoc(llvm::SMLoc loc) {
  unsigned bufferId = sourceMgr.getMainFileID();
  auto [line, col] = sourceMgr.getLineAndColumn(loc, bufferId);
  StringRef name = sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier();
  return FileLineColLoc::get(getContext(), name, line, col);
}

Location ModuleImporter::getOpLoc(const Instruction &inst) {
  Location hloLoc = getLoc(inst.loc);
  if (inst.metadata) {
    const Metadata &md = *inst.metadata;
    Location child = hloLoc;
    if (!md.sourceFile.empty())
      child =
          FileLineColLoc::get(getContext(), md.sourceFile, md.sourceLine, 0);
    if (!md.opName.empty() || !md.sourceFile.empty())
      return NameLoc::get(StringAttr::get(getContext(), md.opName.empty()
                                                            ? inst.name
                                                            : md.opName),
                          child);
  }
  return NameLoc::get(StringAttr::get(getContext(), inst.name), hloLoc);
}

InFlightDiagnostic ModuleImporter::emitError(llvm::SMLoc loc) {
  return mlir::emitError(getLoc(loc));
}

FailureOr<RankedTensorType> ModuleImporter::getTensorType(const Shape &shape,
                                                          llvm::SMLoc loc) {
  if (shape.isTuple)
    return emitError(loc) << "expected an array shape, found a tuple";
  MLIRContext *ctx = getContext();
  Type element = llvm::StringSwitch<Type>(shape.elementType)
                     .Case("pred", IntegerType::get(ctx, 1))
                     .Cases({"s8", "u8"}, IntegerType::get(ctx, 8))
                     .Cases({"s32", "u32"}, IntegerType::get(ctx, 32))
                     .Cases({"s64", "u64"}, IntegerType::get(ctx, 64))
                     .Case("f16", Float16Type::get(ctx))
                     .Case("bf16", BFloat16Type::get(ctx))
                     .Case("f32", Float32Type::get(ctx))
                     .Case("f64", Float64Type::get(ctx))
                     .Default(Type());
  if (!element)
    return emitError(loc) << "element type '" << shape.elementType
                          << "' is not supported (the xla dialect has pred, "
                             "s8/s32/s64, u8/u32/u64 as signless integers, "
                             "f16, bf16, f32, f64)";
  return RankedTensorType::get(shape.dims, element);
}

LogicalResult ModuleImporter::getLeafTypes(const Shape &shape, llvm::SMLoc loc,
                                           SmallVectorImpl<Type> &types) {
  if (shape.isTuple) {
    for (const Shape &e : shape.elements)
      if (failed(getLeafTypes(e, loc, types)))
        return failure();
    return success();
  }
  FailureOr<RankedTensorType> type = getTensorType(shape, loc);
  if (failed(type))
    return failure();
  types.push_back(*type);
  return success();
}

const Computation *ModuleImporter::lookupComputation(const Instruction &inst,
                                                     StringRef attrName) {
  const HloAttr *attr = inst.findAttribute(attrName);
  if (!attr) {
    emitError(inst.opcodeLoc) << "HLO instruction '" << inst.opcode << "' (%"
                              << inst.name << ") needs '" << attrName << "='";
    return nullptr;
  }
  std::string name = readComputationName(attr->value);
  const Computation *comp = ast.findComputation(name);
  if (!comp)
    emitError(attr->loc) << "no computation named '" << name << "'";
  return comp;
}

LogicalResult ModuleImporter::getLeafShardings(
    const Instruction &inst, SmallVectorImpl<xla::ShardingAttr> &shardings) {
  const HloAttr *attr = inst.findAttribute("sharding");
  if (!attr)
    return success();
  std::vector<std::string> texts;
  int64_t leaves = inst.shape.numLeaves();
  if (splitTupleSharding(attr->value, texts)) {
    if ((int64_t)texts.size() != leaves)
      return emitError(attr->loc)
             << "tuple sharding has " << texts.size()
             << " elements but the shape has " << leaves << " arrays";
  } else {
    texts.assign(leaves, attr->value);
  }
  SmallVector<Type> types;
  if (failed(getLeafTypes(inst.shape, inst.loc, types)))
    return failure();
  for (auto [text, type] : llvm::zip(texts, types)) {
    if (StringRef(text).trim() == "{manual}") {
      shardings.push_back({});
      continue;
    }
    FailureOr<xla::ShardingAttr> s = meshes.import(
        text, cast<RankedTensorType>(type).getRank(), getLoc(attr->loc));
    if (failed(s))
      return failure();
    shardings.push_back(*s);
  }
  return success();
}

LogicalResult ModuleImporter::collectShardings() {
  for (const Computation &comp : ast.computations)
    for (const Instruction &inst : comp.instructions) {
      const HloAttr *attr = inst.findAttribute("sharding");
      if (!attr)
        continue;
      std::vector<std::string> texts;
      if (!splitTupleSharding(attr->value, texts))
        texts.push_back(attr->value);
      for (const std::string &text : texts)
        if (failed(meshes.add(text, getLoc(attr->loc))))
          return failure();
    }
  return success();
}

LogicalResult ModuleImporter::run() {
  auto readCount = [&](StringRef name, int64_t &value) -> LogicalResult {
    if (const HloAttr *attr = ast.findAttribute(name)) {
      std::string error;
      if (!readInt(attr->value, value, error) || value < 1)
        return emitError(attr->loc)
               << "'" << name << "' must be a positive integer";
    }
    return success();
  };
  if (failed(readCount("replica_count", replicaCount)) ||
      failed(readCount("num_partitions", numPartitions)))
    return failure();
  if (replicaCount > 1 && numPartitions > 1)
    return emitError(ast.loc)
           << "modules with both replicas (" << replicaCount
           << ") and partitions (" << numPartitions << ") are not supported";
  std::optional<int64_t> declared;
  if (replicaCount > 1 || numPartitions > 1)
    declared = std::max(replicaCount, numPartitions);
  if (failed(collectShardings()) ||
      failed(meshes.finalize(declared, getLoc(ast.loc))))
    return failure();
  OpBuilder builder(module.getBodyRegion());
  for (const MeshInference::NamedMesh &m : meshes.getMeshes())
    xla::MeshOp::create(builder, getLoc(ast.loc), m.name, m.mesh);
  const Computation &entry = ast.computations[ast.entry];
  return importFunction(entry, "main", /*isEntry=*/true);
}

FailureOr<func::FuncOp>
ModuleImporter::getCalledFunction(const Computation &c) {
  auto it = calledFunctions.find(c.name);
  if (it != calledFunctions.end())
    return it->second;
  if (inProgress.contains(c.name))
    return emitError(c.loc) << "computation '" << c.name
                            << "' calls itself (recursion is not supported)";
  std::string name = c.name;
  for (char &ch : name)
    if (!isalnum(ch) && ch != '_' && ch != '.')
      ch = '_';
  return importFunction(c, name, /*isEntry=*/false);
}

FailureOr<func::FuncOp> ModuleImporter::importFunction(const Computation &comp,
                                                       StringRef name,
                                                       bool isEntry) {
  inProgress.insert(comp.name);
  std::vector<const Instruction *> params = comp.getParameters();
  for (auto [i, p] : llvm::enumerate(params))
    if (p->parameterNumber != (int64_t)i)
      return emitError(p->loc)
             << "computation '" << comp.name << "' has no parameter " << i;
  SmallVector<Type> argTypes, resultTypes;
  SmallVector<int64_t> argCounts;
  for (const Instruction *p : params) {
    size_t before = argTypes.size();
    if (failed(getLeafTypes(p->shape, p->loc, argTypes)))
      return failure();
    argCounts.push_back(argTypes.size() - before);
  }
  const Instruction &root = comp.getRoot();
  if (failed(getLeafTypes(root.shape, root.loc, resultTypes)))
    return failure();
  OpBuilder builder(module.getBodyRegion());
  builder.setInsertionPointToEnd(module.getBody());
  auto func =
      func::FuncOp::create(builder, getLoc(comp.loc), name,
                           builder.getFunctionType(argTypes, resultTypes));
  if (!isEntry) {
    func.setPrivate();
    calledFunctions[comp.name] = func;
  }
  Block *block = func.addEntryBlock();
  SmallVector<SmallVector<Value>> paramValues;
  int64_t next = 0;
  for (auto [p, n] : llvm::zip(params, argCounts)) {
    paramValues.emplace_back(block->getArguments().slice(next, n));
    for (Value arg : paramValues.back())
      cast<BlockArgument>(arg).setLoc(getOpLoc(*p));
    next += n;
  }
  // Arguments and results take the shardings of the parameters and ROOT.
  if (isEntry) {
    SmallVector<Attribute> argShardings(argTypes.size()),
        resultShardings(resultTypes.size());
    next = 0;
    for (auto [p, n] : llvm::zip(params, argCounts)) {
      SmallVector<xla::ShardingAttr> s;
      if (failed(getLeafShardings(*p, s)))
        return failure();
      for (auto [i, sharding] : llvm::enumerate(s))
        argShardings[next + i] = sharding;
      next += n;
    }
    SmallVector<xla::ShardingAttr> s;
    if (failed(getLeafShardings(root, s)))
      return failure();
    for (auto [i, sharding] : llvm::enumerate(s))
      resultShardings[i] = sharding;
    setArgAttrs(func, xla::kShardingAttrName, argShardings);
    setResultAttrs(func, xla::kShardingAttrName, resultShardings);
  }
  builder.setInsertionPointToStart(block);
  ComputationImporter importer(*this, builder, isEntry);
  SmallVector<Value> results;
  if (failed(importer.importBody(comp, paramValues, results)))
    return failure();
  func::ReturnOp::create(builder, getLoc(root.loc), results);
  inProgress.erase(comp.name);
  return func;
}

//===----------------------------------------------------------------------===//
// ComputationImporter
//===----------------------------------------------------------------------===//

LogicalResult
ComputationImporter::importBody(const Computation &comp,
                                ArrayRef<SmallVector<Value>> paramValues,
                                SmallVectorImpl<Value> &results) {
  computation = &comp;
  params = paramValues;
  for (const Instruction &inst : comp.instructions) {
    if (instructions.count(inst.name))
      return emitError(inst.loc)
             << "instruction '%" << inst.name << "' is defined twice";
    if (failed(importInstruction(inst)))
      return failure();
    instructions[inst.name] = &inst;
  }
  llvm::append_range(results, values[comp.getRoot().name]);
  return success();
}

LogicalResult ComputationImporter::importRegion(const Computation &comp,
                                                Region &region) {
  SmallVector<SmallVector<Type>> paramTypes;
  Block *block = new Block();
  region.push_back(block);
  SmallVector<SmallVector<Value>> paramValues;
  for (const Instruction *p : comp.getParameters()) {
    SmallVector<Type> types;
    if (failed(module.getLeafTypes(p->shape, p->loc, types)))
      return failure();
    SmallVector<Value> args;
    for (Type t : types)
      args.push_back(block->addArgument(t, module.getLoc(p->loc)));
    paramValues.push_back(std::move(args));
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(block);
  ComputationImporter nested(module, builder);
  SmallVector<Value> results;
  if (failed(nested.importBody(comp, paramValues, results)))
    return failure();
  xla::YieldOp::create(builder, module.getLoc(comp.getRoot().loc), results);
  return success();
}

LogicalResult
ComputationImporter::importInlineRegion(const Computation &comp, Region &region,
                                        ArrayRef<SmallVector<Value>> bound) {
  Block *block = new Block();
  region.push_back(block);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(block);
  ComputationImporter nested(module, builder);
  SmallVector<Value> results;
  if (failed(nested.importBody(comp, bound, results)))
    return failure();
  xla::YieldOp::create(builder, module.getLoc(comp.getRoot().loc), results);
  return success();
}

LogicalResult ComputationImporter::importInstruction(const Instruction &inst) {
  for (const Operand &operand : inst.operands)
    if (!values.count(operand.name))
      return emitError(operand.loc)
             << "operand '%" << operand.name << "' of '%" << inst.name
             << "' is not defined before it in computation '"
             << computation->name << "'";
  if (inst.opcode == "parameter") {
    if (inst.parameterNumber >= (int64_t)params.size())
      return emitError(inst.loc)
             << "parameter " << inst.parameterNumber << " of computation '"
             << computation->name << "' is not given (" << params.size()
             << " operands)";
    values[inst.name] = params[inst.parameterNumber];
    if (values[inst.name].size() != (size_t)inst.shape.numLeaves())
      return emitError(inst.loc)
             << "parameter " << inst.parameterNumber << " has "
             << inst.shape.numLeaves() << " arrays but is given "
             << values[inst.name].size();
    return success();
  }
  auto it = module.getTable().find(inst.opcode);
  if (it == module.getTable().end())
    return unsupported(inst);
  if (failed(it->second(*this, inst)))
    return failure();
  if (!values.count(inst.name))
    return emitError(inst.loc)
           << "internal: '%" << inst.name << "' was not bound by its importer";
  if (failed(applySharding(inst)))
    return failure();
  return checkAllAttributesRead(inst);
}

/// Attributes that change nothing the simulator computes: backend and
/// scheduling hints, layouts, precision requests (every product is computed
/// at least at f32), hints whose violation is undefined behaviour in XLA
/// (sorted or unique indices), and provenance.
static bool isInertAttribute(StringRef name) {
  static constexpr llvm::StringLiteral inert[] = {"backend_config",
                                                  "frontend_attributes",
                                                  "statistics_viz",
                                                  "origin",
                                                  "precision_config",
                                                  "operand_precision",
                                                  "algorithm",
                                                  "result_accuracy",
                                                  "control-predecessors",
                                                  "schedule",
                                                  "custom_call_schedule",
                                                  "constrain_layout",
                                                  "parameter_replication",
                                                  "output_to_operand_aliasing",
                                                  "api_version",
                                                  "custom_call_has_side_effect",
                                                  "indices_are_sorted",
                                                  "unique_indices"};
  return llvm::is_contained(inert, name);
}

LogicalResult
ComputationImporter::checkAllAttributesRead(const Instruction &inst) {
  for (const HloAttr &attr : inst.attributes) {
    // A tuple's sharding only describes its elements, which carry their
    // own.
    if (attr.read || isInertAttribute(attr.name) ||
        (attr.name == "sharding" && inst.opcode == "tuple"))
      continue;
    return attrError(attr, "not supported on '" + inst.opcode + "' (%" +
                               inst.name +
                               "): attributes the importer does not know "
                               "are reported, not dropped");
  }
  return success();
}

LogicalResult ComputationImporter::applySharding(const Instruction &inst) {
  // Custom-calls handle their own (Sharding is a mark_sharding); a tuple
  // only regroups values; the entry's ROOT sharding is the function's
  // result sharding.
  if (inst.opcode == "custom-call" || inst.opcode == "tuple" ||
      !inst.findAttribute("sharding") ||
      (isEntry && &inst == &computation->getRoot()))
    return success();
  SmallVector<xla::ShardingAttr> shardings;
  if (failed(module.getLeafShardings(inst, shardings)))
    return failure();
  SmallVector<Value> &leaves = values[inst.name];
  for (auto [leaf, sharding] : llvm::zip(leaves, shardings)) {
    if (!sharding)
      continue;
    Operation *def = leaf.getDefiningOp();
    if (def && def->getNumResults() == 1 &&
        !def->hasAttr(xla::kShardingAttrName) &&
        !isa<xla::MarkShardingOp>(def)) {
      def->setAttr(xla::kShardingAttrName, sharding);
      continue;
    }
    leaf = xla::MarkShardingOp::create(builder, getLoc(inst), leaf.getType(),
                                       leaf, sharding);
  }
  return success();
}

ArrayRef<Value> ComputationImporter::getOperandLeaves(const Instruction &inst,
                                                      unsigned i) {
  return values[inst.operands[i].name];
}

FailureOr<Value> ComputationImporter::getOperand(const Instruction &inst,
                                                 unsigned i) {
  ArrayRef<Value> leaves = getOperandLeaves(inst, i);
  if (leaves.size() != 1 || getOperandShape(inst, i).isTuple)
    return emitError(inst.operands[i].loc)
           << "operand " << i << " of '" << inst.opcode
           << "' must be an array, found a tuple";
  return leaves.front();
}

LogicalResult ComputationImporter::getOperands(const Instruction &inst,
                                               SmallVectorImpl<Value> &result) {
  for (unsigned i = 0, e = inst.operands.size(); i < e; ++i) {
    FailureOr<Value> v = getOperand(inst, i);
    if (failed(v))
      return failure();
    result.push_back(*v);
  }
  return success();
}

const Instruction *
ComputationImporter::getOperandInstruction(const Instruction &inst,
                                           unsigned i) {
  return instructions.lookup(inst.operands[i].name);
}

const Shape &ComputationImporter::getOperandShape(const Instruction &inst,
                                                  unsigned i) {
  if (const Instruction *def = getOperandInstruction(inst, i))
    return def->shape;
  static const Shape unknown;
  return unknown;
}

LogicalResult ComputationImporter::expectOperands(const Instruction &inst,
                                                  unsigned n) {
  if (inst.operands.size() == n)
    return success();
  return emitError(inst) << "'" << inst.opcode << "' takes " << n << " operand"
                         << (n == 1 ? "" : "s") << ", found "
                         << inst.operands.size();
}

FailureOr<RankedTensorType>
ComputationImporter::getResultType(const Instruction &inst) {
  return module.getTensorType(inst.shape, inst.loc);
}

void ComputationImporter::setResult(const Instruction &inst,
                                    ValueRange leaves) {
  values[inst.name] = llvm::to_vector(leaves);
}

const HloAttr *ComputationImporter::getAttr(const Instruction &inst,
                                            StringRef name, bool required) {
  const HloAttr *attr = inst.findAttribute(name);
  if (!attr && required)
    emitError(inst) << "HLO instruction '" << inst.opcode << "' (%" << inst.name
                    << ") needs '" << name << "='";
  return attr;
}

LogicalResult ComputationImporter::attrError(const HloAttr &attr,
                                             const std::string &why) {
  return emitError(attr.loc) << "attribute '" << attr.name << "': " << why;
}

FailureOr<SmallVector<int64_t>>
ComputationImporter::getIntList(const Instruction &inst, StringRef name,
                                bool required) {
  const HloAttr *attr = getAttr(inst, name, required);
  SmallVector<int64_t> values;
  if (!attr) {
    if (required)
      return failure();
    return values;
  }
  std::string error;
  if (!readIntList(attr->value, values, error))
    return attrError(*attr, error);
  return values;
}

FailureOr<int64_t> ComputationImporter::getInt(const Instruction &inst,
                                               StringRef name) {
  const HloAttr *attr = getAttr(inst, name, /*required=*/true);
  if (!attr)
    return failure();
  int64_t value;
  std::string error;
  if (!readInt(attr->value, value, error))
    return attrError(*attr, error);
  return value;
}

LogicalResult ComputationImporter::unsupported(const Instruction &inst,
                                               const Twine &why) {
  InFlightDiagnostic diag = emitError(inst);
  diag << "HLO instruction '" << inst.opcode << "' (%" << inst.name
       << ") is not supported";
  if (!why.isTriviallyEmpty())
    diag << ": " << why;
  return diag;
}

std::string ComputationImporter::getBinaryReducer(const Computation &comp) {
  std::vector<const Instruction *> params = comp.getParameters();
  const Instruction &root = comp.getRoot();
  if (params.size() != 2 || root.operands.size() != 2 || root.shape.isTuple ||
      !root.shape.dims.empty())
    return "";
  StringRef a = root.operands[0].name, b = root.operands[1].name;
  StringRef p0 = params[0]->name, p1 = params[1]->name;
  if (!((a == p0 && b == p1) || (a == p1 && b == p0)))
    return "";
  // The dialect's max and min order integers as signed; an unsigned one
  // stays a computation (imported with the unsigned order).
  if ((root.opcode == "maximum" || root.opcode == "minimum") &&
      root.shape.elementType.front() == 'u')
    return "";
  return root.opcode;
}

std::optional<double>
ComputationImporter::getScalarConstant(const Instruction *inst) {
  if (!inst || inst->opcode != "constant" || !inst->shape.dims.empty() ||
      inst->shape.isTuple)
    return std::nullopt;
  StringRef text = StringRef(inst->literal).trim();
  if (text == "true")
    return 1.0;
  if (text == "false")
    return 0.0;
  std::string lower = text.lower();
  StringRef t(lower);
  bool negative = t.consume_front("-");
  if (t == "inf")
    return negative ? -INFINITY : INFINITY;
  if (t == "nan")
    return NAN;
  double d;
  if (text.getAsDouble(d))
    return std::nullopt;
  return d;
}

Value ComputationImporter::broadcastScalar(const Instruction &inst, Value x,
                                           RankedTensorType type) {
  auto xType = cast<RankedTensorType>(x.getType());
  if (xType.getRank() != 0 || type.getRank() == 0)
    return x;
  return xla::BroadcastInDimOp::create(
      builder, getLoc(inst), type.clone(xType.getElementType()), x, i64s({}));
}

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

bool xspmd::hlo::looksLikeHlo(StringRef buffer) {
  StringRef s = buffer;
  while (true) {
    s = s.ltrim();
    if (s.consume_front("//")) {
      s = s.drop_until([](char c) { return c == '\n'; });
      continue;
    }
    if (s.starts_with("/*")) {
      size_t end = s.find("*/");
      if (end == StringRef::npos)
        return false;
      s = s.drop_front(end + 2);
      continue;
    }
    break;
  }
  return s.starts_with("HloModule") &&
         (s.size() == 9 || isspace(static_cast<unsigned char>(s[9])));
}

OwningOpRef<ModuleOp> xspmd::hlo::importHloModule(llvm::SourceMgr &sourceMgr,
                                                  MLIRContext *ctx) {
  ctx->loadDialect<xla::XlaDialect, func::FuncDialect>();
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  Module ast;
  ParseError error;
  if (!parseModule(buffer->getBuffer(), ast, error)) {
    unsigned bufferId = sourceMgr.getMainFileID();
    auto [line, col] = sourceMgr.getLineAndColumn(error.loc, bufferId);
    mlir::emitError(
        FileLineColLoc::get(ctx, buffer->getBufferIdentifier(), line, col))
        << error.message;
    return nullptr;
  }
  OwningOpRef<ModuleOp> module;
  {
    unsigned bufferId = sourceMgr.getMainFileID();
    auto [line, col] = sourceMgr.getLineAndColumn(ast.loc, bufferId);
    module = ModuleOp::create(
        FileLineColLoc::get(ctx, buffer->getBufferIdentifier(), line, col));
  }
  module->setSymNameAttr(StringAttr::get(ctx, ast.name));
  ModuleImporter run(ast, sourceMgr, *module);
  if (failed(run.run()) || failed(verify(*module)))
    return nullptr;
  return module;
}
