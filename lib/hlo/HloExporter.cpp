//===- HloExporter.cpp - the xla dialect to HloModule text ----------------===//

#include "lib/hlo/HloExporter.h"
#include "lib/hlo/HloExportContext.h"

#include "dialects/xla/XlaDialect.h"
#include "passes/interop/HloSharding.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace xspmd;
using namespace xspmd::hlo;

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

std::string xspmd::hlo::hloElementType(Type type) {
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (type.isF16())
    return "f16";
  if (type.isBF16())
    return "bf16";
  if (type.isInteger(1))
    return "pred";
  if (auto i = dyn_cast<IntegerType>(type))
    return "s" + std::to_string(i.getWidth());
  return "unknown";
}

std::string xspmd::hlo::hloIntList(ArrayRef<int64_t> values) {
  std::string s = "{";
  for (auto [i, v] : llvm::enumerate(values))
    s += (i ? "," : "") + std::to_string(v);
  return s + "}";
}

std::string xspmd::hlo::hloShape(Type type) {
  auto tensor = cast<RankedTensorType>(type);
  std::string s = hloElementType(tensor.getElementType()) + "[";
  for (auto [i, d] : llvm::enumerate(tensor.getShape()))
    s += (i ? "," : "") + std::to_string(d);
  return s + "]";
}

std::string xspmd::hlo::hloTupleShape(TypeRange types) {
  std::string s = "(";
  for (auto [i, t] : llvm::enumerate(types))
    s += (i ? ", " : "") + hloShape(t);
  return s + ")";
}

//===----------------------------------------------------------------------===//
// ModuleExporter
//===----------------------------------------------------------------------===//

std::string ModuleExporter::uniqueName(StringRef base) {
  std::string clean = base.str();
  for (char &c : clean)
    if (!isalnum(c) && c != '_' && c != '-' && c != '.')
      c = '_';
  // The name itself the first time (function names survive a round
  // trip), then name.N.
  std::string candidate = clean;
  while (!usedNames.insert(candidate).second)
    candidate = clean + "." + std::to_string(nameCounts[clean]++);
  return candidate;
}

xla::MeshAttr ModuleExporter::lookupMesh(FlatSymbolRefAttr ref) {
  if (auto mesh = module.lookupSymbol<xla::MeshOp>(ref.getAttr()))
    return mesh.getMesh();
  return {};
}

FailureOr<std::string> ModuleExporter::shardingText(xla::ShardingAttr sharding,
                                                    Operation *op) {
  xla::MeshAttr mesh = lookupMesh(sharding.getMesh());
  if (!mesh)
    return op->emitError() << "sharding names an unknown mesh "
                           << sharding.getMesh();
  std::string text, error;
  if (!interop::exportHloSharding(sharding, mesh, /*iota=*/false, text, error))
    return op->emitError() << "cannot export sharding " << sharding
                           << " to HLO: " << error;
  return text;
}

std::string ModuleExporter::getReducer(StringRef opcode, Type element) {
  std::string type = hloElementType(element);
  auto key = std::make_pair(opcode.str(), type);
  auto it = reducers.find(key);
  if (it != reducers.end())
    return it->second;
  std::string name = uniqueName(opcode.str() + "_" + type);
  std::string x = uniqueName("x"), y = uniqueName("y"), r = uniqueName(opcode);
  std::string text = llvm::formatv("%{0} ({1}: {2}[], {3}: {2}[]) -> {2}[] {{\n"
                                   "  %{1} = {2}[] parameter(0)\n"
                                   "  %{3} = {2}[] parameter(1)\n"
                                   "  ROOT %{4} = {2}[] {5}(%{1}, %{3})\n}\n",
                                   name, x, type, y, r, opcode)
                         .str();
  addComputation(text);
  reducers[key] = name;
  return name;
}

