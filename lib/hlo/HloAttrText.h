//===- HloAttrText.h - reading HLO attribute values -------------*- C++ -*-===//
//
// The attribute values of HLO instructions, from the text the parser kept:
// integer lists `{0,1}`, replica groups `{{0,1},{2,3}}` or `[2,2]<=[4]`,
// `slice={[0:4:2], [1:8]}`, `padding=0_1x2_3_1`, `window={size=3x3 ...}`,
// `dim_labels=b01f_01io->b01f`, computation references and literals. Each
// reader returns false with a message naming what is wrong.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOATTRTEXT_H
#define XSPMD_LIB_HLO_HLOATTRTEXT_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace xspmd::hlo {

/// `{0,1,2}` or `{}`.
bool readIntList(llvm::StringRef text, llvm::SmallVectorImpl<int64_t> &values,
                 std::string &error);

/// A plain integer (`3`, `-1`).
bool readInt(llvm::StringRef text, int64_t &value, std::string &error);

/// `true` / `false`.
bool readBool(llvm::StringRef text, bool &value, std::string &error);

/// `{{0,1},{2,3}}`, `{}` (no groups) or the iota form `[2,2]<=[4]`,
/// `[2,2]<=[2,2]T(1,0)`. Groups of unequal size are an error.
bool readReplicaGroups(llvm::StringRef text,
                       std::vector<llvm::SmallVector<int64_t>> &groups,
                       std::string &error);

/// `{{0,1},{1,0}}` pairs.
bool readPairs(llvm::StringRef text,
               std::vector<std::pair<int64_t, int64_t>> &pairs,
               std::string &error);

/// `{[0:4], [2:8:2]}`: start, limit, stride per dimension.
struct SliceDims {
  llvm::SmallVector<int64_t> start, limit, stride;
};
bool readSlice(llvm::StringRef text, SliceDims &slice, std::string &error);

/// `0_1x2_3` or `0_1_0x2_3_1`: low, high, interior per dimension.
struct PaddingDims {
  llvm::SmallVector<int64_t> low, high, interior;
};
bool readPadding(llvm::StringRef text, PaddingDims &padding,
                 std::string &error);

/// `{size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=1x1 rhs_dilate=1x1}`.
struct Window {
  llvm::SmallVector<int64_t> size, stride, padLow, padHigh, lhsDilate,
      rhsDilate;
  /// Per dimension, 1 where `rhs_reversal` reverses the kernel (empty when
  /// the window does not say).
  llvm::SmallVector<int64_t> rhsReversal;
  bool reversed = false;
};
bool readWindow(llvm::StringRef text, Window &window, std::string &error);

/// `b01f_01io->b01f`: for each operand, the position of the batch (or
/// input feature), feature (or output feature) and spatial dimensions.
struct ConvLabels {
  int64_t lhsBatch, lhsFeature, rhsInput, rhsOutput, outBatch, outFeature;
  llvm::SmallVector<int64_t> lhsSpatial, rhsSpatial, outSpatial;
};
bool readDimLabels(llvm::StringRef text, ConvLabels &labels,
                   std::string &error);

/// `%name` or `name` (a computation reference).
std::string readComputationName(llvm::StringRef text);

/// `{%a, %b}` (branch_computations).
bool readComputationList(llvm::StringRef text, std::vector<std::string> &names,
                         std::string &error);

/// An attribute value that is a quoted string, unquoted.
std::string readString(llvm::StringRef text);

/// The scalars of a literal (`{ {1, 2}, {3, 4} }`, `1.5`, `true`, `-inf`),
/// row-major, as text.
bool readLiteral(llvm::StringRef text, std::vector<std::string> &scalars,
                 std::string &error);

/// A sharding that is a tuple `{{...}, {...}}`: its element texts.
/// Returns false for an array sharding.
bool splitTupleSharding(llvm::StringRef text,
                        std::vector<std::string> &elements);

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOATTRTEXT_H
