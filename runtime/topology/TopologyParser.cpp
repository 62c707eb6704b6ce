//===- TopologyParser.cpp - --topology strings ----------------------------===//

#include "runtime/topology/TopologyParser.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using llvm::createStringError;
using llvm::formatv;
using llvm::StringRef;

namespace xspmd::topology {

static std::string knownGenerations() {
  llvm::SmallVector<std::string, 4> names;
  for (const GenerationSpec &spec : allGenerationSpecs())
    names.push_back(
        spec.name == spec.acceleratorPrefix
            ? spec.name.str()
            : (spec.name + " (" + spec.acceleratorPrefix + ")").str());
  return llvm::join(names, ", ");
}

static llvm::Error unknownGeneration(StringRef name, StringRef text) {
  return createStringError(formatv("unknown TPU generation '{0}' in topology "
                                   "'{1}'; expected one of {2}",
                                   name, text, knownGenerations()));
}

static llvm::Expected<Generation> parseGenerationName(StringRef name,
                                                      StringRef text) {
  if (std::optional<Generation> generation = lookupGeneration(name))
    return *generation;
  return unknownGeneration(name, text);
}

/// "4x4x4" -> {4, 4, 4}.
static llvm::Expected<llvm::SmallVector<int64_t, 3>>
parseShape(StringRef shapeText, StringRef text) {
  llvm::SmallVector<StringRef, 3> parts;
  shapeText.split(parts, 'x');
  llvm::SmallVector<int64_t, 3> shape;
  for (StringRef part : parts) {
    int64_t n;
    if (part.empty() || part.getAsInteger(10, n) || n < 1)
      return createStringError(formatv("malformed slice shape '{0}' in "
                                       "topology '{1}'; expected positive "
                                       "lengths joined by 'x', like 4x4x4",
                                       shapeText, text));
    shape.push_back(n);
  }
  return shape;
}

/// "v5p-128": the standard slice with 128 TensorCores (64 chips).
static llvm::Expected<SliceRequest> parseAcceleratorType(StringRef text) {
  auto [prefix, countText] = text.rsplit('-');
  llvm::Expected<Generation> generation = parseGenerationName(prefix, text);
  if (!generation)
    return generation.takeError();
  const GenerationSpec &spec = getGenerationSpec(*generation);
  int64_t count;
  if (countText.empty() || countText.getAsInteger(10, count) || count < 1)
    return createStringError(formatv("malformed accelerator type '{0}'; "
                                     "expected <generation>-<count>, like "
                                     "{1}-8",
                                     text, spec.acceleratorPrefix));
  int perChip = spec.tensorCoresPerChip;
  llvm::SmallVector<std::string, 12> known;
  for (const StandardSlice &slice : spec.standardSlices()) {
    known.push_back(std::to_string(slice.chips * perChip));
    if (slice.chips * perChip == count)
      return SliceRequest{
          *generation, llvm::SmallVector<int64_t, 3>(
                           llvm::ArrayRef(slice.shape.data(), spec.torusRank))};
  }
  std::string unit = perChip > 1
                         ? formatv(" ({0} accelerator types count TensorCores, "
                                   "{1} per chip)",
                                   spec.name, perChip)
                               .str()
                         : std::string();
  return createStringError(formatv("no standard {0} slice for accelerator "
                                   "type '{1}'{2}; known counts: {3}; or give "
                                   "a shape, like {0}:{4}",
                                   spec.name, text, unit,
                                   llvm::join(known, ", "),
                                   spec.torusRank == 3 ? "4x4x4" : "4x4"));
}

llvm::Expected<SliceRequest> parseSliceRequest(StringRef text) {
  StringRef trimmed = text.trim();
  if (trimmed.empty())
    return createStringError(formatv("empty topology; expected "
                                     "<generation>:<shape> (v5p:4x4x4) or an "
                                     "accelerator type (v5p-128); generations: "
                                     "{0}",
                                     knownGenerations()));
  if (trimmed.contains(':')) {
    auto [name, shapeText] = trimmed.split(':');
    llvm::Expected<Generation> generation = parseGenerationName(name, text);
    if (!generation)
      return generation.takeError();
    auto shape = parseShape(shapeText, text);
    if (!shape)
      return shape.takeError();
    return SliceRequest{*generation, std::move(*shape)};
  }
  if (trimmed.contains('-'))
    return parseAcceleratorType(trimmed);
  if (lookupGeneration(trimmed))
    return createStringError(formatv(
        "topology '{0}' names a generation but "
        "no slice; write {0}:<shape> or an "
        "accelerator type like {1}-8",
        trimmed,
        getGenerationSpec(*lookupGeneration(trimmed)).acceleratorPrefix));
  return unknownGeneration(trimmed, text);
}

llvm::Expected<Topology> parseTopology(StringRef text, int64_t numSlices) {
  llvm::Expected<SliceRequest> request = parseSliceRequest(text);
  if (!request)
    return request.takeError();
  return Topology::create(getGenerationSpec(request->generation),
                          request->sliceShape, numSlices);
}

} // namespace xspmd::topology
