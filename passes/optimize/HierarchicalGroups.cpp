//===- HierarchicalGroups.cpp - ICI and DCN parts of replica groups -------===//

#include "passes/optimize/HierarchicalGroups.h"

#include "llvm/ADT/STLExtras.h"

using namespace xspmd::xla;

namespace xspmd::optimize {

std::optional<LinkSplit> splitByLinks(const DeviceGroups &groups,
                                      int64_t sliceSize) {
  if (groups.empty() || sliceSize <= 0)
    return std::nullopt;
  LinkSplit split;
  bool dcnMajor = true, iciMajor = true;
  for (const auto &group : groups) {
    if (group.empty())
      return std::nullopt;
    // The group's members per slice, slices in order of first appearance.
    DeviceGroups slices;
    llvm::SmallVector<int64_t> sliceIds;
    for (int64_t device : group) {
      int64_t slice = device / sliceSize;
      auto *it = llvm::find(sliceIds, slice);
      if (it == sliceIds.end()) {
        sliceIds.push_back(slice);
        slices.emplace_back();
        it = sliceIds.end() - 1;
      }
      slices[it - sliceIds.begin()].push_back(device);
    }
    int64_t d = slices.size(), i = static_cast<int64_t>(group.size()) / d;
    if (llvm::any_of(slices, [&](const auto &s) {
          return static_cast<int64_t>(s.size()) != i;
        }))
      return std::nullopt;
    if (split.iciSize == 0) {
      split.iciSize = i;
      split.dcnSize = d;
    } else if (split.iciSize != i || split.dcnSize != d) {
      return std::nullopt;
    }
    for (int64_t p = 0, n = group.size(); p < n; ++p) {
      dcnMajor &= group[p] == slices[p / i][p % i];
      iciMajor &= group[p] == slices[p % d][p / d];
    }
    llvm::append_range(split.ici, slices);
    for (int64_t b = 0; b < i; ++b) {
      llvm::SmallVector<int64_t> &across = split.dcn.emplace_back();
      for (int64_t a = 0; a < d; ++a)
        across.push_back(slices[a][b]);
    }
  }
  split.layout = dcnMajor   ? GroupLayout::DcnMajor
                 : iciMajor ? GroupLayout::IciMajor
                            : GroupLayout::Interleaved;
  return split;
}

bool sameGroupSets(DeviceGroups a, DeviceGroups b) {
  llvm::sort(a);
  llvm::sort(b);
  return a == b;
}

} // namespace xspmd::optimize
