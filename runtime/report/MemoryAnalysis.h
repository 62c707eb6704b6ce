//===- MemoryAnalysis.h - peak live bytes of a program ----------*- C++ -*-===//
//
// A liveness analysis of a compiled program in program order, as one device
// runs it:
//
//  * arguments and constants are live for the whole program (the caller
//    owns argument buffers; a donated argument that a result aliases
//    (`xla.aliases`) receives that result, which then takes no new memory);
//  * every other value is allocated when its op runs and freed after its
//    last use; a returned value lives to the end;
//  * views (reshape, mark_sharding) share their operand's buffer, which
//    lives until the last use of any view of it;
//  * while an op runs, its operands and its results are all live.
//
// Categories: argument, constant, output (returned values), collective
// buffer (results of collectives that are not returned) and temporary
// (everything else). The peak is the largest total over the program;
// XLA's "intermediate tensor size" is the peak of temporaries and
// collective buffers alone.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_REPORT_MEMORYANALYSIS_H
#define XSPMD_RUNTIME_REPORT_MEMORYANALYSIS_H

#include "runtime/exec/Program.h"

#include <array>
#include <string>
#include <vector>

namespace xspmd::report {

enum class MemoryCategory {
  Argument,
  Constant,
  Output,
  CollectiveBuffer,
  Temporary,
};
inline constexpr int kNumMemoryCategories = 5;

llvm::StringRef stringifyMemoryCategory(MemoryCategory category);

/// One buffer live at the peak.
struct LiveTensor {
  int32_t slot = 0;
  double bytes = 0;
  MemoryCategory category = MemoryCategory::Temporary;
  /// "tensor<8x128xbf16>" and what produced it ("argument 2",
  /// "xla.dot_general at f.mlir:12:3").
  std::string type, origin;
};

struct MemoryProfile {
  double peakBytes = 0;
  /// The instruction during which the peak occurs; -1 for the program's
  /// entry (arguments and constants only).
  int32_t peakInstruction = -1;
  /// Live bytes per category at the peak.
  std::array<double, kNumMemoryCategories> peakByCategory{};
  /// The largest buffers live at the peak, largest first.
  std::vector<LiveTensor> largestAtPeak;

  // The post-compilation figures (torch_xla's debug analysis).
  double argumentBytes = 0, outputBytes = 0, aliasedBytes = 0,
         constantBytes = 0;
  /// Peak of temporaries and collective buffers.
  double intermediateBytes = 0;
};

/// Analyses `program`; keeps the `topN` largest buffers live at the peak.
MemoryProfile analyzeMemory(const runtime::Program &program, size_t topN = 6);

/// "12.50 GiB" (binary units: memory).
std::string formatMemoryBytes(double bytes);

} // namespace xspmd::report

#endif // XSPMD_RUNTIME_REPORT_MEMORYANALYSIS_H
