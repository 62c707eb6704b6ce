/*===- CApiTest.c - the C API, from C
--------------------------------------===*\
|* A data-parallel matmul over 4 simulated devices through xspmd-c: values,  *|
|* sharding specs, the compilation cache, errors. Exits non-zero on failure. *|
\*===----------------------------------------------------------------------===*/

#include "lib/capi/XspmdC.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;

#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "%s:%d: expected %s (last error: %s)\n", __FILE__,       \
              __LINE__, #cond, xspmdGetLastError());                           \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

int main(void) {
  XspmdRuntimeOptions options = {4, NULL, 0, 1, NULL, 0};
  XspmdRuntime *rt = xspmdRuntimeCreate(&options);
  EXPECT(rt != NULL);
  if (!rt)
    return 1;

  int64_t ids[] = {0, 1, 2, 3};
  int64_t meshShape[] = {4};
  const char *names[] = {"data"};
  XspmdMesh *mesh = xspmdMeshCreate(ids, meshShape, 1, names);
  EXPECT(mesh != NULL);

  float x[8 * 2], w[2 * 3] = {1, 0, 2, 0, 1, -1};
  for (int i = 0; i < 16; ++i)
    x[i] = (float)i;
  int64_t xShape[] = {8, 2}, wShape[] = {2, 3};
  for (int step = 0; step < 2; ++step) {
    XspmdTensor *tx = xspmdTensorFromHost(rt, XSPMD_F32, xShape, 2, x);
    XspmdTensor *tw = xspmdTensorFromHost(rt, XSPMD_F32, wShape, 2, w);
    const char *spec[] = {"data", ""};
    EXPECT(xspmdMarkSharding(rt, tx, mesh, spec, 2) == 0);
    XspmdTensor *y = xspmdMatmul(rt, tx, tw);
    EXPECT(y != NULL);
    int64_t dims[] = {0};
    XspmdTensor *s = xspmdReduce(rt, XSPMD_REDUCE_SUM, y, dims, 1, 0);
    EXPECT(xspmdMarkStep(rt) == 0);
    float out[3];
    EXPECT(xspmdTensorToHost(s, out, sizeof out) == 0);
    /* sum over rows of x @ w: column sums of x are 56 and 64. */
    EXPECT(fabsf(out[0] - 56) < 1e-4f && fabsf(out[1] - 64) < 1e-4f &&
           fabsf(out[2] - (112 - 64)) < 1e-4f);
    EXPECT(xspmdLastStepCached(rt) == step);
    EXPECT(xspmdLastStepSeconds(rt) > 0);
    char *collectives = xspmdLastStepCollectives(rt);
    EXPECT(strstr(collectives, "all_reduce") != NULL);
    xspmdFreeString(collectives);
    char *sharding = xspmdShardingSpec(rt, tx);
    EXPECT(sharding && strcmp(sharding, "{devices=[4,1]0,1,2,3}") == 0);
    xspmdFreeString(sharding);
    xspmdTensorDestroy(tx);
    xspmdTensorDestroy(tw);
    xspmdTensorDestroy(y);
    xspmdTensorDestroy(s);
  }
  EXPECT(xspmdCounterValue(rt, "CachedCompile") == 1);

  /* Errors come back as NULL / non-zero with a message. */
  XspmdTensor *a = xspmdFull(rt, XSPMD_F32, xShape, 2, 1.0);
  EXPECT(xspmdMatmul(rt, a, a) == NULL);
  EXPECT(strstr(xspmdGetLastError(), "xla.matmul") != NULL);
  const char *badSpec[] = {"model", ""};
  EXPECT(xspmdMarkSharding(rt, a, mesh, badSpec, 2) != 0);
  EXPECT(strstr(xspmdGetLastError(), "no axis 'model'") != NULL);
  float small[2];
  EXPECT(xspmdTensorToHost(a, small, sizeof small) != 0);
  EXPECT(strstr(xspmdGetLastError(), "needs 64") != NULL);
  int64_t bad[] = {0, 1, 1, 3};
  EXPECT(xspmdMeshCreate(bad, meshShape, 1, names) == NULL);
  xspmdTensorDestroy(a);

  char *report = xspmdMetricsReport(rt);
  EXPECT(strstr(report, "CompileTime") != NULL);
  xspmdFreeString(report);
  xspmdMeshDestroy(mesh);
  xspmdRuntimeDestroy(rt);
  if (failures)
    fprintf(stderr, "%d failure(s)\n", failures);
  else
    printf("C API: all checks passed\n");
  return failures ? 1 : 0;
}