FailureOr<std::string> ModuleExporter::getFunction(func::FuncOp func) {
  auto it = functions.find(func);
  if (it != functions.end())
    return it->second;
  if (func.isExternal())
    return func.emitError() << "cannot export a call to external function @"
                            << func.getSymName();
  ComputationExporter ce(*this, uniqueName(func.getSymName()));
  for (BlockArgument arg : func.getArguments())
    ce.bind(arg, ce.addParameter(arg.getType()));
  if (failed(ce.exportOps(func.front())))
    return failure();
  auto ret = cast<func::ReturnOp>(func.front().getTerminator());
  SmallVector<std::string> results;
  if (failed(ce.lookupAll(ret.getOperands(), ret, results)))
    return failure();
  // Always a tuple: call sites untuple it.
  std::string name = ce.finish(results, func.getResultTypes(), false, "",
                               /*forceTuple=*/true);
  functions[func] = name;
  return name;
}

LogicalResult ModuleExporter::run(StringRef function, raw_ostream &os) {
  // The device count: every mesh of a module that is not maximal spans the
  // same devices.
  if (xla::MeshOp mesh = xla::findFirstMesh(module))
    numDevices = mesh.getMesh().getNumDevices();
  func::FuncOp entry;
  if (!function.empty()) {
    entry = module.lookupSymbol<func::FuncOp>(function);
    if (!entry)
      return module.emitError() << "no function @" << function << " to export";
  } else {
    SmallVector<func::FuncOp> candidates;
    for (auto f : module.getOps<func::FuncOp>())
      if (f.isPublic() && !f.isExternal())
        candidates.push_back(f);
    entry = module.lookupSymbol<func::FuncOp>("main");
    if (!entry && candidates.size() == 1)
      entry = candidates.front();
    if (!entry)
      return module.emitError()
             << "cannot pick the entry function: no @main and "
             << candidates.size() << " public functions";
  }
  ComputationExporter ce(*this, uniqueName(entry.getSymName()));
  // A partitioned function has per-device shapes: its shardings describe
  // the global values, which HLO's partitioned modules do not annotate.
  bool partitioned = entry->hasAttr(xla::kPartitionedAttrName);
  for (BlockArgument arg : entry.getArguments()) {
    std::string p = ce.addParameter(arg.getType(), "Arg");
    if (auto s = partitioned
                     ? xla::ShardingAttr()
                     : entry.getArgAttrOfType<xla::ShardingAttr>(
                           arg.getArgNumber(), xla::kShardingAttrName)) {
      FailureOr<std::string> text = shardingText(s, entry);
      if (failed(text))
        return failure();
      ce.addSharding(p, *text);
    }
    ce.bind(arg, p);
  }
  if (failed(ce.exportOps(entry.front())))
    return failure();
  auto ret = cast<func::ReturnOp>(entry.front().getTerminator());
  SmallVector<std::string> results;
  if (failed(ce.lookupAll(ret.getOperands(), ret, results)))
    return failure();
  // Result shardings: a tuple sharding over the ROOT tuple, or the one
  // array's.
  std::string rootSharding;
  bool anySharded = false;
  SmallVector<std::string> texts;
  for (unsigned i = 0, e = entry.getNumResults(); i < e; ++i) {
    auto s = partitioned ? xla::ShardingAttr()
                         : entry.getResultAttrOfType<xla::ShardingAttr>(
                               i, xla::kShardingAttrName);
    if (!s) {
      texts.push_back("{replicated}");
      continue;
    }
    anySharded = true;
    FailureOr<std::string> text = shardingText(s, entry);
    if (failed(text))
      return failure();
    texts.push_back(*text);
  }
  bool tuple = entry.getNumResults() != 1;
  if (anySharded) {
    if (tuple) {
      rootSharding = "{";
      for (auto [i, t] : llvm::enumerate(texts))
        rootSharding += (i ? ", " : "") + t;
      rootSharding += "}";
    } else {
      rootSharding = texts.front();
    }
  }
  ce.finish(results, entry.getResultTypes(), /*entry=*/true, rootSharding,
            tuple);
  std::string moduleName =
      module.getSymName() ? module.getSymName()->str() : "xspmd";
  for (char &c : moduleName)
    if (!isalnum(c) && c != '_' && c != '.' && c != '-')
      c = '_';
  os << "HloModule " << moduleName;
  if (numDevices > 1)
    os << ", num_partitions=" << numDevices;
  os << "\n";
  for (const std::string &c : computations)
    os << "\n" << c;
  return success();
}

