//===- TopologyTest.cpp - presets, parsing, device placement --------------===//

#include "runtime/topology/GroupGeometry.h"
#include "runtime/topology/MeshFit.h"
#include "runtime/topology/TopologyParser.h"

#include <gtest/gtest.h>

using namespace xspmd::topology;

namespace {

Topology parse(llvm::StringRef text, int64_t slices = 1) {
  llvm::Expected<Topology> topology = parseTopology(text, slices);
  if (!topology) {
    ADD_FAILURE() << text.str() << ": " << llvm::toString(topology.takeError());
    return cantFail(parseTopology("v4-8"));
  }
  return std::move(*topology);
}

/// The error text of a topology that must not parse.
std::string parseError(llvm::StringRef text, int64_t slices = 1) {
  llvm::Expected<Topology> topology = parseTopology(text, slices);
  if (topology) {
    ADD_FAILURE() << text.str() << " parsed as " << topology->describe();
    return "";
  }
  return llvm::toString(topology.takeError());
}

//===----------------------------------------------------------------------===//
// Presets
//===----------------------------------------------------------------------===//

TEST(Presets, DcnPerChipMatchesCloudTables) {
  // Research notes 1.3: per-chip DCN 50 Gb/s (v5p), 100 Gb/s (v6e); v5e
  // hosts have 2 x 100 Gbps for 8 chips = 25 Gb/s per chip.
  auto perChipGbps = [](Generation g) {
    const GenerationSpec &spec = getGenerationSpec(g);
    return spec.dcnHostBandwidth / spec.chipsPerHost() * 8 / 1e9;
  };
  EXPECT_DOUBLE_EQ(perChipGbps(Generation::V5p), 50);
  EXPECT_DOUBLE_EQ(perChipGbps(Generation::V6e), 100);
  EXPECT_DOUBLE_EQ(perChipGbps(Generation::V5e), 25);
}

TEST(Presets, BidirectionalIciMatchesScalingBookTable) {
  // SB-tpus: bidi = 2 x one-way: 9e10 (v4, v5e), 1.8e11 (v5p, v6e).
  EXPECT_DOUBLE_EQ(2 * getGenerationSpec(Generation::V4).iciLinkBandwidth,
                   9e10);
  EXPECT_DOUBLE_EQ(2 * getGenerationSpec(Generation::V5p).iciLinkBandwidth,
                   1.8e11);
  // Ports: 2 per torus axis.
  for (const GenerationSpec &spec : allGenerationSpecs())
    EXPECT_EQ(spec.iciPortsPerChip, 2 * spec.torusRank) << spec.name.str();
}

TEST(Presets, LookupByNameAndAcceleratorPrefix) {
  EXPECT_EQ(lookupGeneration("v5litepod"), Generation::V5e);
  EXPECT_EQ(lookupGeneration("V5E"), Generation::V5e);
  EXPECT_EQ(lookupGeneration("v6e"), Generation::V6e);
  EXPECT_EQ(lookupGeneration("V3"), Generation::V3);
  EXPECT_FALSE(lookupGeneration("v2").has_value());
}

TEST(Presets, Tpu7xPerChip) {
  // Notes 1.1, 1.2, 7: per chip (a simulated device is both chiplets).
  const GenerationSpec &spec = getGenerationSpec(Generation::Tpu7x);
  EXPECT_DOUBLE_EQ(spec.peakBf16Flops, 2.307e15);
  EXPECT_DOUBLE_EQ(spec.hbmBandwidth, 7.38e12);
  EXPECT_DOUBLE_EQ(spec.iciLinkBandwidth, 1e11);
  EXPECT_DOUBLE_EQ(spec.dcnHostBandwidth, 4 * 100e9 / 8);
  // tpu7x-8 counts TensorCores, as v5p: 4 chips.
  Topology t = parse("tpu7x-8");
  EXPECT_EQ(t.shapeString(), "2x2x1");
  EXPECT_EQ(t.getSpec().generation, Generation::Tpu7x);
}

TEST(Presets, V3PerChip) {
  // GC-v3 (notes 1.1): 123 TFLOP/s bf16, 32 GiB of HBM at 900 GB/s per chip,
  // 2 TensorCores, 1024-chip pod, 2D torus; SB-tpus: 1e11 B/s per link one
  // way. A simulated device is the whole chip (both TensorCores).
  const GenerationSpec &spec = getGenerationSpec(Generation::V3);
  EXPECT_DOUBLE_EQ(spec.peakBf16Flops, 1.23e14);
  EXPECT_DOUBLE_EQ(spec.hbmBytes, 32.0 * 1024 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(spec.hbmBandwidth, 9e11);
  EXPECT_DOUBLE_EQ(spec.iciLinkBandwidth, 1e11);
  EXPECT_EQ(spec.torusRank, 2);
  EXPECT_EQ(spec.iciPortsPerChip, 4);
  EXPECT_EQ(spec.tensorCoresPerChip, 2);
  EXPECT_EQ(spec.maxSliceChips, 1024);
  EXPECT_EQ(spec.chipsPerHost(), 4);
}

//===----------------------------------------------------------------------===//
// Parsing and slice rules
//===----------------------------------------------------------------------===//

TEST(ParseTopology, GenerationAndShape) {
  Topology t = parse("v5p:4x4x4", 2);
  EXPECT_EQ(t.getSpec().generation, Generation::V5p);
  EXPECT_EQ(t.shapeString(), "4x4x4");
  EXPECT_EQ(t.getChipsPerSlice(), 64);
  EXPECT_EQ(t.getNumSlices(), 2);
  EXPECT_EQ(t.getNumDevices(), 128);
  EXPECT_EQ(t.getHostsPerSlice(), 16);
  EXPECT_EQ(t.getNumHosts(), 32);
  EXPECT_EQ(t.describe(), "v5p 4x4x4 (wraparound on x,y,z), 16 hosts of 4 "
                          "chips, 2 slices over DCN");
}

TEST(ParseTopology, AcceleratorTypesCountTensorCoresOnV4AndV5p) {
  Topology v4 = parse("v4-8");
  EXPECT_EQ(v4.shapeString(), "2x2x1");
  EXPECT_EQ(v4.getNumDevices(), 4);
  EXPECT_EQ(v4.getNumHosts(), 1);
  Topology v5p = parse("v5p-128");
  EXPECT_EQ(v5p.shapeString(), "4x4x4");
  EXPECT_EQ(v5p.getHostsPerSlice(), 16);
  EXPECT_EQ(parse("v5p-12288").shapeString(), "16x16x24");
}

TEST(ParseTopology, V3AcceleratorTypesCountTensorCores) {
  // torch_xla's host bounds times 2x2x1 chips per host (notes 3.3): v3-8 is
  // one host, v3-2048 the whole 32x32 pod.
  for (auto [type, shape, hosts] :
       {std::tuple{"v3-8", "2x2", 1}, std::tuple{"v3-32", "4x4", 4},
        std::tuple{"v3-64", "4x8", 8}, std::tuple{"v3-128", "8x8", 16},
        std::tuple{"v3-256", "8x16", 32}, std::tuple{"v3-512", "16x16", 64},
        std::tuple{"v3-1024", "16x32", 128},
        std::tuple{"v3-2048", "32x32", 256}}) {
    Topology t = parse(type);
    EXPECT_EQ(t.shapeString(), shape) << type;
    EXPECT_EQ(t.getHostsPerSlice(), hosts) << type;
  }
  EXPECT_EQ(parse("v3:16x16").describe(),
            "v3 16x16 (no wraparound), 64 hosts of 4 chips");
  std::string unknown = parseError("v3-16");
  EXPECT_NE(unknown.find("count TensorCores, 2 per chip"), std::string::npos)
      << unknown;
  EXPECT_NE(unknown.find("known counts: 8, 32, 64, 128,"), std::string::npos)
      << unknown;
  EXPECT_NE(parseError("v3:64x16").find("a v3 pod axis has at most 32"),
            std::string::npos);
  EXPECT_NE(parseError("v3:8x1").find("multiple of 2x2"), std::string::npos);
  EXPECT_NE(parseError("v3:4x4x1").find("v3 slices are 2D"), std::string::npos);
}

TEST(ParseTopology, AcceleratorTypesCountChipsOnV5eAndV6e) {
  Topology v5e = parse("v5litepod-16");
  EXPECT_EQ(v5e.shapeString(), "4x4");
  EXPECT_EQ(v5e.getHostsPerSlice(), 2);
  Topology v6e = parse("v6e-8");
  EXPECT_EQ(v6e.shapeString(), "2x4");
  EXPECT_EQ(v6e.getHostsPerSlice(), 1);
  Topology single = parse("v6e-1");
  EXPECT_EQ(single.getNumDevices(), 1);
  EXPECT_EQ(single.getChipsPerHost(), 1);
  EXPECT_EQ(parse("v5e-256").shapeString(), "16x16");
}

TEST(ParseTopology, Errors) {
  EXPECT_NE(parseError("").find("empty topology"), std::string::npos);
  EXPECT_NE(parseError("v2:4x4").find("unknown TPU generation 'v2'"),
            std::string::npos);
  EXPECT_NE(parseError("v5p").find("names a generation but no slice"),
            std::string::npos);
  EXPECT_NE(parseError("v5p:4x4").find("v5p slices are 3D"), std::string::npos);
  EXPECT_NE(parseError("v5p:4x4y4").find("malformed slice shape '4x4y4'"),
            std::string::npos);
  EXPECT_NE(parseError("v5p:4x0x4").find("malformed slice shape"),
            std::string::npos);
  EXPECT_NE(parseError("v5p:2x2x3").find("must have 1, 2 or 4 chips"),
            std::string::npos);
  EXPECT_NE(parseError("v5p:4x4x6").find("whole cubes"), std::string::npos);
  EXPECT_NE(parseError("v4:1x2x2").find("multiple of 2"), std::string::npos);
  EXPECT_NE(parseError("v4:16x16x32").find("at most 16"), std::string::npos);
  EXPECT_NE(parseError("v5p:16x16x28").find("largest v5p slice has 6144"),
            std::string::npos);
  std::string v4 = parseError("v4-6");
  EXPECT_NE(v4.find("count TensorCores, 2 per chip"), std::string::npos) << v4;
  EXPECT_NE(v4.find("known counts: 8, 16,"), std::string::npos) << v4;
  EXPECT_NE(parseError("v5p-").find("malformed accelerator type"),
            std::string::npos);
  EXPECT_NE(parseError("v5e:3x4").find("power of two"), std::string::npos);
  EXPECT_NE(parseError("v6e:4x2").find("multiple of 2x4"), std::string::npos);
  EXPECT_NE(parseError("v6e:32x8").find("at most 16"), std::string::npos);
  EXPECT_NE(parseError("v5litepod-512").find("no standard v5e slice"),
            std::string::npos);
  EXPECT_NE(parseError("v5p:4x4x4", 0).find("slice count must be at least 1"),
            std::string::npos);
}

TEST(Wraparound, V5pOnlyOnWholeCubes) {
  // SB-tpus: 2x2x1 and 2x2x4 have no wraparound; 4x4x4 and 4x4x8 wrap on
  // every axis.
  for (llvm::StringRef shape : {"v5p:2x2x1", "v5p:2x2x4", "v4:2x4x4"}) {
    Topology t = parse(shape);
    for (int axis = 0; axis < 3; ++axis)
      EXPECT_FALSE(t.hasWraparound(axis)) << shape.str() << " " << axis;
  }
  for (llvm::StringRef shape : {"v5p:4x4x4", "v5p:4x4x8", "v4:8x8x16"}) {
    Topology t = parse(shape);
    for (int axis = 0; axis < 3; ++axis)
      EXPECT_TRUE(t.hasWraparound(axis)) << shape.str() << " " << axis;
  }
}

TEST(Wraparound, V5eAndV6eOnlyOnFull16Axes) {
  // SB-tpus: "A TPU v5e 8x16 will have a wraparound on the longer axis".
  Topology t = parse("v5e:8x16");
  EXPECT_FALSE(t.hasWraparound(0));
  EXPECT_TRUE(t.hasWraparound(1));
  Topology full = parse("v6e:16x16");
  EXPECT_TRUE(full.hasWraparound(0));
  EXPECT_TRUE(full.hasWraparound(1));
  EXPECT_FALSE(full.hasWraparound(2));
  Topology small = parse("v6e:8x8");
  EXPECT_FALSE(small.hasWraparound(0));
  EXPECT_FALSE(small.hasWraparound(1));
}

TEST(Wraparound, V3OnlyOnFull32Axes) {
  // Below a full pod axis a v3 slice has no wraparound: lingvo's
  // GetNonPod2dMesh builds rings for "slices smaller than a pod" because
  // "there is no wrap-around links" (docs/topology.md 1); the 32x32 pod is a
  // 2D torus (GC-v3).
  Topology pod = parse("v3-2048");
  EXPECT_TRUE(pod.hasWraparound(0));
  EXPECT_TRUE(pod.hasWraparound(1));
  Topology half = parse("v3-1024");
  EXPECT_FALSE(half.hasWraparound(0));
  EXPECT_TRUE(half.hasWraparound(1));
  Topology small = parse("v3-512");
  EXPECT_FALSE(small.hasWraparound(0));
  EXPECT_FALSE(small.hasWraparound(1));
}

//===----------------------------------------------------------------------===//
// Device placement
//===----------------------------------------------------------------------===//

TEST(DevicePlacement, SliceMajorXFastest) {
  Topology t = parse("v5p:4x4x4", 2);
  DeviceLocation d1 = t.locate(1);
  EXPECT_EQ(d1.slice, 0);
  EXPECT_EQ(d1.coords, (ChipCoords{1, 0, 0}));
  EXPECT_EQ(d1.host, 0);
  EXPECT_EQ(d1.chipOnHost, 1);
  // x = 2 is the next host along x (hosts are 2x2x1).
  DeviceLocation d2 = t.locate(2);
  EXPECT_EQ(d2.coords, (ChipCoords{2, 0, 0}));
  EXPECT_EQ(d2.host, 1);
  EXPECT_EQ(d2.chipOnHost, 0);
  // (0,1,0) shares host 0 with device 0.
  DeviceLocation d4 = t.locate(4);
  EXPECT_EQ(d4.coords, (ChipCoords{0, 1, 0}));
  EXPECT_EQ(d4.host, 0);
  EXPECT_EQ(d4.chipOnHost, 2);
  // (0,0,1) is a new z-layer: host 4 of the 2x2x4 host grid.
  EXPECT_EQ(t.locate(16).hostInSlice, 4);
  // Slice 1 starts at 64.
  DeviceLocation d64 = t.locate(64);
  EXPECT_EQ(d64.slice, 1);
  EXPECT_EQ(d64.coords, (ChipCoords{0, 0, 0}));
  EXPECT_EQ(d64.host, 16);
  DeviceLocation last = t.locate(127);
  EXPECT_EQ(last.coords, (ChipCoords{3, 3, 3}));
  EXPECT_EQ(last.host, 31);
  EXPECT_EQ(last.chipOnHost, 3);
}

TEST(DevicePlacement, RoundTripAndFullHosts) {
  for (llvm::StringRef text : {"v5p:4x4x8", "v5e:8x16", "v6e:2x2"}) {
    Topology t = parse(text, 3);
    llvm::SmallVector<int64_t> perHost(t.getNumHosts(), 0);
    for (int64_t d = 0; d < t.getNumDevices(); ++d) {
      DeviceLocation loc = t.locate(d);
      EXPECT_EQ(t.getDevice(loc.slice, loc.coords), d) << text.str();
      EXPECT_LT(loc.chipOnHost, t.getChipsPerHost());
      ++perHost[loc.host];
    }
    for (int64_t count : perHost)
      EXPECT_EQ(count, t.getChipsPerHost()) << text.str();
  }
}

TEST(DevicePlacement, V5eHostIsTwoByFour) {
  Topology t = parse("v5e:4x4");
  // Hosts are 2 chips along x by 4 along y. Device 5 = (1,1): host 0, chip
  // 1 + 2*1 = 3; device 2 = (2,0): host 1; device 12 = (0,3): host 0.
  EXPECT_EQ(t.locate(5).host, 0);
  EXPECT_EQ(t.locate(5).chipOnHost, 3);
  EXPECT_EQ(t.locate(2).host, 1);
  EXPECT_EQ(t.locate(12).host, 0);
  EXPECT_EQ(t.locate(12).chipOnHost, 6);
  EXPECT_EQ(t.locate(14).host, 1);
}

TEST(IciLinks, CountsWithAndWithoutWraparound) {
  EXPECT_EQ(parse("v5p:4x4x4").getIciLinks(0).size(), 6u);
  EXPECT_EQ(parse("v5p:2x2x1").getIciLinks(0).size(), 2u);
  EXPECT_EQ(parse("v5e:4x4").getIciLinks(0).size(), 2u);
  EXPECT_EQ(parse("v5e:4x4").getIciLinks(5).size(), 4u);
  Topology ring = parse("v6e:16x16");
  auto links = ring.getIciLinks(0);
  ASSERT_EQ(links.size(), 4u);
  int wraps = 0;
  for (const IciLink &link : links) {
    wraps += link.wraparound;
    EXPECT_EQ(*ring.iciHopDistance(0, link.neighbor), 1);
  }
  EXPECT_EQ(wraps, 2);
}

TEST(IciLinks, HopDistance) {
  Topology ring = parse("v6e:16x16");
  EXPECT_EQ(ring.iciHopDistance(0, 15), 1); // through the wraparound
  EXPECT_EQ(ring.iciHopDistance(0, 8), 8);
  EXPECT_TRUE(ring.isAxisTie(0, 0, 8));
  EXPECT_FALSE(ring.isAxisTie(0, 0, 7));
  EXPECT_EQ(ring.axisOffset(0, 1, 14), -3);
  Topology mesh = parse("v5e:4x4", 2);
  EXPECT_EQ(mesh.iciHopDistance(0, 15), 6); // (0,0) -> (3,3), no wrap
  EXPECT_EQ(mesh.axisOffset(0, 3, 0), -3);
  EXPECT_FALSE(mesh.iciHopDistance(0, 16).has_value()); // other slice
}

//===----------------------------------------------------------------------===//
// Meshes and groups
//===----------------------------------------------------------------------===//

TEST(MeshFit, DeviceCountAndDcnShape) {
  Topology t = parse("v5p:2x2x1", 2);
  MeshShape ok{{2, 4}, {2, 1}, {0, 1, 2, 3, 4, 5, 6, 7}};
  EXPECT_FALSE(static_cast<bool>(checkMeshFits(t, ok)));

  MeshShape tooSmall{{2, 2}, {}, {0, 1, 2, 3}};
  std::string error = llvm::toString(checkMeshFits(t, tooSmall));
  EXPECT_NE(error.find("has 4 devices but the topology"), std::string::npos)
      << error;
  EXPECT_NE(error.find("(4 chips per slice x 2 slices)"), std::string::npos)
      << error;

  MeshShape wrongDcn{{4, 2}, {4, 1}, {0, 1, 2, 3, 4, 5, 6, 7}};
  error = llvm::toString(checkMeshFits(t, wrongDcn));
  EXPECT_NE(error.find("DCN shape [4,1] lays out 4 slices but the topology "
                       "has 2"),
            std::string::npos)
      << error;

  MeshShape repeated{{8}, {}, {0, 1, 2, 3, 4, 5, 6, 6}};
  EXPECT_NE(llvm::toString(checkMeshFits(t, repeated)).find("more than once"),
            std::string::npos);
}

TEST(GroupGeometry, RingLineAndIrregular) {
  Topology t = parse("v6e:16x16");
  llvm::SmallVector<int64_t> row;
  for (int64_t x = 0; x < 16; ++x)
    row.push_back(x);
  auto geometry = cantFail(analyzeGroup(t, row));
  ASSERT_TRUE(geometry.slices.front().grid.has_value());
  auto spans = *geometry.slices.front().grid;
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].axis, 0);
  EXPECT_TRUE(spans[0].ring);

