//===- Metrics.cpp - PyTorch/XLA-style metrics and counters ---------------===//

#include "runtime/report/Metrics.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace xspmd::report {

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string formatMetricTime(double ns) {
  // Days, hours, minutes, seconds, milliseconds, microseconds: the leading
  // parts from the first non-zero one, each zero padded; microseconds with
  // three decimals.
  struct Part {
    const char *suffix;
    double scale;
    int width, precision;
  };
  static const Part parts[] = {{"d", 86400e9, 2, 0}, {"h", 3600e9, 2, 0},
                               {"m", 60e9, 2, 0},    {"s", 1e9, 2, 0},
                               {"ms", 1e6, 3, 0},    {"us", 1e3, 7, 3}};
  std::string text;
  bool started = false;
  for (size_t i = 0; i < std::size(parts); ++i) {
    const Part &part = parts[i];
    double amount = ns / part.scale;
    bool last = i + 1 == std::size(parts);
    if (amount < 1.0 && !started && !last)
      continue;
    started = true;
    // The last part keeps its fraction; the others print their whole part.
    double shown = last ? amount : std::floor(amount);
    text += fmt::format("{:0{}.{}f}{}", shown, part.width, part.precision,
                        part.suffix);
    ns -= std::floor(amount) * part.scale;
  }
  return text;
}

std::string formatMetricBytes(double bytes) {
  static const char *const suffixes[] = {"B", "KB", "MB", "GB", "TB", "PB"};
  int unit = 0;
  while (unit + 1 < 6 && bytes >= 1024.0) {
    bytes /= 1024.0;
    ++unit;
  }
  return fmt::format("{:.2f}{}", bytes, suffixes[unit]);
}

std::string formatMetricValue(double value) {
  return fmt::format("{:.2f}", value);
}

static std::string formatAs(MetricUnit unit, double value) {
  switch (unit) {
  case MetricUnit::Time:
    return formatMetricTime(value);
  case MetricUnit::Bytes:
    return formatMetricBytes(value);
  case MetricUnit::Value:
    return formatMetricValue(value);
  }
  return formatMetricValue(value);
}

void MetricsRegistry::addSample(llvm::StringRef name, MetricUnit unit,
                                double value, int64_t timestampNs) {
  Metric &metric = metrics[name.str()];
  metric.unit = unit;
  metric.samples.push_back({timestampNs, value});
  metric.accumulator += value;
}

void MetricsRegistry::addToCounter(llvm::StringRef name, int64_t delta) {
  counters[name.str()] += delta;
}

int64_t MetricsRegistry::getCounter(llvm::StringRef name) const {
  auto it = counters.find(name.str());
  return it == counters.end() ? 0 : it->second;
}

int64_t MetricsRegistry::getTotalSamples(llvm::StringRef name) const {
  auto it = metrics.find(name.str());
  return it == metrics.end() ? 0
                             : static_cast<int64_t>(it->second.samples.size());
}

std::string MetricsRegistry::report() const {
  static const double percentiles[] = {0.01, 0.05, 0.1,  0.2, 0.5,
                                       0.8,  0.9,  0.95, 0.99};
  std::string out;
  for (const auto &[name, metric] : metrics) {
    out += fmt::format("Metric: {}\n", name);
    out += fmt::format("  TotalSamples: {}\n", metric.samples.size());
    out += fmt::format("  Accumulator: {}\n",
                       formatAs(metric.unit, metric.accumulator));
    if (!metric.samples.empty()) {
      double total = 0;
      for (const Sample &s : metric.samples)
        total += s.value;
      int64_t span = metric.samples.back().timestampNs -
                     metric.samples.front().timestampNs;
      if (span > 0) {
        double seconds = static_cast<double>(span) * 1e-9;
        out += fmt::format("  ValueRate: {} / second\n",
                           formatAs(metric.unit, total / seconds));
        out +=
            fmt::format("  Rate: {:g} / second\n",
                        static_cast<double>(metric.samples.size()) / seconds);
      }
    }
    std::vector<double> sorted;
    for (const Sample &s : metric.samples)
      sorted.push_back(s.value);
    std::sort(sorted.begin(), sorted.end());
    out += "  Percentiles: ";
    for (size_t i = 0; i < std::size(percentiles); ++i) {
      if (i)
        out += "; ";
      size_t index = static_cast<size_t>(percentiles[i] *
                                         static_cast<double>(sorted.size()));
      out += fmt::format("{:g}%=", percentiles[i] * 100.0);
      out += sorted.empty() ? "-" : formatAs(metric.unit, sorted[index]);
    }
    out += "\n";
  }
  for (const auto &[name, value] : counters)
    out += fmt::format("Counter: {}\n  Value: {}\n", name, value);
  return out;
}

} // namespace xspmd::report