//===----------------------------------------------------------------------===//
// ComputationExporter
//===----------------------------------------------------------------------===//

std::string ComputationExporter::addParameter(Type type, StringRef base) {
  std::string n = module.uniqueName(base);
  std::string shape = hloShape(type);
  lines.push_back({n,
                   "%" + n + " = " + shape + " parameter(" +
                       std::to_string(params.size()) + ")",
                   true});
  params.push_back({n, shape});
  return n;
}

std::string ComputationExporter::addTupleParameter(TypeRange types) {
  std::string n = module.uniqueName("param");
  std::string shape = hloTupleShape(types);
  lines.push_back({n,
                   "%" + n + " = " + shape + " parameter(" +
                       std::to_string(params.size()) + ")",
                   true});
  params.push_back({n, shape});
  return n;
}

std::string ComputationExporter::emit(StringRef base, StringRef shape,
                                      StringRef opcode,
                                      ArrayRef<std::string> operands,
                                      StringRef attrs) {
  std::string n = module.uniqueName(base);
  std::string text = "%" + n + " = " + shape.str() + " " + opcode.str() + "(";
  for (auto [i, o] : llvm::enumerate(operands))
    text += (i ? ", %" : "%") + o;
  text += ")";
  if (!attrs.empty())
    text += ", " + attrs.str();
  lines.push_back({n, text});
  return n;
}

std::string xspmd::hlo::formatScalar(double value, Type element) {
  if (element.isInteger(1))
    return value != 0 ? "true" : "false";
  if (isa<IntegerType>(element))
    return std::to_string(static_cast<int64_t>(value));
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  // Enough digits to read the same value back.
  char buffer[32];
  snprintf(buffer, sizeof(buffer), element.isF64() ? "%.17g" : "%.9g", value);
  return buffer;
}

std::string ComputationExporter::emitConstant(Type type, StringRef literal) {
  std::string n = module.uniqueName("constant");
  lines.push_back({n, "%" + n + " = " + hloShape(type) + " constant(" +
                          literal.str() + ")"});
  return n;
}

std::string ComputationExporter::emitScalar(double value, Type element) {
  return emitConstant(RankedTensorType::get({}, element),
                      formatScalar(value, element));
}

std::string ComputationExporter::emitSplat(double value,
                                           RankedTensorType type) {
  std::string c = emitScalar(value, type.getElementType());
  if (type.getRank() == 0)
    return c;
  return emit("broadcast", type, "broadcast", {c}, "dimensions={}");
}

SmallVector<std::string>
ComputationExporter::emitUntuple(const std::string &tuple, TypeRange types) {
  SmallVector<std::string> elements;
  for (auto [i, t] : llvm::enumerate(types))
    elements.push_back(emit("get-tuple-element", t, "get-tuple-element",
                            {tuple}, "index=" + std::to_string(i)));
  return elements;
}

void ComputationExporter::addSharding(const std::string &valueName,
                                      StringRef text) {
  for (Line &line : lines)
    if (line.name == valueName) {
      if (StringRef(line.text).contains(", sharding="))
        return;
      line.text += ", sharding=" + text.str();
      return;
    }
}

FailureOr<std::string> ComputationExporter::lookup(Value value,
                                                   Operation *user) {
  auto it = names.find(value);
  if (it == names.end())
    return user->emitError() << "internal: an operand of '" << user->getName()
                             << "' has no HLO instruction";
  return it->second;
}

LogicalResult
ComputationExporter::lookupAll(ValueRange values, Operation *user,
                               SmallVectorImpl<std::string> &out) {
  for (Value v : values) {
    FailureOr<std::string> n = lookup(v, user);
    if (failed(n))
      return failure();
    out.push_back(*n);
  }
  return success();
}

LogicalResult ComputationExporter::exportOps(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(exportOp(&op)))
      return failure();
  return success();
}

