//===- HloShapeInference.cpp - result shapes the text leaves out ----------===//
//
// XLA's parser accepts an instruction written without its result shape
// (`%s = add(%a, %b)`) when shape inference can give it. These are XLA's
// rules for the opcodes whose result follows from operands and attributes;
// opcodes whose result the text must state (broadcast, reshape, convert,
// constant, iota, custom-call, ...) get a located error naming the opcode.
// Computations are visited in text order, as XLA prints callees first.
//
//===----------------------------------------------------------------------===//

#include "lib/hlo/HloAttrText.h"
#include "lib/hlo/HloParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"

using namespace xspmd::hlo;
using llvm::SMLoc;
using llvm::StringRef;

namespace {

bool isSameShapeUnary(StringRef op) {
  return llvm::StringSwitch<bool>(op)
      .Cases({"abs", "negate", "exponential", "exponential-minus-one", "log",
              "log-plus-one", "tanh", "sqrt", "rsqrt", "cbrt", "sine"},
             true)
      .Cases({"cosine", "tan", "floor", "ceil", "sign", "logistic", "copy",
              "not", "round-nearest-afz", "round-nearest-even", "erf"},
             true)
      .Cases({"popcnt", "count-leading-zeros", "collective-permute",
              "all-reduce-start", "all-reduce-done", "optimization-barrier",
              "add-dependency", "reverse", "dynamic-update-slice",
              "stochastic-convert", "reduce-precision"},
             true)
      .Cases({"cross-program-prefetch", "copy-done"}, false)
      .Default(false);
}

bool isSameShapeBinary(StringRef op) {
  return llvm::StringSwitch<bool>(op)
      .Cases({"add", "subtract", "multiply", "divide", "maximum", "minimum",
              "power", "remainder", "and", "or", "xor", "atan2"},
             true)
      .Cases({"shift-left", "shift-right-arithmetic", "shift-right-logical",
              "complex"},
             true)
      .Default(false);
}

class ShapeInference {
public:
  ShapeInference(Module &module, ParseError &error)
      : module(module), error(error) {}

  bool run() {
    for (Computation &comp : module.computations) {
      llvm::StringMap<const Shape *> shapes;
      for (Instruction &inst : comp.instructions) {
        if (!inst.shapeWritten && !infer(inst, shapes))
          return false;
        shapes[inst.name] = &inst.shape;
      }
      roots[comp.name] = &comp.getRoot().shape;
    }
    return true;
  }

private:
  bool fail(SMLoc loc, const llvm::Twine &message) {
    error.loc = loc;
    error.message = message.str();
    return false;
  }
  bool cannot(const Instruction &inst, const llvm::Twine &why) {
    return fail(inst.opcodeLoc, "cannot infer the shape of '%" + inst.name +
                                    "' (" + inst.opcode + "): " + why +
                                    "; write it (e.g. '%" + inst.name +
                                    " = f32[8] " + inst.opcode + "(...)')");
  }
  const HloAttr *attr(const Instruction &inst, StringRef name) {
    for (const HloAttr &a : inst.attributes)
      if (a.name == name)
        return &a;
    return nullptr;
  }
  bool intList(const Instruction &inst, StringRef name,
               llvm::SmallVectorImpl<int64_t> &values) {
    const HloAttr *a = attr(inst, name);
    if (!a)
      return cannot(inst, "it has no '" + name + "='");
    std::string why;
    if (!readIntList(a->value, values, why))
      return fail(a->loc, "attribute '" + name + "': " + why);
    return true;
  }
  bool array(const Instruction &inst, const Shape *s, unsigned i) {
    if (s->isTuple)
      return cannot(inst, "operand " + llvm::Twine(i) + " is a tuple");
    return true;
  }

  bool infer(Instruction &inst, llvm::StringMap<const Shape *> &shapes);

