//===- RegionReductions.cpp - reductions with a computation ---------------===//

#include "runtime/kernels/RegionReductions.h"
#include "runtime/kernels/Reduce.h"

#include <cassert>
#include <optional>
#include <vector>

namespace xspmd::runtime {

namespace {

Shape rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Advances `index` (row-major over `shape`); false once it wraps around.
bool advance(llvm::MutableArrayRef<int64_t> index,
             llvm::ArrayRef<int64_t> shape) {
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (++index[d] < shape[d])
      return true;
    index[d] = 0;
  }
  return false;
}

/// The offset of `index` with `strides`.
int64_t offsetOf(llvm::ArrayRef<int64_t> index,
                 llvm::ArrayRef<int64_t> strides) {
  int64_t offset = 0;
  for (auto [k, s] : llvm::zip(index, strides))
    offset += k * s;
  return offset;
}

/// The input offsets each window reads, in row-major window order; -1 for
/// padding and base-dilation holes. A window inside the input (the common
/// case) is its corner's offset plus a fixed offset per window element.
class WindowMap {
public:
  WindowMap(llvm::ArrayRef<int64_t> inShape, llvm::ArrayRef<int64_t> outShape,
            const WindowParams &w)
      : dims(w.dimensions) {
    int64_t rank = inShape.size();
    Shape strides = rowMajorStrides(inShape);
    size = numElementsOf(dims);
    coordinate.resize(rank);
    corner.resize(rank);
    inside.resize(rank);
    for (int64_t d = 0; d < rank; ++d) {
      int64_t base = w.baseDilations.empty() ? 1 : w.baseDilations[d];
      int64_t dilation = w.windowDilations.empty() ? 1 : w.windowDilations[d];
      for (int64_t o = 0; o < outShape[d]; ++o) {
        bool whole = true;
        for (int64_t k = 0; k < dims[d]; ++k) {
          int64_t p = o * w.strides[d] + k * dilation - w.padding[2 * d];
          bool valid = p >= 0 && p % base == 0 && p / base < inShape[d];
          whole &= valid;
          coordinate[d].push_back(valid ? p / base * strides[d] : -1);
        }
        corner[d].push_back((o * w.strides[d] - w.padding[2 * d]) * strides[d]);
        inside[d].push_back(whole && base == 1);
      }
    }
    // Offsets of the window elements from the corner of a window inside.
    Shape k(rank, 0);
    for (int64_t e = 0; e < size; ++e, advance(k, dims)) {
      int64_t offset = 0;
      for (int64_t d = 0; d < rank; ++d)
        offset += k[d] *
                  (w.windowDilations.empty() ? 1 : w.windowDilations[d]) *
                  strides[d];
      relative.push_back(offset);
    }
  }

  /// Calls `fn(offset)` for each element of the window of output position
  /// `out`, in row-major window order.
  template <typename Fn>
  void forEach(llvm::ArrayRef<int64_t> out, Fn fn) const {
    int64_t rank = dims.size();
    int64_t base = 0;
    bool whole = true;
    for (int64_t d = 0; d < rank && whole; ++d) {
      whole = inside[d][out[d]];
      base += corner[d][out[d]];
    }
    if (whole) {
      for (int64_t r : relative)
        fn(base + r);
      return;
    }
    Shape k(rank, 0);
    for (int64_t e = 0; e < size; ++e, advance(k, dims)) {
      int64_t offset = 0;
      for (int64_t d = 0; d < rank; ++d) {
        int64_t c = coordinate[d][out[d] * dims[d] + k[d]];
        if (c < 0) {
          offset = -1;
          break;
        }
        offset += c;
      }
      fn(offset);
    }
  }

private:
  llvm::ArrayRef<int64_t> dims;
  /// coordinate[d][o * window + k]: the scaled input coordinate of window
  /// element k of output o along d, or -1.
  std::vector<std::vector<int64_t>> coordinate;
  /// corner[d][o]: the scaled coordinate of the window's first element;
  /// inside[d][o]: whether the whole window is in the input (no base
  /// dilation).
  std::vector<std::vector<int64_t>> corner;
  std::vector<std::vector<bool>> inside;
  std::vector<int64_t> relative;
  int64_t size = 1;
};

std::optional<ReduceKind> reduceKindOf(BinaryOp op) {
  switch (op) {
  case BinaryOp::add:
    return ReduceKind::sum;
  case BinaryOp::mul:
    return ReduceKind::prod;
  case BinaryOp::max:
    return ReduceKind::max;
  case BinaryOp::min:
    return ReduceKind::min;
  case BinaryOp::and_:
    return ReduceKind::and_;
  case BinaryOp::or_:
    return ReduceKind::or_;
  default:
    return std::nullopt;
  }
}

/// The N loaders of `tensors`' element types.
llvm::SmallVector<ScalarLoader>
loadersOf(llvm::ArrayRef<const Tensor *> tensors) {
  llvm::SmallVector<ScalarLoader> loaders;
  for (const Tensor *t : tensors)
    loaders.push_back(getScalarLoader(t->getElementType()));
  return loaders;
}

/// Folds elements into N accumulators with a body of 2N arguments.
class Folder {
public:
  Folder(const ScalarComputation &body, llvm::ArrayRef<const Tensor *> inputs,
         llvm::ArrayRef<const Tensor *> inits)
      : frame(body), loaders(loadersOf(inputs)), n(inputs.size()), next(n) {
    for (auto [i, input] : llvm::enumerate(inputs)) {
      data.push_back(input->data());
      initValues.push_back(loaders[i](inits[i]->data(), 0));
    }
  }

