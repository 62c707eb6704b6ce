//===- Faults.cpp - injected hardware faults ------------------------------===//

#include "runtime/topology/Faults.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using llvm::formatv;

namespace xspmd::topology {

static llvm::Error faultError(llvm::StringRef spec, const llvm::Twine &why) {
  return llvm::createStringError(
      formatv("--fault={0}: {1}", spec, why.str()).str());
}

static constexpr llvm::StringLiteral kExpected =
    "expected link:DEVICE:AXIS(+|-):slow=F, link:DEVICE:AXIS(+|-):fail, "
    "device:DEVICE:fail, dcn:slow=F or dcn:SLICE:slow=F";

/// "slow=F" with F >= 1.
static llvm::Expected<double> parseSlowdown(llvm::StringRef spec,
                                            llvm::StringRef text) {
  double factor = 0;
  if (!text.consume_front("slow=") || text.getAsDouble(factor) ||
      !(factor >= 1))
    return faultError(spec, formatv("'{0}' is not slow=F with a factor F >= 1 "
                                    "(the bandwidth is divided by F)",
                                    text));
  return factor;
}

static llvm::Expected<int64_t> parseId(llvm::StringRef spec,
                                       llvm::StringRef text,
                                       llvm::StringRef what, int64_t limit) {
  int64_t id = 0;
  if (text.getAsInteger(10, id) || id < 0)
    return faultError(spec, formatv("'{0}' is not a {1} number", text, what));
  if (id >= limit)
    return faultError(spec, formatv("{0} {1} does not exist (the topology has "
                                    "{0}s 0..{2})",
                                    what, id, limit - 1));
  return id;
}

llvm::Error FaultSet::add(const Topology &topology, llvm::StringRef spec) {
  llvm::SmallVector<llvm::StringRef, 4> parts;
  spec.split(parts, ':');
  llvm::StringRef kind = parts.front();
  if (kind == "device" && parts.size() == 3) {
    llvm::Expected<int64_t> device =
        parseId(spec, parts[1], "device", topology.getNumDevices());
    if (!device)
      return device.takeError();
    if (parts[2] != "fail")
      return faultError(
          spec, formatv("a device fault is 'fail'; got '{0}'", parts[2]));
    failedDevices[*device] =
        formatv("device {0} failed (--fault={1})", *device, spec).str();
  } else if (kind == "dcn" && (parts.size() == 2 || parts.size() == 3)) {
    if (topology.getNumSlices() == 1)
      return faultError(spec, "the topology has one slice: no DCN to degrade "
                              "(pass --slices)");
    llvm::Expected<double> factor = parseSlowdown(spec, parts.back());
    if (!factor)
      return factor.takeError();
    if (parts.size() == 2) {
      dcnSlowdownAll *= *factor;
    } else {
      llvm::Expected<int64_t> slice =
          parseId(spec, parts[1], "slice", topology.getNumSlices());
      if (!slice)
        return slice.takeError();
      slowSlices[*slice] = *factor;
    }
  } else if (kind == "link" && parts.size() == 4) {
    llvm::Expected<int64_t> device =
        parseId(spec, parts[1], "device", topology.getNumDevices());
    if (!device)
      return device.takeError();
    llvm::StringRef port = parts[2];
    int axis = port.size() == 2 ? llvm::StringRef("xyz").find(port[0]) : -1;
    if (axis < 0 || axis >= topology.getRank() ||
        (port[1] != '+' && port[1] != '-'))
      return faultError(spec,
                        formatv("'{0}' is not a port: expected an axis of the "
                                "{1}D torus ({2}) and + or -, like x+",
                                port, topology.getRank(),
                                topology.getRank() == 2 ? "x, y" : "x, y, z"));
    int direction = port[1] == '+' ? +1 : -1;
    const IciLink *link = nullptr;
    llvm::SmallVector<IciLink, 6> links = topology.getIciLinks(*device);
    for (const IciLink &candidate : links)
      if (candidate.axis == axis && candidate.direction == direction)
        link = &candidate;
    if (!link)
      return faultError(
          spec, formatv("device {0} has no {1} link in {2} (axis {3} "
                        "has no wraparound or no neighbour that way)",
                        *device, port, topology.describe(), axisName(axis)));
    // A fault takes the cable: both directions.
    int64_t there = directedLinkKey(*device, axis, direction);
    int64_t back = directedLinkKey(link->neighbor, axis, -direction);
    if (parts[3] == "fail") {
      std::string text = formatv("link {0} {1} (device {0} <-> device {2}) "
                                 "failed (--fault={3})",
                                 *device, port, link->neighbor, spec)
                             .str();
      failedLinks[there] = text;
      failedLinks[back] = text;
    } else {
      llvm::Expected<double> factor = parseSlowdown(spec, parts[3]);
      if (!factor)
        return factor.takeError();
      slowLinks[there] = slowLinks[back] = *factor;
    }
  } else {
    return faultError(spec, kExpected);
  }
  specs.push_back(spec.str());
  return llvm::Error::success();
}

} // namespace xspmd::topology