  Module &module;
  ParseError &error;
  llvm::StringMap<const Shape *> roots;
};

bool ShapeInference::infer(Instruction &inst,
                           llvm::StringMap<const Shape *> &shapes) {
  std::vector<const Shape *> ops;
  for (const Operand &o : inst.operands) {
    auto it = shapes.find(o.name);
    if (it == shapes.end())
      return fail(o.loc, "operand '%" + o.name + "' of '%" + inst.name +
                             "' is not defined before it (its shape is "
                             "needed to infer '%" +
                             inst.name + "')");
    ops.push_back(it->second);
  }
  StringRef op = inst.opcode;
  Shape &out = inst.shape;
  auto need = [&](size_t n) {
    if (ops.size() >= n)
      return true;
    return cannot(inst, "it has " + llvm::Twine(ops.size()) + " operands");
  };
  auto element = [&](size_t i, size_t index) -> const Shape * {
    const Shape *s = ops[i];
    if (!s->isTuple || index >= s->elements.size()) {
      cannot(inst, "operand " + llvm::Twine(i) + " has no tuple element " +
                       llvm::Twine(index));
      return nullptr;
    }
    return &s->elements[index];
  };
  auto calledRoot = [&](StringRef attrName) -> const Shape * {
    const HloAttr *a = attr(inst, attrName);
    if (!a) {
      cannot(inst, "it has no '" + attrName + "='");
      return nullptr;
    }
    // `{%a, %b}` (branch_computations): every branch has the same shape.
    std::string first = readComputationName(a->value);
    std::vector<std::string> names;
    std::string why;
    if (StringRef(a->value).trim().starts_with("{")) {
      if (!readComputationList(a->value, names, why) || names.empty()) {
        fail(a->loc, "attribute '" + attrName + "': " + why);
        return nullptr;
      }
      first = names.front();
    }
    auto it = roots.find(first);
    if (it == roots.end()) {
      cannot(inst, "computation '" + first + "' is not defined before it");
      return nullptr;
    }
    return it->second;
  };

  if (isSameShapeUnary(op) || isSameShapeBinary(op)) {
    if (!need(1))
      return false;
    out = *ops[0];
    out.minorToMajor.clear();
    if (op == "complex" && !out.isTuple)
      out.elementType = out.elementType == "f64" ? "c128" : "c64";
    return true;
  }
  if (op == "is-finite" || op == "compare") {
    if (!need(1) || !array(inst, ops[0], 0))
      return false;
    out.dims = ops[0]->dims;
    out.elementType = "pred";
    return true;
  }
  if (op == "real" || op == "imag" || op == "abs") {
    if (!need(1) || !array(inst, ops[0], 0))
      return false;
    out = *ops[0];
    if (out.elementType == "c64")
      out.elementType = "f32";
    else if (out.elementType == "c128")
      out.elementType = "f64";
    return true;
  }
  if (op == "select" || op == "clamp") {
    if (!need(3))
      return false;
    out = *ops[1];
    return true;
  }
  if (op == "tuple") {
    out.isTuple = true;
    for (const Shape *s : ops)
      out.elements.push_back(*s);
    return true;
  }
  if (op == "get-tuple-element") {
    int64_t index;
    std::string why;
    const HloAttr *a = attr(inst, "index");
    if (!need(1))
      return false;
    if (!a)
      return cannot(inst, "it has no 'index='");
    if (!readInt(a->value, index, why))
      return fail(a->loc, "attribute 'index': " + why);
    const Shape *e = element(0, index);
    if (!e)
      return false;
    out = *e;
    return true;
  }
  if (op == "copy-done" || op == "all-gather-done" ||
      op == "collective-permute-done" || op == "async-done") {
    // copy-start: (destination, source, context); the others: (operands,
    // result, context...).
    if (!need(1))
      return false;
    const Shape *e = element(0, op == "copy-done" ? 0 : 1);
    if (!e)
      return false;
    out = *e;
    return true;
  }
  if (op == "copy-start") {
    if (!need(1))
      return false;
    out.isTuple = true;
    out.elements = {*ops[0], *ops[0], Shape()};
    out.elements[2].elementType = "u32";
    return true;
  }
  if (op == "transpose") {
    llvm::SmallVector<int64_t> perm;
    if (!need(1) || !array(inst, ops[0], 0) ||
        !intList(inst, "dimensions", perm))
      return false;
    if (perm.size() != ops[0]->dims.size())
      return cannot(inst, "dimensions= does not match the operand's rank");
    out.elementType = ops[0]->elementType;
    for (int64_t d : perm) {
      if (d < 0 || d >= (int64_t)ops[0]->dims.size())
        return cannot(inst, "dimensions= is not a permutation");
      out.dims.push_back(ops[0]->dims[d]);
    }
    return true;
  }
  if (op == "concatenate") {
    llvm::SmallVector<int64_t> dims;
    if (!need(1) || !array(inst, ops[0], 0) ||
        !intList(inst, "dimensions", dims))
      return false;
    if (dims.size() != 1 || dims[0] < 0 ||
        dims[0] >= (int64_t)ops[0]->dims.size())
      return cannot(inst, "dimensions= must name one dimension");
    out.elementType = ops[0]->elementType;
    out.dims = ops[0]->dims;
    out.dims[dims[0]] = 0;
    for (auto [i, s] : llvm::enumerate(ops)) {
      if (!array(inst, s, i) || s->dims.size() != out.dims.size())
        return cannot(inst, "the operands' ranks differ");
      out.dims[dims[0]] += s->dims[dims[0]];
    }
    return true;
  }
  if (op == "slice") {
    const HloAttr *a = attr(inst, "slice");
    if (!need(1) || !array(inst, ops[0], 0))
      return false;
    if (!a)
      return cannot(inst, "it has no 'slice='");
    SliceDims slice;
    std::string why;
    if (!readSlice(a->value, slice, why))
      return fail(a->loc, "attribute 'slice': " + why);
    if (slice.start.size() != ops[0]->dims.size())
      return cannot(inst, "slice= does not match the operand's rank");
    out.elementType = ops[0]->elementType;
    for (auto [start, limit, stride] :
         llvm::zip(slice.start, slice.limit, slice.stride)) {
      if (stride <= 0 || limit < start)
        return cannot(inst, "a slice range is empty or has a bad stride");
      out.dims.push_back((limit - start + stride - 1) / stride);
    }
    return true;
  }
  if (op == "dot") {
    llvm::SmallVector<int64_t> lb, rb, lc, rc;
    if (!need(2) || !array(inst, ops[0], 0) || !array(inst, ops[1], 1))
      return false;
    std::string why;
    for (auto [name, list] :
         {std::pair<StringRef, llvm::SmallVector<int64_t> *>{"lhs_batch_dims",
                                                             &lb},
          {"rhs_batch_dims", &rb},
          {"lhs_contracting_dims", &lc},
          {"rhs_contracting_dims", &rc}})
      if (const HloAttr *a = attr(inst, name))
        if (!readIntList(a->value, *list, why))
          return fail(a->loc, "attribute '" + name + "': " + why);
    const Shape &l = *ops[0], &r = *ops[1];
    auto valid = [](const llvm::SmallVector<int64_t> &ds, const Shape &s) {
      return llvm::all_of(
          ds, [&](int64_t d) { return d >= 0 && d < (int64_t)s.dims.size(); });
    };
    if (!valid(lb, l) || !valid(lc, l) || !valid(rb, r) || !valid(rc, r))
      return cannot(inst, "a dimension number is out of range");
    out.elementType = l.elementType;
    for (int64_t d : lb)
      out.dims.push_back(l.dims[d]);
    for (auto [i, n] : llvm::enumerate(l.dims))
      if (!llvm::is_contained(lb, (int64_t)i) &&
          !llvm::is_contained(lc, (int64_t)i))
        out.dims.push_back(n);
    for (auto [i, n] : llvm::enumerate(r.dims))
      if (!llvm::is_contained(rb, (int64_t)i) &&
          !llvm::is_contained(rc, (int64_t)i))
        out.dims.push_back(n);
    return true;
  }
  if (op == "reduce") {
    llvm::SmallVector<int64_t> dims;
    if (ops.empty() || ops.size() % 2 || !intList(inst, "dimensions", dims))
      return ops.empty() || ops.size() % 2
                 ? cannot(inst, "it needs inputs and as many init values")
                 : false;
    size_t n = ops.size() / 2;
    std::vector<Shape> results;
    for (size_t i = 0; i < n; ++i) {
      if (!array(inst, ops[i], i) || !array(inst, ops[n + i], n + i))
        return false;
      Shape s;
      s.elementType = ops[n + i]->elementType;
      for (auto [d, size] : llvm::enumerate(ops[i]->dims))
        if (!llvm::is_contained(dims, (int64_t)d))
          s.dims.push_back(size);
      results.push_back(std::move(s));
    }
    if (n == 1) {
      out = results.front();
    } else {
      out.isTuple = true;
      out.elements = std::move(results);
    }
    return true;
  }
  if (op == "sort" || op == "all-reduce") {
    if (!need(1))
      return false;
    if (ops.size() == 1) {
      out = *ops[0];
    } else {
      out.isTuple = true;
      for (const Shape *s : ops)
        out.elements.push_back(*s);
    }
    return true;
  }
  if (op == "while") {
    if (!need(1))
      return false;
    out = *ops[0];
    return true;
  }
  if (op == "call" || op == "conditional" || op == "async-start") {
    const Shape *root =
        calledRoot(op == "call"          ? "to_apply"
                   : op == "async-start" ? "calls"
                                         : "branch_computations");
    if (!root && op == "conditional" && attr(inst, "true_computation")) {
      error.message.clear();
      root = calledRoot("true_computation");
    }
    if (!root)
      return false;
    if (op != "async-start") {
      out = *root;
      return true;
    }
    // ((operands...), result, s32[] context).
    out.isTuple = true;
    Shape operands;
    operands.isTuple = true;
    for (const Shape *s : ops)
      operands.elements.push_back(*s);
    Shape context;
    context.elementType = "s32";
    out.elements = {operands, *root, context};
    return true;
  }
  if (op == "after-all") {
    out.elementType = "token";
    return true;
  }
  if (op == "partition-id" || op == "replica-id") {
    out.elementType = "u32";
    return true;
  }
  if (op == "dynamic-slice") {
    llvm::SmallVector<int64_t> sizes;
    if (!need(1) || !array(inst, ops[0], 0) ||
        !intList(inst, "dynamic_slice_sizes", sizes))
      return false;
    out.elementType = ops[0]->elementType;
    out.dims.assign(sizes.begin(), sizes.end());
    return true;
  }
  return cannot(inst, "XLA needs the shape written for this opcode, or its "
                      "inference is not implemented here");
}

} // namespace

bool xspmd::hlo::inferInstructionShapes(Module &module, ParseError &error) {
  return ShapeInference(module, error).run();
}
