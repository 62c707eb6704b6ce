//===- CollectiveUtils.h - helpers of --xla-optimize-collectives -*- C++
//-*-===//
//
// Reading and writing the participants of collectives, axis-list algebra,
// group sizes and byte counts, shared by the rewrites of
// --xla-optimize-collectives.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_PASSES_OPTIMIZE_COLLECTIVEUTILS_H
#define XSPMD_PASSES_OPTIMIZE_COLLECTIVEUTILS_H

#include "dialects/xla/XlaOps.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace xspmd::optimize {

/// The participants of a collective as written: mesh axes, explicit groups,
/// or neither (every device), plus the optional link class.
struct Participants {
  mlir::FlatSymbolRefAttr mesh;
  mlir::ArrayAttr axes;
  mlir::DenseIntElementsAttr groups;
  xla::LinkClassAttr link;

  static Participants of(mlir::Operation *op);
  /// Mesh-axes participants over `axes` of `mesh`, with `link`.
  static Participants onAxes(mlir::MLIRContext *ctx,
                             mlir::FlatSymbolRefAttr mesh,
                             llvm::ArrayRef<llvm::StringRef> axes,
                             xla::LinkClassAttr link);
  static Participants onGroups(mlir::MLIRContext *ctx,
                               const xla::DeviceGroups &groups,
                               xla::LinkClass link);

  bool isMeshAxes() const { return static_cast<bool>(axes); }
  llvm::SmallVector<llvm::StringRef> axisNames() const;
  /// Same groups, spelled the same way (axis order matters); the link class
  /// is ignored.
  bool sameGroupsAs(const Participants &other) const;
};

/// The mesh a mesh-axes collective names.
xla::MeshAttr meshOf(mlir::Operation *op, mlir::FlatSymbolRefAttr name);

/// The number of devices of each group of `op`, if it can be known (for a
/// collective over every device, from the module's meshes).
std::optional<int64_t> groupSize(mlir::Operation *op);

/// The groups of `op`, resolved to device ids, if they can be known.
std::optional<xla::DeviceGroups> resolveGroups(mlir::Operation *op);

/// Axis-list algebra on names.
bool disjoint(llvm::ArrayRef<llvm::StringRef> a,
              llvm::ArrayRef<llvm::StringRef> b);
bool contains(llvm::ArrayRef<llvm::StringRef> list, llvm::StringRef name);
bool isPrefix(llvm::ArrayRef<llvm::StringRef> prefix,
              llvm::ArrayRef<llvm::StringRef> list);
bool isSuffix(llvm::ArrayRef<llvm::StringRef> suffix,
              llvm::ArrayRef<llvm::StringRef> list);
/// `a` without the names in `b`, keeping `a`'s order.
llvm::SmallVector<llvm::StringRef> without(llvm::ArrayRef<llvm::StringRef> a,
                                           llvm::ArrayRef<llvm::StringRef> b);

/// The link class of a collective over `axes` of `mesh`, to keep on a
/// rewritten collective: none when the original had none (not lowered yet);
/// otherwise ici or dcn when every axis of size > 1 is of that class, mixed
/// else.
xla::LinkClassAttr linkForAxes(xla::MeshAttr mesh,
                               llvm::ArrayRef<llvm::StringRef> axes,
                               xla::LinkClassAttr original);

/// The link of two collectives merged into one: the common class, mixed when
/// both are tagged differently, none when either is untagged.
xla::LinkClassAttr mergeLinks(xla::LinkClassAttr a, xla::LinkClassAttr b);

/// Bytes of a ranked tensor type (i1 counts one byte per element).
int64_t numBytes(mlir::Type type);

/// Builders that take participants.
mlir::Value createAllReduce(mlir::OpBuilder &b, mlir::Location loc,
                            xla::ReductionKind kind, mlir::Value input,
                            llvm::APFloat scale, const Participants &p);
mlir::Value createReduceScatter(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::RankedTensorType type,
                                xla::ReductionKind kind, mlir::Value input,
                                int64_t dim, llvm::APFloat scale,
                                const Participants &p);
mlir::Value createAllGather(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::RankedTensorType type, mlir::Value input,
                            int64_t dim, const Participants &p);
mlir::Value createAllSlice(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::RankedTensorType type, mlir::Value input,
                           int64_t dim, const Participants &p);
/// `xla.reshape` to `type`, or `input` itself when it already has it.
mlir::Value createReshape(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value input, mlir::RankedTensorType type);

/// `type` with dimension `dim` multiplied by `multiply` and divided by
/// `divide`.
mlir::RankedTensorType scaleDim(mlir::RankedTensorType type, int64_t dim,
                                int64_t multiply, int64_t divide = 1);

} // namespace xspmd::optimize

#endif // XSPMD_PASSES_OPTIMIZE_COLLECTIVEUTILS_H