/// `metadata={op_name=... source_file=... source_line=...}` for a location
/// `name(file:line:col)` (what the importer makes of metadata), else empty.
static std::string metadataText(Location loc) {
  auto named = dyn_cast<NameLoc>(loc);
  if (!named)
    return "";
  auto escape = [](StringRef text) {
    std::string out;
    for (char c : text) {
      if (c == '"' || c == '\\')
        out.push_back('\\');
      out.push_back(c);
    }
    return out;
  };
  std::string text = "metadata={op_name=\"" + escape(named.getName()) + "\"";
  if (auto file = dyn_cast<FileLineColLoc>(named.getChildLoc()))
    text += " source_file=\"" + escape(file.getFilename()) +
            "\" source_line=" + std::to_string(file.getLine());
  return text + "}";
}

void ComputationExporter::addMetadata(const std::string &valueName,
                                      StringRef text) {
  for (Line &line : lines)
    if (line.name == valueName) {
      if (!line.isParameter && !StringRef(line.text).contains("metadata="))
        line.text += ", " + text.str();
      return;
    }
}

LogicalResult ComputationExporter::exportOp(Operation *op) {
  if (failed(exportOperation(*this, op)))
    return failure();
  if (op->getNumResults() >= 1) {
    std::string metadata = metadataText(op->getLoc());
    if (!metadata.empty())
      addMetadata(names[op->getResult(0)], metadata);
  }
  // The op's own sharding goes on the instruction giving its result.
  Attribute attr = op->getAttr(xla::kShardingAttrName);
  if (!attr || isa<xla::MarkShardingOp>(op))
    return success();
  if (auto s = dyn_cast<xla::ShardingAttr>(attr)) {
    if (op->getNumResults() != 1)
      return success();
    FailureOr<std::string> text = module.shardingText(s, op);
    if (failed(text))
      return failure();
    addSharding(names[op->getResult(0)], *text);
  }
  return success();
}

std::string ComputationExporter::finish(ArrayRef<std::string> results,
                                        TypeRange types, bool entry,
                                        StringRef rootSharding,
                                        bool forceTuple) {
  std::string root;
  bool single = results.size() == 1 && !forceTuple;
  if (single) {
    // The value itself is the ROOT unless it is already marked otherwise.
    root = results.front();
  } else {
    root = emit("tuple", hloTupleShape(types), "tuple",
                SmallVector<std::string>(results));
  }
  std::string text;
  text += entry ? "ENTRY %" : "%";
  text += name + " (";
  for (auto [i, p] : llvm::enumerate(params))
    text += (i ? ", " : "") + p.first + ": " + p.second;
  text += ") -> " + (single ? hloShape(types.front()) : hloTupleShape(types)) +
          " {\n";
  // A ROOT that is used twice or is a parameter is copied, so that the
  // sharding attached to the ROOT is the result's alone.
  bool needCopy = false;
  for (const Line &line : lines)
    if (line.name == root &&
        (line.isParameter || (!rootSharding.empty() &&
                              StringRef(line.text).contains(", sharding="))))
      needCopy = true;
  if (needCopy) {
    std::string shape = single ? hloShape(types.front()) : hloTupleShape(types);
    root = emit("copy", shape, "copy", {root});
  }
  for (Line &line : lines) {
    if (line.name == root) {
      if (!rootSharding.empty())
        line.text += ", sharding=" + rootSharding.str();
      text += "  ROOT " + line.text + "\n";
    } else {
      text += "  " + line.text + "\n";
    }
  }
  text += "}\n";
  module.addComputation(text);
  return name;
}

FailureOr<std::string>
ComputationExporter::exportScalarRegion(ModuleExporter &module, Region &region,
                                        StringRef base) {
  ComputationExporter ce(module, module.uniqueName(base));
  Block &block = region.front();
  for (BlockArgument arg : block.getArguments())
    ce.bind(arg, ce.addParameter(arg.getType()));
  if (failed(ce.exportOps(block)))
    return failure();
  Operation *yield = block.getTerminator();
  SmallVector<std::string> results;
  if (failed(ce.lookupAll(yield->getOperands(), yield, results)))
    return failure();
  return ce.finish(results, yield->getOperandTypes());
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

LogicalResult xspmd::hlo::exportHloModule(ModuleOp module, raw_ostream &os,
                                          StringRef function) {
  std::string text;
  llvm::raw_string_ostream buffer(text);
  ModuleExporter exporter(module);
  if (failed(exporter.run(function, buffer)))
    return failure();
  os << text;
  return success();
}
