//===- XlaShardingRule.cpp - op sharding rules as data --------------------===//

#include "dialects/xla/XlaShardingRule.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <numeric>

using namespace mlir;

#include "dialects/xla/XlaShardingRuleInterface.cpp.inc"

namespace xspmd::xla {

StringRef stringifyFactorKind(FactorKind kind) {
  switch (kind) {
  case FactorKind::passThrough:
    return "pass_through";
  case FactorKind::reduction:
    return "reduction";
  case FactorKind::needReplication:
    return "need_replication";
  case FactorKind::permutation:
    return "permutation";
  }
  llvm_unreachable("unknown factor kind");
}

std::string factorName(int64_t f) {
  constexpr int64_t kLetters = 'z' - 'i' + 1;
  if (f < kLetters)
    return std::string(1, static_cast<char>('i' + f));
  return "z_" + std::to_string(f - kLetters + 1);
}

//===----------------------------------------------------------------------===//
// OpShardingRule
//===----------------------------------------------------------------------===//

bool OpShardingRule::hasKind(FactorKind kind) const {
  return llvm::is_contained(factorKinds, kind);
}

bool OpShardingRule::operator==(const OpShardingRule &other) const {
  return factorSizes == other.factorSizes && factorKinds == other.factorKinds &&
         reductionKind == other.reductionKind && operands == other.operands &&
         results == other.results;
}

static void printTensors(raw_ostream &os, ArrayRef<TensorFactors> tensors) {
  os << '(';
  llvm::interleaveComma(tensors, os, [&](const TensorFactors &tensor) {
    os << '[';
    llvm::interleaveComma(tensor, os, [&](const DimFactors &dim) {
      if (dim.empty())
        os << '1';
      for (int64_t f : dim)
        os << factorName(f);
    });
    os << ']';
  });
  os << ')';
}

void OpShardingRule::print(raw_ostream &os) const {
  printTensors(os, operands);
  os << "->";
  printTensors(os, results);
  os << " {";
  for (int64_t f = 0, e = getNumFactors(); f < e; ++f)
    os << (f ? ", " : "") << factorName(f) << '=' << factorSizes[f];
  os << '}';
  for (FactorKind kind : {FactorKind::reduction, FactorKind::needReplication,
                          FactorKind::permutation}) {
    SmallVector<std::string> names;
    for (int64_t f = 0, e = getNumFactors(); f < e; ++f)
      if (factorKinds[f] == kind)
        names.push_back(factorName(f));
    if (names.empty())
      continue;
    os << ' ' << stringifyFactorKind(kind);
    if (kind == FactorKind::reduction && reductionKind != ReductionKind::sum)
      os << '<' << stringifyReductionKind(reductionKind) << '>';
    os << "={" << llvm::join(names, ", ") << '}';
  }
}

std::string OpShardingRule::str() const {
  std::string s;
  llvm::raw_string_ostream os(s);
  print(os);
  return s;
}

//===----------------------------------------------------------------------===//
// OpShardingRuleBuilder
//===----------------------------------------------------------------------===//

OpShardingRuleBuilder::OpShardingRuleBuilder(
    ArrayRef<ArrayRef<int64_t>> operandShapes,
    ArrayRef<ArrayRef<int64_t>> resultShapes) {
  for (ArrayRef<int64_t> shape : operandShapes) {
    this->operandShapes.emplace_back(shape);
    rule.operands.emplace_back(shape.size());
  }
  for (ArrayRef<int64_t> shape : resultShapes) {
    this->resultShapes.emplace_back(shape);
    rule.results.emplace_back(shape.size());
  }
}

static SmallVector<ArrayRef<int64_t>> shapesOf(ValueRange values) {
  return llvm::map_to_vector(values, [](Value v) -> ArrayRef<int64_t> {
    if (auto tensor = dyn_cast<RankedTensorType>(v.getType()))
      return tensor.getShape();
    return {};
  });
}

OpShardingRuleBuilder::OpShardingRuleBuilder(Operation *op)
    : OpShardingRuleBuilder(shapesOf(op->getOperands()),
                            shapesOf(op->getResults())) {}

int64_t OpShardingRuleBuilder::addFactor(int64_t size, FactorKind kind) {
  if (size == 1)
    return -1;
  rule.factorSizes.push_back(size);
  rule.factorKinds.push_back(kind);
  return rule.factorSizes.size() - 1;
}

int64_t OpShardingRuleBuilder::addFactor(ArrayRef<int64_t> operandDims,
                                         ArrayRef<int64_t> resultDims,
                                         int64_t size, FactorKind kind) {
  int64_t f = addFactor(size, kind);
  for (auto [i, dim] : llvm::enumerate(operandDims))
    if (dim >= 0)
      mapOperand(i, dim, f);
  for (auto [i, dim] : llvm::enumerate(resultDims))
    if (dim >= 0)
      mapResult(i, dim, f);
  return f;
}

int64_t OpShardingRuleBuilder::addWindowedFactor(ArrayRef<int64_t> operandDims,
                                                 ArrayRef<int64_t> resultDims,
                                                 int64_t size) {
  int64_t f = addFactor(operandDims, resultDims, size, FactorKind::permutation);
  if (f >= 0)
    return f;
  for (auto [i, dim] : llvm::enumerate(operandDims))
    if (dim >= 0)
      mapOperand(i, dim,
                 addFactor(operandShapes[i][dim], FactorKind::needReplication));
  return f;
}

void OpShardingRuleBuilder::mapOperand(int64_t operand, int64_t dim,
                                       int64_t f) {
  if (f >= 0)
    rule.operands[operand][dim].push_back(f);
}

void OpShardingRuleBuilder::mapResult(int64_t result, int64_t dim, int64_t f) {
  if (f >= 0)
    rule.results[result][dim].push_back(f);
}

OpShardingRuleBuilder &OpShardingRuleBuilder::addPointwise(FactorKind kind) {
  ArrayRef<int64_t> shape =
      !resultShapes.empty() ? resultShapes.front() : operandShapes.front();
  for (auto [d, size] : llvm::enumerate(shape)) {
    SmallVector<int64_t> operandDims(getNumOperands(), d);
    SmallVector<int64_t> resultDims(getNumResults(), d);
    addFactor(operandDims, resultDims, size, kind);
  }
  return *this;
}

OpShardingRule reshapeRule(ArrayRef<int64_t> inShape,
                           ArrayRef<int64_t> outShape) {
  OpShardingRuleBuilder b({inShape}, {outShape});
  size_t n = inShape.size(), m = outShape.size();
  if (llvm::is_contained(inShape, 0) || llvm::is_contained(outShape, 0)) {
    // No elements: nothing to share, nothing worth sharding.
    for (auto [d, size] : llvm::enumerate(inShape))
      b.mapOperand(0, d, b.addFactor(size, FactorKind::needReplication));
    for (auto [d, size] : llvm::enumerate(outShape))
      b.mapResult(0, d, b.addFactor(size, FactorKind::needReplication));
    return b.build();
  }
  size_t i = 0, j = 0;
  int64_t remIn = 1, remOut = 1;
  // Moves to the next dimension of size > 1 on each side that is exhausted.
  auto advance = [&] {
    if (remIn == 1) {
      while (i < n && inShape[i] == 1)
        ++i;
      remIn = i < n ? inShape[i] : 1;
    }
    if (remOut == 1) {
      while (j < m && outShape[j] == 1)
        ++j;
      remOut = j < m ? outShape[j] : 1;
    }
  };
  advance();
  while (i < n && j < m) {
    int64_t g = std::gcd(remIn, remOut);
    if (g > 1) {
      // The major `g` of both remaining dimensions coincide in the row-major
      // order: a shared factor.
      int64_t f = b.addFactor(g);
      b.mapOperand(0, i, f);
      b.mapResult(0, j, f);
      remIn /= g;
      remOut /= g;
      if (remIn == 1)
        ++i;
      if (remOut == 1)
        ++j;
      advance();
      continue;
    }
    // Coprime remainders: no factor can be shared until the running products
    // of both sides agree again. Each side keeps its own factors, which must
    // not be sharded.
    int64_t prodIn = remIn, prodOut = remOut;
    b.mapOperand(0, i, b.addFactor(remIn, FactorKind::needReplication));
    b.mapResult(0, j, b.addFactor(remOut, FactorKind::needReplication));
    ++i;
    ++j;
    while (prodIn != prodOut && (i < n || j < m)) {
      if (prodIn < prodOut && i < n) {
        b.mapOperand(0, i,
                     b.addFactor(inShape[i], FactorKind::needReplication));
        prodIn *= inShape[i++];
      } else if (j < m) {
        b.mapResult(0, j,
                    b.addFactor(outShape[j], FactorKind::needReplication));
        prodOut *= outShape[j++];
      } else {
        break;
      }
    }
    remIn = remOut = 1;
    advance();
  }
  return b.build();
}

//===----------------------------------------------------------------------===//
// Lookup and verification
//===----------------------------------------------------------------------===//

std::optional<OpShardingRule> getShardingRule(Operation *op) {
  if (auto attr = op->getAttrOfType<OpShardingRuleAttr>(kShardingRuleAttrName))
    return ruleFromAttr(attr);
  if (auto iface = dyn_cast<ShardingRuleOpInterface>(op))
    return iface.getShardingRule();
  return std::nullopt;
}

LogicalResult verifyShardingRule(const OpShardingRule &rule, Operation *op,
                                 function_ref<InFlightDiagnostic()> emitError) {
  auto checkTensors = [&](ArrayRef<TensorFactors> tensors, ValueRange values,
                          StringRef what) -> LogicalResult {
    if (tensors.size() != values.size())
      return emitError() << "sharding rule has " << tensors.size() << " "
                         << what << "s but the op has " << values.size();
    for (auto [t, tensor] : llvm::enumerate(tensors)) {
      auto type = dyn_cast<RankedTensorType>(values[t].getType());
      int64_t rank = type ? type.getRank() : 0;
      if (static_cast<int64_t>(tensor.size()) != rank)
        return emitError() << "sharding rule gives " << what << " " << t << " "
                           << tensor.size() << " dimensions but it has rank "
                           << rank;
      for (auto [d, dim] : llvm::enumerate(tensor)) {
        int64_t product = 1;
        for (int64_t f : dim) {
          if (what == "result" && rule.factorKinds[f] == FactorKind::reduction)
            return emitError()
                   << "sharding rule maps reduction factor " << factorName(f)
                   << " to result " << t << "; reduction factors belong to "
                   << "operands only";
          product *= rule.factorSizes[f];
        }
        int64_t size = type.getDimSize(d);
        bool windowed = dim.size() == 1 && rule.factorKinds[dim.front()] ==
                                               FactorKind::permutation;
        if (product != size && !windowed)
          return emitError() << "sharding rule makes dimension " << d << " of "
                             << what << " " << t << " of size " << product
                             << " but it has size " << size;
      }
    }
    return success();
  };
  if (failed(checkTensors(rule.operands, op->getOperands(), "operand")) ||
      failed(checkTensors(rule.results, op->getResults(), "result")))
    return failure();
  SmallVector<bool> used(rule.getNumFactors(), false);
  for (int64_t t = 0, e = rule.getNumTensors(); t < e; ++t)
    for (const DimFactors &dim : rule.getTensor(t))
      for (int64_t f : dim)
        used[f] = true;
  for (auto [f, isUsed] : llvm::enumerate(used))
    if (!isUsed)
      return emitError() << "sharding rule factor " << factorName(f)
                         << " is used by no dimension";
  return success();
}

//===----------------------------------------------------------------------===//
// OpShardingRuleAttr
//===----------------------------------------------------------------------===//

OpShardingRule ruleFromAttr(OpShardingRuleAttr attr) {
  OpShardingRule rule;
  rule.factorSizes.assign(attr.getFactorSizes().begin(),
                          attr.getFactorSizes().end());
  rule.factorKinds.assign(rule.factorSizes.size(), FactorKind::passThrough);
  for (int64_t f : attr.getReductionFactors())
    rule.factorKinds[f] = FactorKind::reduction;
  for (int64_t f : attr.getNeedReplicationFactors())
    rule.factorKinds[f] = FactorKind::needReplication;
  for (int64_t f : attr.getPermutationFactors())
    rule.factorKinds[f] = FactorKind::permutation;
  rule.reductionKind = attr.getReductionKind();
  auto convert = [](ArrayRef<TensorMappingAttr> mappings,
                    SmallVectorImpl<TensorFactors> &tensors) {
    for (TensorMappingAttr mapping : mappings) {
      TensorFactors &tensor = tensors.emplace_back();
      for (DimMappingAttr dim : mapping.getDims())
        tensor.emplace_back(dim.getFactors().begin(), dim.getFactors().end());
    }
  };
  convert(attr.getOperandMappings(), rule.operands);
  convert(attr.getResultMappings(), rule.results);
  return rule;
}

OpShardingRuleAttr ruleToAttr(MLIRContext *ctx, const OpShardingRule &rule) {
  auto convert = [&](ArrayRef<TensorFactors> tensors) {
    return llvm::map_to_vector(tensors, [&](const TensorFactors &tensor) {
      SmallVector<DimMappingAttr> dims =
          llvm::map_to_vector(tensor, [&](const DimFactors &dim) {
            return DimMappingAttr::get(ctx, dim);
          });
      return TensorMappingAttr::get(ctx, dims);
    });
  };
  SmallVector<int64_t> byKind[4];
  for (auto [f, kind] : llvm::enumerate(rule.factorKinds))
    byKind[static_cast<int>(kind)].push_back(f);
  return OpShardingRuleAttr::get(
      ctx, rule.factorSizes, convert(rule.operands), convert(rule.results),
      byKind[static_cast<int>(FactorKind::reduction)],
      byKind[static_cast<int>(FactorKind::needReplication)],
      byKind[static_cast<int>(FactorKind::permutation)], rule.reductionKind);
}

LogicalResult OpShardingRuleAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, ArrayRef<int64_t> factorSizes,
    ArrayRef<TensorMappingAttr> operandMappings,
    ArrayRef<TensorMappingAttr> resultMappings,
    ArrayRef<int64_t> reductionFactors,
    ArrayRef<int64_t> needReplicationFactors,
    ArrayRef<int64_t> permutationFactors, ReductionKind) {
  int64_t numFactors = factorSizes.size();
  for (auto [f, size] : llvm::enumerate(factorSizes))
    if (size < 1)
      return emitError() << "factor " << factorName(f) << " has size " << size
                         << "; sizes must be positive";
  auto checkIndex = [&](int64_t f) -> LogicalResult {
    if (f < 0 || f >= numFactors)
      return emitError() << "factor index " << f << " is out of range (the "
                         << "rule has " << numFactors << " factors)";
    return success();
  };
  for (ArrayRef<TensorMappingAttr> mappings : {operandMappings, resultMappings})
    for (TensorMappingAttr tensor : mappings)
      for (DimMappingAttr dim : tensor.getDims())
        for (int64_t f : dim.getFactors())
          if (failed(checkIndex(f)))
            return failure();
  SmallVector<bool> kinded(numFactors, false);
  for (ArrayRef<int64_t> list :
       {reductionFactors, needReplicationFactors, permutationFactors})
    for (int64_t f : list) {
      if (failed(checkIndex(f)))
        return failure();
      if (kinded[f])
        return emitError() << "factor " << factorName(f)
                           << " is given two kinds";
      kinded[f] = true;
    }
  return success();
}