  void start() {
    for (int64_t i = 0; i < n; ++i)
      frame.arg(i) = initValues[i];
  }

  /// Folds element `offset` of every input in (-1: the inits, padding).
  void add(int64_t offset) {
    for (int64_t i = 0; i < n; ++i)
      frame.arg(n + i) =
          offset < 0 ? initValues[i] : loaders[i](data[i], offset);
    frame.run();
    // Results may be arguments: read them all before writing any back.
    for (int64_t i = 0; i < n; ++i)
      next[i] = frame.result(i);
    for (int64_t i = 0; i < n; ++i)
      frame.arg(i) = next[i];
  }

  void store(llvm::MutableArrayRef<Tensor> results, int64_t index) {
    for (int64_t i = 0; i < n; ++i)
      getScalarStorer(results[i].getElementType())(frame.arg(i),
                                                   results[i].data(), index);
  }

private:
  ScalarComputation::Frame frame;
  llvm::SmallVector<ScalarLoader> loaders;
  llvm::SmallVector<const void *> data;
  int64_t n;
  llvm::SmallVector<Scalar> initValues, next;
};

/// out[j] = body(init, out[j]): the init combined into a fast reduction.
void combineInit(const ScalarComputation &body, const Tensor &init,
                 Tensor &out) {
  ElementType type = out.getElementType();
  ScalarLoader load = getScalarLoader(type);
  ScalarStorer store = getScalarStorer(type);
  Scalar args[2] = {load(init.data(), 0), Scalar()};
  Scalar result;
  for (int64_t j = 0, e = out.getNumElements(); j < e; ++j) {
    args[1] = load(out.data(), j);
    body.run(args, result);
    store(result, out.data(), j);
  }
}

/// One-input window reduction by `Op` in the tensor kernels' compute type.
template <typename T, BinaryOp Op>
void windowFold(const WindowMap &map, const Tensor &input, const Tensor &init,
                Tensor &out) {
  using Tr = ElementTraits<T>;
  using C = ComputeType<T>;
  const T *in = input.data<T>();
  T *result = out.data<T>();
  C initValue = Tr::load(init.data<T>()[0]);
  Shape index(out.getRank(), 0);
  for (int64_t o = 0, e = out.getNumElements(); o < e;
       ++o, advance(index, out.getShape())) {
    C acc = initValue;
    map.forEach(index, [&](int64_t off) {
      acc = applyBinaryOp<Op>(acc, off < 0 ? initValue : Tr::load(in[off]));
    });
    result[o] = Tr::store(acc);
  }
}

template <typename T>
bool fastWindowFold(BinaryOp op, const WindowMap &map, const Tensor &input,
                    const Tensor &init, Tensor &out) {
  using B = BinaryOp;
  auto fold = [&](auto c) {
    windowFold<T, decltype(c)::value>(map, input, init, out);
  };
  if constexpr (kIsBoolStorage<T>)
    return dispatchEnum<B, B::and_, B::or_>(op, fold);
  else
    return dispatchEnum<B, B::add, B::mul, B::max, B::min>(op, fold);
}

} // namespace

void reduceWithComputation(const ScalarComputation &body,
                           llvm::ArrayRef<const Tensor *> inputs,
                           llvm::ArrayRef<const Tensor *> inits,
                           llvm::ArrayRef<int64_t> dims,
                           llvm::MutableArrayRef<Tensor> results) {
  const Tensor &first = *inputs.front();
  int64_t rank = first.getRank();
  llvm::SmallVector<bool> reduced(rank, false);
  for (int64_t d : dims)
    reduced[d] = true;
  Shape keptShape, reducedShape, keptStrides, reducedStrides;
  Shape strides = rowMajorStrides(first.getShape());
  for (int64_t d = 0; d < rank; ++d) {
    (reduced[d] ? reducedShape : keptShape).push_back(first.getDimSize(d));
    (reduced[d] ? reducedStrides : keptStrides).push_back(strides[d]);
  }

  if (inputs.size() == 1)
    if (std::optional<BinaryOp> op = body.asBinaryOp())
      if (std::optional<ReduceKind> kind = reduceKindOf(*op)) {
        reduce(*kind, first, dims, results[0]);
        combineInit(body, *inits[0], results[0]);
        return;
      }

  // The offsets of the reduced elements from an output's first one.
  std::vector<int64_t> reducedOffsets;
  Shape inner(reducedShape.size(), 0);
  for (int64_t r = 0, e = numElementsOf(reducedShape); r < e;
       ++r, advance(inner, reducedShape))
    reducedOffsets.push_back(offsetOf(inner, reducedStrides));
  Folder folder(body, inputs, inits);
  Shape kept(keptShape.size(), 0);
  for (int64_t o = 0, e = numElementsOf(keptShape); o < e;
       ++o, advance(kept, keptShape)) {
    int64_t base = offsetOf(kept, keptStrides);
    folder.start();
    for (int64_t offset : reducedOffsets)
      folder.add(base + offset);
    folder.store(results, o);
  }
}