  // A run across the wraparound link is a line starting at 14.
  auto crossing = *findSubgrid(t, {14, 15, 0, 1});
  ASSERT_EQ(crossing.size(), 1u);
  EXPECT_FALSE(crossing[0].ring);
  EXPECT_EQ(crossing[0].first, 14);
  EXPECT_EQ(crossing[0].length, 4);

  // A 4x2 block: two runs.
  auto block = *findSubgrid(t, {0, 1, 2, 3, 16, 17, 18, 19});
  ASSERT_EQ(block.size(), 2u);
  EXPECT_EQ(block[1].axis, 1);
  EXPECT_EQ(block[1].length, 2);
  EXPECT_EQ(block[1].stride, 1);

  // Every 4th chip round the 16-ring: a ring of 4 with stride 4.
  auto strided = *findSubgrid(t, {0, 4, 8, 12});
  ASSERT_EQ(strided.size(), 1u);
  EXPECT_TRUE(strided[0].ring);
  EXPECT_EQ(strided[0].stride, 4);
  // Every 3rd chip, not closing the ring: a line from 13 (across the wrap).
  auto third = *findSubgrid(t, {13, 0, 3, 6});
  EXPECT_FALSE(third[0].ring);
  EXPECT_EQ(third[0].first, 13);
  EXPECT_EQ(third[0].stride, 3);
  // Uneven spacing, or not a Cartesian product: irregular.
  EXPECT_FALSE(findSubgrid(t, {0, 1, 3}).has_value());
  EXPECT_FALSE(findSubgrid(t, {0, 1, 17}).has_value());

