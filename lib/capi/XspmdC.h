/*===- XspmdC.h - the C API of the lazy-tensor frontend -----------*- C -*-===*\
|*                                                                            *|
|* A C interface over lib/lazy (xspmd::lazy::Runtime): record ops on lazy     *|
|* tensors, shard them over meshes, cut and run graphs with mark_step, read   *|
|* results and metrics. Objects are opaque handles released with their       *|
|* Destroy function. A call that fails returns NULL (or a non-zero status)    *|
|* and leaves a message for xspmdGetLastError() in the calling thread.        *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef XSPMD_LIB_CAPI_XSPMDC_H
#define XSPMD_LIB_CAPI_XSPMDC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct XspmdRuntime XspmdRuntime;
typedef struct XspmdTensor XspmdTensor;
typedef struct XspmdMesh XspmdMesh;

typedef enum {
  XSPMD_F32,
  XSPMD_F64,
  XSPMD_BF16,
  XSPMD_F16,
  XSPMD_I1,
  XSPMD_I8,
  XSPMD_I32,
  XSPMD_I64
} XspmdElementType;

typedef enum {
  XSPMD_ADD,
  XSPMD_SUB,
  XSPMD_MUL,
  XSPMD_DIV,
  XSPMD_MAX,
  XSPMD_MIN,
  XSPMD_POW
} XspmdBinaryOp;

typedef enum {
  XSPMD_NEG,
  XSPMD_ABS,
  XSPMD_EXP,
  XSPMD_LOG,
  XSPMD_TANH,
  XSPMD_SQRT,
  XSPMD_RSQRT,
  XSPMD_SIGMOID,
  XSPMD_RELU,
  XSPMD_GELU
} XspmdUnaryOp;

typedef enum {
  XSPMD_REDUCE_SUM,
  XSPMD_REDUCE_MEAN,
  XSPMD_REDUCE_MAX,
  XSPMD_REDUCE_MIN,
  XSPMD_REDUCE_PROD
} XspmdReduceOp;

typedef struct {
  int64_t numDevices;   /* simulated devices (0: 8) */
  const char *topology; /* "v5p:2x2x2" or NULL: chosen for the devices */
  int64_t slices;       /* 0: the meshes' DCN size, or 1 */
  int timing;           /* predict step times */
  const char *cacheDir; /* persistent compilation cache or NULL */
  int cacheReadOnly;
} XspmdRuntimeOptions;

/* The message of the last failed call in this thread ("" if none). */
const char *xspmdGetLastError(void);

/* Runtimes. options may be NULL (8 devices, timing on, no cache). */
XspmdRuntime *xspmdRuntimeCreate(const XspmdRuntimeOptions *options);
void xspmdRuntimeDestroy(XspmdRuntime *runtime);

/* Meshes (torch_xla Mesh / HybridMesh). axisNames may be NULL (unnamed
 * axes, referred to as "0", "1", ... in specs). */
XspmdMesh *xspmdMeshCreate(const int64_t *deviceIds, const int64_t *shape,
                           int64_t rank, const char *const *axisNames);
XspmdMesh *xspmdHybridMeshCreate(const int64_t *iciShape,
                                 const int64_t *dcnShape, int64_t rank,
                                 const char *const *axisNames);
void xspmdMeshDestroy(XspmdMesh *mesh);

/* Tensors. Data is row-major and copied. */
XspmdTensor *xspmdTensorFromHost(XspmdRuntime *runtime, XspmdElementType type,
                                 const int64_t *shape, int64_t rank,
                                 const void *data);
XspmdTensor *xspmdFull(XspmdRuntime *runtime, XspmdElementType type,
                       const int64_t *shape, int64_t rank, double value);
void xspmdTensorDestroy(XspmdTensor *tensor);
int64_t xspmdTensorRank(const XspmdTensor *tensor);
int64_t xspmdTensorDim(const XspmdTensor *tensor, int64_t dim);
XspmdElementType xspmdTensorElementType(const XspmdTensor *tensor);
/* Copies the value into buffer (bytes must be its exact size), running the
 * pending graph first if the tensor is pending. 0 on success. */
int xspmdTensorToHost(XspmdTensor *tensor, void *buffer, size_t bytes);

/* Ops (recorded; NULL and an error message when the shapes do not fit). */
XspmdTensor *xspmdBinary(XspmdRuntime *runtime, XspmdBinaryOp op,
                         const XspmdTensor *lhs, const XspmdTensor *rhs);
XspmdTensor *xspmdBinaryScalar(XspmdRuntime *runtime, XspmdBinaryOp op,
                               const XspmdTensor *lhs, double rhs);
XspmdTensor *xspmdUnary(XspmdRuntime *runtime, XspmdUnaryOp op,
                        const XspmdTensor *x);
XspmdTensor *xspmdMatmul(XspmdRuntime *runtime, const XspmdTensor *lhs,
                         const XspmdTensor *rhs);
XspmdTensor *xspmdReduce(XspmdRuntime *runtime, XspmdReduceOp op,
                         const XspmdTensor *x, const int64_t *dims,
                         int64_t numDims, int keepDims);
XspmdTensor *xspmdTranspose(XspmdRuntime *runtime, const XspmdTensor *x,
                            const int64_t *permutation, int64_t rank);
XspmdTensor *xspmdReshape(XspmdRuntime *runtime, const XspmdTensor *x,
                          const int64_t *shape, int64_t rank);
/* Collectives with replica groups (numGroups x groupSize device ids, row
 * major; numGroups 0: all devices). */
XspmdTensor *xspmdAllReduce(XspmdRuntime *runtime, XspmdReduceOp op,
                            const XspmdTensor *x, double scale,
                            const int64_t *groups, int64_t numGroups,
                            int64_t groupSize);

/* Sharding: spec has one entry per dimension, each a comma-separated list
 * of mesh axes ("" for a replicated dimension, "data,model" for a tuple).
 * 0 on success. */
int xspmdMarkSharding(XspmdRuntime *runtime, XspmdTensor *tensor,
                      const XspmdMesh *mesh, const char *const *spec,
                      int64_t numEntries);
int xspmdClearSharding(XspmdRuntime *runtime, XspmdTensor *tensor);
/* The HloSharding text (free with xspmdFreeString), or NULL on error. */
char *xspmdShardingSpec(XspmdRuntime *runtime, const XspmdTensor *tensor);

/* Steps. 0 on success. */
int xspmdMarkStep(XspmdRuntime *runtime);
/* Of the last step: predicted step time in seconds, whether it hit the
 * compilation cache, and its collectives ("1 all_reduce"; free with
 * xspmdFreeString). */
double xspmdLastStepSeconds(XspmdRuntime *runtime);
int xspmdLastStepCached(XspmdRuntime *runtime);
char *xspmdLastStepCollectives(XspmdRuntime *runtime);

/* Metrics (PyTorch/XLA's report; free with xspmdFreeString). */
char *xspmdMetricsReport(XspmdRuntime *runtime);
int64_t xspmdCounterValue(XspmdRuntime *runtime, const char *name);

void xspmdFreeString(char *text);

#ifdef __cplusplus
}
#endif

#endif /* XSPMD_LIB_CAPI_XSPMDC_H */
