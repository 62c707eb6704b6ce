//===- CollectiveKernels.h - what each device receives ----------*- C++ -*-===//
//
// The semantics of the collectives (torch_xla's xm.all_reduce & co., as
// dialects/xla/XlaOps.td documents them), computed by one device from every
// device's input once all have arrived. Reductions fold the group members'
// inputs in group order, so every member computes bitwise the same result
// and reruns reproduce it; bf16/f16 fold in f32 and round once.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_COLLECTIVES_COLLECTIVEKERNELS_H
#define XSPMD_RUNTIME_COLLECTIVES_COLLECTIVEKERNELS_H

#include "runtime/collectives/CollectiveCall.h"

namespace xspmd::runtime {

/// The result of `call` on `device`; inputs[d] is device d's input.
Tensor computeCollectiveResult(const CollectiveCall &call, int64_t device,
                               llvm::ArrayRef<const Tensor *> inputs);

/// out[i] = scale * (x0[i] op x1[i] op ...), folded left to right; `n`
/// elements of `type` per input. Exposed for partial-result assembly.
void foldBuffers(ReductionKind kind, ElementType type, double scale,
                 llvm::ArrayRef<const void *> buffers, int64_t n, void *out);

} // namespace xspmd::runtime

#endif // XSPMD_RUNTIME_COLLECTIVES_COLLECTIVEKERNELS_H
