//===- XspmdC.cpp - the C API of the lazy-tensor frontend -----------------===//

#include "lib/capi/XspmdC.h"

#include "lib/lazy/Runtime.h"

#include "llvm/ADT/StringRef.h"

#include <cstdlib>
#include <cstring>
#include <string>

using namespace xspmd;

struct XspmdRuntime {
  std::unique_ptr<lazy::Runtime> runtime;
};
struct XspmdTensor {
  lazy::Tensor tensor;
};
struct XspmdMesh {
  lazy::Mesh mesh;
};

namespace {

thread_local std::string lastError;

void setError(llvm::Error err) { lastError = llvm::toString(std::move(err)); }
void setError(const std::string &message) { lastError = message; }

/// A recorded tensor, or NULL with its error.
XspmdTensor *wrapTensor(llvm::Expected<lazy::Tensor> value) {
  if (!value) {
    setError(value.takeError());
    return nullptr;
  }
  lastError.clear();
  return new XspmdTensor{std::move(*value)};
}

int status(llvm::Error err) {
  if (err) {
    setError(std::move(err));
    return 1;
  }
  lastError.clear();
  return 0;
}

char *copyString(const std::string &text) {
  char *out = static_cast<char *>(std::malloc(text.size() + 1));
  std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

std::vector<std::string> namesOf(const char *const *names, int64_t rank) {
  std::vector<std::string> out;
  if (names)
    for (int64_t i = 0; i < rank; ++i)
      out.emplace_back(names[i]);
  return out;
}

runtime::ElementType elementType(XspmdElementType type) {
  return static_cast<runtime::ElementType>(type);
}

bool checkHandles(std::initializer_list<const void *> handles) {
  for (const void *h : handles)
    if (!h) {
      setError("a NULL handle was passed");
      return false;
    }
  return true;
}

} // namespace

// The C enum mirrors runtime::ElementType one to one.
static_assert(static_cast<int>(runtime::ElementType::f32) == XSPMD_F32 &&
                  static_cast<int>(runtime::ElementType::f64) == XSPMD_F64 &&
                  static_cast<int>(runtime::ElementType::bf16) == XSPMD_BF16 &&
                  static_cast<int>(runtime::ElementType::f16) == XSPMD_F16 &&
                  static_cast<int>(runtime::ElementType::i1) == XSPMD_I1 &&
                  static_cast<int>(runtime::ElementType::i8) == XSPMD_I8 &&
                  static_cast<int>(runtime::ElementType::i32) == XSPMD_I32 &&
                  static_cast<int>(runtime::ElementType::i64) == XSPMD_I64,
              "XspmdElementType must follow runtime::ElementType");
static_assert(static_cast<int>(lazy::BinaryOp::pow) == XSPMD_POW &&
                  static_cast<int>(lazy::UnaryOp::gelu) == XSPMD_GELU &&
                  static_cast<int>(lazy::ReduceOp::prod) == XSPMD_REDUCE_PROD,
              "the C op enums must follow lib/lazy's");

extern "C" {

const char *xspmdGetLastError(void) { return lastError.c_str(); }

XspmdRuntime *xspmdRuntimeCreate(const XspmdRuntimeOptions *options) {
  lazy::RuntimeOptions opts;
  if (options) {
    if (options->numDevices)
      opts.numDevices = options->numDevices;
    opts.topology = options->topology ? options->topology : "";
    opts.slices = options->slices;
    opts.timing = options->timing != 0;
    opts.cacheDir = options->cacheDir ? options->cacheDir : "";
    opts.cacheReadOnly = options->cacheReadOnly != 0;
  }
  llvm::Expected<std::unique_ptr<lazy::Runtime>> rt =
      lazy::Runtime::create(opts);
  if (!rt) {
    setError(rt.takeError());
    return nullptr;
  }
  lastError.clear();
  return new XspmdRuntime{std::move(*rt)};
}

void xspmdRuntimeDestroy(XspmdRuntime *runtime) { delete runtime; }

XspmdMesh *xspmdMeshCreate(const int64_t *deviceIds, const int64_t *shape,
                           int64_t rank, const char *const *axisNames) {
  if (!checkHandles({deviceIds, shape}))
    return nullptr;
  int64_t size = 1;
  for (int64_t i = 0; i < rank; ++i)
    size *= shape[i];
  llvm::Expected<lazy::Mesh> mesh =
      lazy::Mesh::create(llvm::ArrayRef(deviceIds, size),
                         llvm::ArrayRef(shape, rank), namesOf(axisNames, rank));
  if (!mesh) {
    setError(mesh.takeError());
    return nullptr;
  }
  return new XspmdMesh{std::move(*mesh)};
}

XspmdMesh *xspmdHybridMeshCreate(const int64_t *iciShape,
                                 const int64_t *dcnShape, int64_t rank,
                                 const char *const *axisNames) {
  if (!checkHandles({iciShape, dcnShape}))
    return nullptr;
  llvm::Expected<lazy::Mesh> mesh = lazy::Mesh::hybrid(
      llvm::ArrayRef(iciShape, rank), llvm::ArrayRef(dcnShape, rank),
      namesOf(axisNames, rank));
  if (!mesh) {
    setError(mesh.takeError());
    return nullptr;
  }
  return new XspmdMesh{std::move(*mesh)};
}

void xspmdMeshDestroy(XspmdMesh *mesh) { delete mesh; }

XspmdTensor *xspmdTensorFromHost(XspmdRuntime *runtime, XspmdElementType type,
                                 const int64_t *shape, int64_t rank,
                                 const void *data) {
  if (!checkHandles({runtime, data}) || (rank > 0 && !shape))
    return nullptr;
  runtime::Tensor host =
      runtime::Tensor::allocate(elementType(type), llvm::ArrayRef(shape, rank));
  std::memcpy(host.data(), data, host.getByteSize());
  return wrapTensor(runtime->runtime->fromHost(std::move(host)));
}

XspmdTensor *xspmdFull(XspmdRuntime *runtime, XspmdElementType type,
                       const int64_t *shape, int64_t rank, double value) {
  if (!checkHandles({runtime}) || (rank > 0 && !shape))
    return nullptr;
  return wrapTensor(runtime->runtime->full(llvm::ArrayRef(shape, rank), value,
                                           elementType(type)));
}

void xspmdTensorDestroy(XspmdTensor *tensor) { delete tensor; }

int64_t xspmdTensorRank(const XspmdTensor *tensor) {
  return tensor->tensor.getRank();
}

int64_t xspmdTensorDim(const XspmdTensor *tensor, int64_t dim) {
  return tensor->tensor.getShape()[dim];
}

XspmdElementType xspmdTensorElementType(const XspmdTensor *tensor) {
  return static_cast<XspmdElementType>(tensor->tensor.getElementType());
}

int xspmdTensorToHost(XspmdTensor *tensor, void *buffer, size_t bytes) {
  if (!checkHandles({tensor, buffer}))
    return 1;
  llvm::Expected<runtime::Tensor> host = tensor->tensor.toHost();
  if (!host)
    return status(host.takeError());
  if (host->getByteSize() != bytes) {
    setError("the buffer has " + std::to_string(bytes) + " bytes but " +
             host->getTypeString() + " needs " +
             std::to_string(host->getByteSize()));
    return 1;
  }
  std::memcpy(buffer, host->data(), bytes);
  lastError.clear();
  return 0;
}

XspmdTensor *xspmdBinary(XspmdRuntime *runtime, XspmdBinaryOp op,
                         const XspmdTensor *lhs, const XspmdTensor *rhs) {
  if (!checkHandles({runtime, lhs, rhs}))
    return nullptr;
  return wrapTensor(runtime->runtime->binary(static_cast<lazy::BinaryOp>(op),
                                             lhs->tensor, rhs->tensor));
}

XspmdTensor *xspmdBinaryScalar(XspmdRuntime *runtime, XspmdBinaryOp op,
                               const XspmdTensor *lhs, double rhs) {
  if (!checkHandles({runtime, lhs}))
    return nullptr;
  return wrapTensor(runtime->runtime->binary(static_cast<lazy::BinaryOp>(op),
                                             lhs->tensor, rhs));
}

XspmdTensor *xspmdUnary(XspmdRuntime *runtime, XspmdUnaryOp op,
                        const XspmdTensor *x) {
  if (!checkHandles({runtime, x}))
    return nullptr;
  return wrapTensor(
      runtime->runtime->unary(static_cast<lazy::UnaryOp>(op), x->tensor));
}

XspmdTensor *xspmdMatmul(XspmdRuntime *runtime, const XspmdTensor *lhs,
                         const XspmdTensor *rhs) {
  if (!checkHandles({runtime, lhs, rhs}))
    return nullptr;
  return wrapTensor(runtime->runtime->matmul(lhs->tensor, rhs->tensor));
}

XspmdTensor *xspmdReduce(XspmdRuntime *runtime, XspmdReduceOp op,
                         const XspmdTensor *x, const int64_t *dims,
                         int64_t numDims, int keepDims) {
  if (!checkHandles({runtime, x}) || (numDims > 0 && !dims))
    return nullptr;
  return wrapTensor(
      runtime->runtime->reduce(static_cast<lazy::ReduceOp>(op), x->tensor,
                               llvm::ArrayRef(dims, numDims), keepDims != 0));
}

XspmdTensor *xspmdTranspose(XspmdRuntime *runtime, const XspmdTensor *x,
                            const int64_t *permutation, int64_t rank) {
  if (!checkHandles({runtime, x, permutation}))
    return nullptr;
  return wrapTensor(runtime->runtime->transpose(
      x->tensor, llvm::ArrayRef(permutation, rank)));
}

XspmdTensor *xspmdReshape(XspmdRuntime *runtime, const XspmdTensor *x,
                          const int64_t *shape, int64_t rank) {
  if (!checkHandles({runtime, x}) || (rank > 0 && !shape))
    return nullptr;
  return wrapTensor(
      runtime->runtime->reshape(x->tensor, llvm::ArrayRef(shape, rank)));
}

XspmdTensor *xspmdAllReduce(XspmdRuntime *runtime, XspmdReduceOp op,
                            const XspmdTensor *x, double scale,
                            const int64_t *groups, int64_t numGroups,
                            int64_t groupSize) {
  if (!checkHandles({runtime, x}) || (numGroups > 0 && !groups))
    return nullptr;
  llvm::SmallVector<llvm::SmallVector<int64_t>> g;
  for (int64_t i = 0; i < numGroups; ++i)
    g.emplace_back(groups + i * groupSize, groups + (i + 1) * groupSize);
  return wrapTensor(runtime->runtime->allReduce(
      x->tensor, static_cast<lazy::ReduceOp>(op), scale, g));
}

int xspmdMarkSharding(XspmdRuntime *runtime, XspmdTensor *tensor,
                      const XspmdMesh *mesh, const char *const *spec,
                      int64_t numEntries) {
  if (!checkHandles({runtime, tensor, mesh}) || (numEntries > 0 && !spec))
    return 1;
  lazy::PartitionSpec partitionSpec;
  for (int64_t i = 0; i < numEntries; ++i) {
    lazy::PartitionSpecEntry entry;
    llvm::SmallVector<llvm::StringRef> axes;
    llvm::StringRef(spec[i]).split(axes, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef axis : axes)
      entry.push_back(axis.trim().str());
    partitionSpec.push_back(std::move(entry));
  }
  llvm::Expected<lazy::Tensor> sharded =
      runtime->runtime->markSharding(tensor->tensor, mesh->mesh, partitionSpec);
  if (!sharded)
    return status(sharded.takeError());
  tensor->tensor = *sharded;
  lastError.clear();
  return 0;
}

int xspmdClearSharding(XspmdRuntime *runtime, XspmdTensor *tensor) {
  if (!checkHandles({runtime, tensor}))
    return 1;
  return status(runtime->runtime->clearSharding(tensor->tensor));
}

char *xspmdShardingSpec(XspmdRuntime *runtime, const XspmdTensor *tensor) {
  if (!checkHandles({runtime, tensor}))
    return nullptr;
  llvm::Expected<std::string> spec =
      runtime->runtime->getShardingSpec(tensor->tensor);
  if (!spec) {
    setError(spec.takeError());
    return nullptr;
  }
  return copyString(*spec);
}

int xspmdMarkStep(XspmdRuntime *runtime) {
  if (!checkHandles({runtime}))
    return 1;
  return status(runtime->runtime->markStep());
}

double xspmdLastStepSeconds(XspmdRuntime *runtime) {
  return runtime->runtime->getLastStep().stepSeconds;
}

int xspmdLastStepCached(XspmdRuntime *runtime) {
  return runtime->runtime->getLastStep().cached ? 1 : 0;
}

char *xspmdLastStepCollectives(XspmdRuntime *runtime) {
  return copyString(runtime->runtime->getLastStep().collectives);
}

char *xspmdMetricsReport(XspmdRuntime *runtime) {
  return copyString(runtime->runtime->metricsReport());
}

int64_t xspmdCounterValue(XspmdRuntime *runtime, const char *name) {
  return runtime->runtime->getMetrics().getCounter(name);
}

void xspmdFreeString(char *text) { std::free(text); }

} // extern "C"