void OpShardingRuleAttr::print(AsmPrinter &printer) const {
  printer << '<';
  ruleFromAttr(*this).print(printer.getStream());
  printer << '>';
}

namespace {
/// Parses the text form; factor names are resolved through the size block,
/// which lists every factor, so tensors are kept as names until then.
struct RuleParser {
  AsmParser &parser;
  using NamedDim = SmallVector<std::string, 2>;
  using NamedTensor = SmallVector<NamedDim, 4>;

  /// Splits "ijz_1k" into i, j, z_1, k.
  ParseResult splitNames(StringRef word, SMLoc loc, NamedDim &names) {
    while (!word.empty()) {
      if (!llvm::isAlpha(word.front()))
        return parser.emitError(loc) << "bad factor name in '" << word << "'";
      size_t len = 1;
      if (word.size() > 1 && word[1] == '_') {
        len = 2;
        while (len < word.size() && llvm::isDigit(word[len]))
          ++len;
        if (len == 2)
          return parser.emitError(loc) << "bad factor name in '" << word << "'";
      }
      names.push_back(word.take_front(len).str());
      word = word.drop_front(len);
    }
    return success();
  }

  ParseResult parseTensors(std::vector<NamedTensor> &tensors) {
    if (parser.parseLParen())
      return failure();
    if (succeeded(parser.parseOptionalRParen()))
      return success();
    if (parser.parseCommaSeparatedList([&]() -> ParseResult {
          NamedTensor &tensor = tensors.emplace_back();
          return parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                NamedDim &dim = tensor.emplace_back();
                SMLoc loc = parser.getCurrentLocation();
                int64_t one = 0;
                OptionalParseResult isInt = parser.parseOptionalInteger(one);
                if (isInt.has_value()) {
                  if (failed(*isInt))
                    return failure();
                  if (one != 1)
                    return parser.emitError(loc)
                           << "a dimension is factor names or 1, not " << one;
                  return success();
                }
                StringRef word;
                if (parser.parseKeyword(&word))
                  return failure();
                return splitNames(word, loc, dim);
              });
        }))
      return failure();
    return parser.parseRParen();
  }
};
} // namespace

