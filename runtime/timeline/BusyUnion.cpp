//===- BusyUnion.cpp - length of a union of intervals, online -------------===//

#include "runtime/timeline/BusyUnion.h"

#include <algorithm>
#include <cassert>

namespace xspmd::timeline {

void BusyUnion::add(double begin, double end) {
  if (!(end > begin))
    return;
  assert(begin >= horizon && "an interval begins before the horizon");
  // New intervals land at or near the end: walk back to the first segment
  // that reaches `begin` (ends grow along the list).
  size_t first = open.size();
  while (first > 0 && open[first - 1].end >= begin)
    --first;
  size_t last = first;
  while (last < open.size() && open[last].begin <= end) {
    begin = std::min(begin, open[last].begin);
    end = std::max(end, open[last].end);
    ++last;
  }
  if (first == last) {
    open.insert(open.begin() + first, Segment{begin, end});
    return;
  }
  open[first] = Segment{begin, end};
  open.erase(open.begin() + first + 1, open.begin() + last);
}

void BusyUnion::settle(double horizon) {
#ifndef NDEBUG
  this->horizon = horizon;
#endif
  // A segment ending exactly at the horizon may still be extended.
  size_t n = 0;
  while (n < open.size() && open[n].end < horizon) {
    settled += open[n].end - open[n].begin;
    ++n;
  }
  if (n)
    open.erase(open.begin(), open.begin() + n);
}

double BusyUnion::finish() {
  for (const Segment &s : open)
    settled += s.end - s.begin;
  double total = settled;
  open.clear();
  settled = 0;
#ifndef NDEBUG
  horizon = -std::numeric_limits<double>::infinity();
#endif
  return total;
}

} // namespace xspmd::timeline
