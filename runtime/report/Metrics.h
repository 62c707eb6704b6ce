//===- Metrics.h - PyTorch/XLA-style metrics and counters -------*- C++ -*-===//
//
// A registry of metrics (samples with a timestamp) and counters, printed as
// torch_xla's `met.metrics_report()` prints them (seed: "Get A Metrics
// Report"):
//
//   Metric: CompileTime
//     TotalSamples: 2
//     Accumulator: 012ms520.015us
//     ValueRate: 019ms270.433us / second
//     Rate: 3.07821 / second
//     Percentiles: 1%=004ms290.612us; 5%=...; 99%=008ms229.403us
//   Counter: CachedCompile
//     Value: 1
//
// Metrics come first, then counters, each sorted by name. Time metrics hold
// nanoseconds, byte metrics bytes. ValueRate and Rate are taken over the
// span between the first and the last sample's timestamps (omitted when it
// is zero); percentiles pick the sample at floor(p x count) of the sorted
// samples (p = 1, 5, 10, 20, 50, 80, 90, 95, 99 %), as torch_xla does.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_RUNTIME_REPORT_METRICS_H
#define XSPMD_RUNTIME_REPORT_METRICS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace xspmd::report {

enum class MetricUnit { Time, Bytes, Value };

class MetricsRegistry {
public:
  /// Adds a sample taken at `timestampNs` (nanoseconds on any clock that
  /// is the same for all samples of this metric).
  void addSample(llvm::StringRef metric, MetricUnit unit, double value,
                 int64_t timestampNs);
  void addToCounter(llvm::StringRef counter, int64_t delta = 1);

  int64_t getCounter(llvm::StringRef counter) const;
  /// Number of samples of `metric` (0 if none).
  int64_t getTotalSamples(llvm::StringRef metric) const;

  /// The whole report.
  std::string report() const;

private:
  struct Sample {
    int64_t timestampNs;
    double value;
  };
  struct Metric {
    MetricUnit unit = MetricUnit::Value;
    std::vector<Sample> samples;
    double accumulator = 0;
  };
  std::map<std::string, Metric> metrics;
  std::map<std::string, int64_t> counters;
};

/// torch_xla's humanized forms: "06m09s401ms746.001us" (from nanoseconds),
/// "1.50GB" (1024-based), "12.00".
std::string formatMetricTime(double nanoseconds);
std::string formatMetricBytes(double bytes);
std::string formatMetricValue(double value);

/// Nanoseconds on the host's monotonic clock.
int64_t nowNs();

} // namespace xspmd::report

#endif // XSPMD_RUNTIME_REPORT_METRICS_H
