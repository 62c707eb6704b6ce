//===- MetricsTest.cpp - PyTorch/XLA-style metrics report -----------------===//

#include "runtime/report/Metrics.h"

#include "gtest/gtest.h"

using namespace xspmd::report;

namespace {

TEST(Metrics, TimeFormatAsTorchXla) {
  // The seed's examples ("Get A Metrics Report").
  EXPECT_EQ(formatMetricTime(1032778.0), "001ms032.778us");
  EXPECT_EQ(formatMetricTime(369401746001.0), "06m09s401ms746.001us");
  EXPECT_EQ(formatMetricTime(21102853173.0), "21s102ms853.173us");
  EXPECT_EQ(formatMetricTime(830.0), "000.830us");
  EXPECT_EQ(formatMetricTime(2.0 * 3600e9), "02h00m00s000ms000.000us");
}

TEST(Metrics, BytesAndValues) {
  EXPECT_EQ(formatMetricBytes(100), "100.00B");
  EXPECT_EQ(formatMetricBytes(1.5 * 1024 * 1024 * 1024), "1.50GB");
  EXPECT_EQ(formatMetricValue(3.14159), "3.14");
}

TEST(Metrics, Report) {
  MetricsRegistry metrics;
  for (int i = 1; i <= 10; ++i)
    metrics.addSample("StepTime", MetricUnit::Time, i * 1e6,
                      static_cast<int64_t>(i) * 1000000000);
  metrics.addSample("Bytes", MetricUnit::Bytes, 2048, 5);
  metrics.addToCounter("Zeta", 2);
  metrics.addToCounter("Alpha");
  metrics.addToCounter("Alpha", 4);
  EXPECT_EQ(metrics.getCounter("Alpha"), 5);
  EXPECT_EQ(metrics.getCounter("Missing"), 0);
  EXPECT_EQ(metrics.getTotalSamples("StepTime"), 10);
  // Sorted by name; one sample has no rates; ten samples over 9 seconds sum
  // to 55 ms: 6.111 ms per second, 1.11111 samples per second; the p-th
  // percentile is sample floor(p x 10) of the sorted values.
  EXPECT_EQ(metrics.report(),
            "Metric: Bytes\n"
            "  TotalSamples: 1\n"
            "  Accumulator: 2.00KB\n"
            "  Percentiles: 1%=2.00KB; 5%=2.00KB; 10%=2.00KB; 20%=2.00KB; "
            "50%=2.00KB; 80%=2.00KB; 90%=2.00KB; 95%=2.00KB; 99%=2.00KB\n"
            "Metric: StepTime\n"
            "  TotalSamples: 10\n"
            "  Accumulator: 055ms000.000us\n"
            "  ValueRate: 006ms111.111us / second\n"
            "  Rate: 1.11111 / second\n"
            "  Percentiles: 1%=001ms000.000us; 5%=001ms000.000us; "
            "10%=002ms000.000us; 20%=003ms000.000us; 50%=006ms000.000us; "
            "80%=009ms000.000us; 90%=010ms000.000us; 95%=010ms000.000us; "
            "99%=010ms000.000us\n"
            "Counter: Alpha\n"
            "  Value: 5\n"
            "Counter: Zeta\n"
            "  Value: 2\n");
}

} // namespace