void reduceWindow(const ScalarComputation &body,
                  llvm::ArrayRef<const Tensor *> inputs,
                  llvm::ArrayRef<const Tensor *> inits,
                  const WindowParams &window,
                  llvm::MutableArrayRef<Tensor> results) {
  const Tensor &first = *inputs.front();
  llvm::ArrayRef<int64_t> outShape = results.front().getShape();
  WindowMap map(first.getShape(), outShape, window);
  if (inputs.size() == 1)
    if (std::optional<BinaryOp> op = body.asBinaryOp()) {
      bool done = dispatchElementType(first.getElementType(), [&](auto tag) {
        return fastWindowFold<decltype(tag)>(*op, map, first, *inits[0],
                                             results[0]);
      });
      if (done)
        return;
    }
  Folder folder(body, inputs, inits);
  Shape index(outShape.size(), 0);
  for (int64_t o = 0, e = numElementsOf(outShape); o < e;
       ++o, advance(index, outShape)) {
    folder.start();
    map.forEach(index, [&](int64_t off) { folder.add(off); });
    folder.store(results, o);
  }
}

namespace {

/// Select-and-scatter whose select is `compare Dir` and scatter an add.
template <typename T, CompareOp Dir>
void selectAndAdd(const WindowMap &map, const Tensor &operand,
                  const Tensor &source, Tensor &result) {
  using Tr = ElementTraits<T>;
  using C = ComputeType<T>;
  const T *in = operand.data<T>();
  const T *src = source.data<T>();
  T *out = result.data<T>();
  Shape index(source.getRank(), 0);
  for (int64_t o = 0, e = source.getNumElements(); o < e;
       ++o, advance(index, source.getShape())) {
    int64_t selected = -1;
    C best{};
    map.forEach(index, [&](int64_t off) {
      if (off < 0)
        return;
      C x = Tr::load(in[off]);
      if (selected < 0 || !applyCompareOp<Dir>(best, x)) {
        selected = off;
        best = x;
      }
    });
    if (selected >= 0)
      out[selected] = Tr::store(applyBinaryOp<BinaryOp::add>(
          Tr::load(out[selected]), Tr::load(src[o])));
  }
}

template <typename T>
bool fastSelectAndScatter(CompareOp dir, const WindowMap &map,
                          const Tensor &operand, const Tensor &source,
                          Tensor &result) {
  using C = CompareOp;
  if constexpr (kIsBoolStorage<T>)
    return false;
  else
    return dispatchEnum<C, C::ge, C::gt, C::le, C::lt>(dir, [&](auto c) {
      selectAndAdd<T, decltype(c)::value>(map, operand, source, result);
    });
}

} // namespace

void selectAndScatter(const ScalarComputation &select,
                      const ScalarComputation &scatter, const Tensor &operand,
                      const Tensor &source, const Tensor &init,
                      const WindowParams &window, Tensor &result) {
  ElementType type = operand.getElementType();
  ScalarLoader load = getScalarLoader(type);
  ScalarStorer store = getScalarStorer(type);
  Scalar initValue = load(init.data(), 0);
  for (int64_t j = 0, e = result.getNumElements(); j < e; ++j)
    store(initValue, result.data(), j);
  WindowMap map(operand.getShape(), source.getShape(), window);
  if (std::optional<CompareOp> dir = select.asComparison();
      dir && scatter.asBinaryOp() == BinaryOp::add) {
    bool done = dispatchElementType(type, [&](auto tag) {
      return fastSelectAndScatter<decltype(tag)>(*dir, map, operand, source,
                                                 result);
    });
    if (done)
      return;
  }
  ScalarComputation::Frame selectFrame(select), scatterFrame(scatter);
  Shape index(source.getRank(), 0);
  for (int64_t o = 0, e = source.getNumElements(); o < e;
       ++o, advance(index, source.getShape())) {
    int64_t selected = -1;
    map.forEach(index, [&](int64_t off) {
      if (off < 0)
        return;
      Scalar x = load(operand.data(), off);
      if (selected >= 0) {
        selectFrame.arg(1) = x;
        selectFrame.run();
        if (selectFrame.result(0).i)
          return;
      }
      selected = off;
      selectFrame.arg(0) = x;
    });
    if (selected < 0)
      continue;
    scatterFrame.arg(0) = load(result.data(), selected);
    scatterFrame.arg(1) = load(source.data(), o);
    scatterFrame.run();
    store(scatterFrame.result(0), result.data(), selected);
  }
}

} // namespace xspmd::runtime