Attribute OpShardingRuleAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  RuleParser rp{parser};
  std::vector<RuleParser::NamedTensor> operands, results;
  if (parser.parseLess() || rp.parseTensors(operands) || parser.parseArrow() ||
      rp.parseTensors(results))
    return {};
  llvm::StringMap<int64_t> index;
  SmallVector<int64_t> sizes;
  auto parseSize = [&]() -> ParseResult {
    SMLoc nameLoc = parser.getCurrentLocation();
    StringRef name;
    int64_t size = 0;
    if (parser.parseKeyword(&name) || parser.parseEqual() ||
        parser.parseInteger(size))
      return failure();
    RuleParser::NamedDim split;
    if (rp.splitNames(name, nameLoc, split) || split.size() != 1)
      return parser.emitError(nameLoc) << "bad factor name '" << name << "'";
    if (!index.try_emplace(name, sizes.size()).second)
      return parser.emitError(nameLoc)
             << "factor '" << name << "' is declared twice";
    sizes.push_back(size);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Braces, parseSize))
    return {};
  auto resolve = [&](StringRef name, int64_t &f) -> ParseResult {
    auto it = index.find(name);
    if (it == index.end())
      return parser.emitError(loc)
             << "factor '" << name << "' has no size in the '{...}' block";
    f = it->second;
    return success();
  };
  SmallVector<int64_t> kinds[3];
  ReductionKind reductionKind = ReductionKind::sum;
  StringRef kindName;
  while (succeeded(parser.parseOptionalKeyword(&kindName))) {
    int k = kindName == "reduction"          ? 0
            : kindName == "need_replication" ? 1
            : kindName == "permutation"      ? 2
                                             : -1;
    if (k < 0) {
      parser.emitError(loc) << "unknown factor kind '" << kindName
                            << "' (expected reduction, need_replication, "
                               "permutation)";
      return {};
    }
    if (k == 0 && succeeded(parser.parseOptionalLess())) {
      StringRef name;
      if (parser.parseKeyword(&name) || parser.parseGreater())
        return {};
      std::optional<ReductionKind> parsed = symbolizeReductionKind(name);
      if (!parsed) {
        parser.emitError(loc) << "unknown reduction '" << name << "'";
        return {};
      }
      reductionKind = *parsed;
    }
    if (parser.parseEqual() ||
        parser.parseCommaSeparatedList(
            AsmParser::Delimiter::Braces, [&]() -> ParseResult {
              StringRef name;
              int64_t f;
              if (parser.parseKeyword(&name) || resolve(name, f))
                return failure();
              kinds[k].push_back(f);
              return success();
            }))
      return {};
  }
  if (parser.parseGreater())
    return {};
  MLIRContext *ctx = parser.getContext();
  auto build = [&](ArrayRef<RuleParser::NamedTensor> tensors,
                   SmallVectorImpl<TensorMappingAttr> &out) -> ParseResult {
    for (const RuleParser::NamedTensor &tensor : tensors) {
      SmallVector<DimMappingAttr> dims;
      for (const RuleParser::NamedDim &dim : tensor) {
        SmallVector<int64_t> factors;
        for (const std::string &name : dim)
          if (resolve(name, factors.emplace_back()))
            return failure();
        dims.push_back(DimMappingAttr::get(ctx, factors));
      }
      out.push_back(TensorMappingAttr::get(ctx, dims));
    }
    return success();
  };
  SmallVector<TensorMappingAttr> operandMappings, resultMappings;
  if (build(operands, operandMappings) || build(results, resultMappings))
    return {};
  return OpShardingRuleAttr::getChecked(
      [&] { return parser.emitError(loc); }, ctx, ArrayRef<int64_t>(sizes),
      ArrayRef<TensorMappingAttr>(operandMappings),
      ArrayRef<TensorMappingAttr>(resultMappings), ArrayRef<int64_t>(kinds[0]),
      ArrayRef<int64_t>(kinds[1]), ArrayRef<int64_t>(kinds[2]), reductionKind);
}

} // namespace xspmd::xla