  // Without wraparound a column of a 4x4 is a line even when complete.
  auto column = *findSubgrid(parse("v5e:4x4"), {0, 4, 8, 12});
  EXPECT_FALSE(column[0].ring);
  EXPECT_EQ(column[0].length, 4);
}

TEST(GroupGeometry, SlicesAndLinkClasses) {
  Topology t = parse("v5p:2x2x1", 2);
  auto dcn = cantFail(analyzeGroup(t, {1, 5}));
  EXPECT_EQ(dcn.getLinkClass(), LinkClass::Dcn);
  auto mixed = cantFail(analyzeGroup(t, {0, 1, 4, 5}));
  EXPECT_EQ(mixed.getLinkClass(), LinkClass::Mixed);
  EXPECT_TRUE(mixed.isBalancedAcrossSlices());
  EXPECT_EQ(mixed.membersPerSlice(), 2);
  EXPECT_FALSE(cantFail(analyzeGroup(t, {0, 1, 4})).isBalancedAcrossSlices());
  llvm::SmallVector<llvm::SmallVector<int64_t>> dcnGroups = {{0, 4}, {1, 5}};
  EXPECT_EQ(cantFail(classifyGroups(t, dcnGroups)), LinkClass::Dcn);
  llvm::SmallVector<llvm::SmallVector<int64_t>> iciGroups = {{0, 1}, {4, 5}};
  EXPECT_EQ(cantFail(classifyGroups(t, iciGroups)), LinkClass::Ici);

  EXPECT_NE(llvm::toString(analyzeGroup(t, {0, 8}).takeError())
                .find("device 8 is outside the topology"),
            std::string::npos);
  EXPECT_NE(
      llvm::toString(analyzeGroup(t, {3, 3}).takeError()).find("appears twice"),
      std::string::npos);
}

} // namespace
