//===- XlaSubAxes.h - sub-axes of mesh axes (Shardy's "x":(m)k) -*- C++ -*-===//
//
// A sub-axis names a contiguous part of a mesh axis, as Shardy's
// `"x":(m)k`: axis "x" of size n, seen row-major as [m, k, n/(m*k)], and the
// sub-axis is the middle part (pre-size m, size k). It lets a reshape that
// splits a dimension over part of an axis keep it sharded.
//
// In attributes a sub-axis is a StringAttr "x:(m)k" (printed `"x":(m)k` in a
// sharding). A mesh axis whose name is literally "x:(m)k" (a refined mesh,
// below) is that axis itself: exact names resolve first.
//
// Refinement: the partitioner and the simulator see only whole axes. For each
// axis used through sub-axes, `refineSubAxes` splits it into atoms at every
// pre-size and pre-size*size the module uses (they must form a chain under
// divisibility) and rewrites every sharding; a row-major split of an axis
// keeps the device order, and on a hybrid mesh the DCN part stays major, so
// the refined mesh names the same devices.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLASUBAXES_H
#define XSPMD_DIALECTS_XLA_XLASUBAXES_H

#include "dialects/xla/XlaDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>

namespace xspmd::xla {

/// The parts of a sub-axis name "x:(m)k".
struct SubAxisName {
  llvm::StringRef parent;
  int64_t preSize = 1;
  int64_t size = 1;
};

/// Parses "x:(m)k"; nullopt for any other name.
std::optional<SubAxisName> parseSubAxisName(llvm::StringRef name);
/// "x:(m)k".
std::string formatSubAxisName(llvm::StringRef parent, int64_t preSize,
                              int64_t size);

/// How diagnostics show an axis: `"x"`, or `"x":(m)k` for a sub-axis.
std::string displayAxisName(llvm::StringRef name);

/// An axis reference resolved on a mesh: the mesh axis, and the part of it
/// (the whole axis is pre-size 1, size = the axis size).
struct ResolvedAxis {
  int64_t index = -1;
  int64_t preSize = 1;
  int64_t size = 1;
  int64_t axisSize = 1;
  bool isWhole() const { return preSize == 1 && size == axisSize; }
};

/// Resolves `name` on `mesh`: an axis of that exact name, else a sub-axis of
/// one whose pre-size times size divides the axis size. nullopt otherwise.
std::optional<ResolvedAxis> resolveAxis(MeshAttr mesh, llvm::StringRef name);

/// Why the sub-axis `name` does not fit its axis of `mesh`; empty when
/// `name` is not a sub-axis of an axis of `mesh`.
std::string explainUnresolvedAxis(MeshAttr mesh, llvm::StringRef name);

/// Whether two axis references share devices: the same axis (or one axis and
/// a sub-axis of it), or two sub-axes of one axis whose ranges
/// [pre, pre*size) intersect. Works on names alone (no mesh needed).
bool axesOverlap(llvm::StringRef a, llvm::StringRef b);

/// Merges adjacent sub-axes of one parent ("x:(1)2", "x:(2)2" -> "x:(1)4"),
/// and a sub-axis covering its whole axis into the axis name (needs `mesh`).
llvm::SmallVector<mlir::StringAttr>
canonicalizeAxes(MeshAttr mesh, llvm::ArrayRef<mlir::StringAttr> axes);

/// Splits `axis` (whole or sub) at pre-size `cut` of its parent: the part
/// before and after. Fails (nullopt) if `cut` is not strictly inside the
/// axis's range or does not divide evenly.
std::optional<std::pair<mlir::StringAttr, mlir::StringAttr>>
splitAxisAt(MeshAttr mesh, mlir::StringAttr axis, int64_t cut);

/// Cut points of sub-axes, per axis of a mesh: the pre-sizes (and pre-size
/// times size) of the parts of the axis in use.
using SubAxisCuts = llvm::SmallVector<std::set<int64_t>>;

/// Adds to `cuts` the cut points a reference to `axis` on `mesh` needs
/// (none for a whole axis or a name that does not resolve).
void noteSubAxisCuts(MeshAttr mesh, mlir::StringAttr axis, SubAxisCuts &cuts);

/// Adds to `cuts` the cut points a reshape needs to keep the split of a
/// tensor of `shape` (`dimAxes[d]` the axes splitting dimension d) on the
/// other side, of `otherShape`: where a dimension of the other side begins
/// inside the axes of a dimension of this one (a [48] split over "x"=4
/// reshaped to or from [2, 24] puts "x":(1)2 on the 2 and "x":(2)2 on the
/// 24). A cut is added only if `mesh` can still be refined at every cut.
void noteReshapeCuts(
    MeshAttr mesh, llvm::ArrayRef<int64_t> shape,
    llvm::ArrayRef<int64_t> otherShape,
    llvm::ArrayRef<llvm::SmallVector<mlir::StringAttr>> dimAxes,
    SubAxisCuts &cuts);

/// A mesh with some axes split into atoms (sub-axes of their own), and how
/// references to the original mesh map onto them.
class MeshRefinement {
public:
  /// `mesh` split at `cuts` (row-major; on a hybrid mesh the DCN part stays
  /// major). nullopt, with `error` set, when the cuts of one axis do not form
  /// a divisibility chain or split a DCN part unevenly.
  static std::optional<MeshRefinement>
  build(MeshAttr mesh, llvm::ArrayRef<std::set<int64_t>> cuts,
        std::string &error);

  MeshAttr getOriginal() const { return original; }
  MeshAttr getRefined() const { return refined; }
  /// The atoms of the refined mesh that `name` (an axis or sub-axis of the
  /// original mesh) stands for, major to minor; `name` itself when its axis
  /// is not split. Empty when `name` does not resolve or its range does not
  /// start and end at cuts of the refinement.
  llvm::SmallVector<mlir::StringAttr> expand(mlir::StringAttr name) const;

private:
  /// The atoms one axis splits into: cut points 1 = c0 < ... < cn = size.
  struct AxisAtoms {
    llvm::SmallVector<int64_t> cuts;
    llvm::SmallVector<mlir::StringAttr> names;
  };
  MeshAttr original;
  MeshAttr refined;
  /// Per axis of the original mesh; empty `names` when the axis is kept.
  llvm::SmallVector<AxisAtoms> atoms;
};

/// `mesh` refined at the sub-axes `sharding` names, and `sharding` over it
/// (unchanged when it names none). nullopt, with `error` set, when the
/// sub-axes are incompatible.
std::optional<std::pair<MeshAttr, ShardingAttr>>
refineForSharding(MeshAttr mesh, ShardingAttr sharding, std::string &error);

/// `mesh` with every axis split into its prime factors (major to minor in
/// increasing order), for searches over every sub-axis.
MeshAttr primeRefinedMesh(MeshAttr mesh);

/// Replaces every mesh of `module` that some sharding refers to through
/// sub-axes by its refinement into atoms, and rewrites every sharding (on
/// ops, arguments, results, nested attributes) to name atoms. Emits a located
/// error and fails when the sub-axes of one axis are incompatible (their
/// cuts do not form a divisibility chain). A module without sub-axes is left
/// unchanged.
mlir::LogicalResult refineSubAxes(mlir::ModuleOp module);

} // namespace xspmd::xla

#endif // XSPMD_DIALECTS_XLA_XLASUBAXES_H
