//===- XlaAttrs.td - mesh and sharding attributes ----------*- tablegen -*-===//

#ifndef XSPMD_DIALECTS_XLA_XLAATTRS_TD
#define XSPMD_DIALECTS_XLA_XLAATTRS_TD

include "dialects/xla/XlaDialect.td"
include "dialects/xla/XlaEnums.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Xla_MeshAxisAttr : AttrDef<Xla_Dialect, "MeshAxis"> {
  let attrName = "xla.mesh_axis";
  let summary = "A named mesh axis with its size";
  let parameters = (ins "::mlir::StringAttr":$name, "int64_t":$size);
}

def Xla_MeshAttr : Xla_Attr<"Mesh", "mesh"> {
  let summary = "A logical device mesh: named axes over a device order";
  let description = [{
    Three forms, mirroring torch_xla:

    - `<["data"=4, "model"=2]>`: devices 0..N-1 laid out row-major
      (torch_xla `Mesh(np.arange(N), shape)`);
    - `<["x"=4, "y"=2], devices=[0, 2, 4, 6, 1, 3, 5, 7]>`: an explicit device
      order, row-major over the logical mesh (must be a permutation);
    - `<[], devices=[3]>`: a maximal (single-device) mesh, Shardy's
      `<[], device_ids=[3]>` and GSPMD's `{maximal device=3}`: a value
      sharded over it lives on device 3 only, in a module whose other meshes
      span more devices (3 must be below their device count);
    - `hybrid<ici=["data"=1, "fsdp"=4], dcn=["data"=2, "fsdp"=1]>`: torch_xla
      `HybridMesh` / JAX `create_hybrid_device_mesh`. Axis i has size
      ici[i]*dcn[i]; slice s holds devices s*S..(s+1)*S-1 (S = prod(ici)),
      laid out row-major by the ICI shape; slices are laid out by the DCN
      shape, and the DCN index is the major part of each axis.

    Standalone, the attribute prints as `#xla.mesh<...>` (the hybrid form as
    `#xla.mesh<hybrid ici=[...], dcn=[...]>`); the `xla.mesh` op prints the
    body only.
  }];
  let parameters = (ins
    ArrayRefParameter<"MeshAxisAttr", "axes (name and total size)">:$axes,
    OptionalArrayRefParameter<"int64_t", "explicit device order">:$deviceIds,
    OptionalArrayRefParameter<"int64_t", "hybrid: DCN factor per axis">:$dcnSizes);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isHybrid() const { return !getDcnSizes().empty(); }
    /// A single-device mesh naming its device (`<[], devices=[k]>`).
    bool isMaximal() const;
    /// The device of a maximal mesh, -1 for other meshes.
    int64_t getMaximalDevice() const;
    int64_t getNumDevices() const;
    int64_t getRank() const { return getAxes().size(); }
    /// Index of the axis called `name`, or -1.
    int64_t getAxisIndex(::llvm::StringRef name) const;
    int64_t getAxisSize(::llvm::StringRef name) const;
    /// ICI factor of axis `i` (its total size for a non-hybrid mesh).
    int64_t getIciSize(int64_t i) const;
    int64_t getDcnSize(int64_t i) const;
    LinkClass getLinkClass(int64_t i) const;
    /// Devices per slice of a hybrid mesh (product of the ICI sizes); 0 for
    /// a plain mesh (one slice).
    int64_t getSliceSize() const;
    /// The link class a collective over `axes` travels on: ici when every
    /// axis (of size > 1) is ici, dcn when all are dcn, mixed otherwise.
    LinkClass getLinkClassOfAxes(::llvm::ArrayRef<::llvm::StringRef> axes) const;
    /// The same for explicit groups of device ids: ici when every group
    /// stays in one slice, dcn when each member is in its own slice.
    LinkClass getLinkClassOfGroups(
        ::llvm::ArrayRef<::llvm::SmallVector<int64_t>> groups) const;
    /// Device ids in row-major order of the logical mesh.
    ::llvm::SmallVector<int64_t> getDeviceArray() const;

    /// Body printer/parser shared with the `xla.mesh` op: prints `<...>` or
    /// `hybrid<...>`.
    void printBody(::mlir::AsmPrinter &printer) const;
    static MeshAttr parseBody(::mlir::AsmParser &parser);
  }];
}

def Xla_DimShardingAttr : AttrDef<Xla_Dialect, "DimSharding"> {
  let attrName = "xla.dim_sharding";
  let summary = "How one tensor dimension is sharded";
  let description = [{
    An ordered list of mesh axes (major to minor) the dimension is split over,
    whether propagation may add further axes (`open`, printed `?`), and an
    optional priority (`p0` is the strongest), as in Shardy.
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"::mlir::StringAttr">:$axes,
    "bool":$isOpen,
    OptionalParameter<"std::optional<int64_t>">:$priority);
  let extraClassDeclaration = [{
    bool isReplicated() const { return getAxes().empty(); }
    bool isClosed() const { return !getIsOpen(); }
  }];
}

def Xla_ShardingAttr : Xla_Attr<"Sharding", "sharding"> {
  let summary = "A partition spec over a mesh";
  let description = [{
    One entry per tensor dimension, mirroring torch_xla's partition spec:
    `{}` (replicated, torch_xla `None`), `{"x"}` (one axis), `{"x", "y"}`
    (a tuple of axes, major to minor). Mesh axes used by no entry replicate.
    Integer axis indices (`{0}`) are accepted and printed as names. `?` marks
    an open dimension that propagation may shard further, `p<N>` a priority.

    `partial={"model"}` says the value is a pending reduction across those
    axes (each device holds a partial result); the reduction is a sum unless
    spelled `partial<max>={...}` (any of sum, mul, and, or, min, max).
    docs/dialect.md has examples.
  }];
  let parameters = (ins
    "::mlir::FlatSymbolRefAttr":$mesh,
    ArrayRefParameter<"DimShardingAttr">:$dims,
    OptionalArrayRefParameter<"::mlir::StringAttr">:$partialAxes,
    DefaultValuedParameter<"ReductionKind", "ReductionKind::sum">:$partialKind);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getDims().size(); }
    bool isPartial() const { return !getPartialAxes().empty(); }
    /// No dimension sharded and nothing pending.
    bool isFullyReplicated() const;
    /// Axes used by dimensions (in dimension order, major to minor).
    ::llvm::SmallVector<::mlir::StringAttr> getShardedAxes() const;
    /// Product of the sizes of the axes dimension `dim` is split over.
    int64_t getNumShards(MeshAttr mesh, int64_t dim) const;
    /// Checks the sharding against its mesh and the tensor type it annotates:
    /// unknown axes, rank mismatch. Diagnostics go to `emitError`.
    ::mlir::LogicalResult verifyFor(
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError,
        MeshAttr mesh, ::mlir::Type type) const;
    /// A copy with other dims / partial axes.
    ShardingAttr withDims(::llvm::ArrayRef<DimShardingAttr> dims) const;
    ShardingAttr withPartial(::llvm::ArrayRef<::mlir::StringAttr> axes,
                             ReductionKind kind) const;
    /// The fully replicated, closed sharding of a rank-`rank` tensor.
    static ShardingAttr getReplicated(::mlir::MLIRContext *ctx,
                                      ::mlir::FlatSymbolRefAttr mesh,
                                      int64_t rank);
  }];
}

include "dialects/xla/XlaShardingRule.td"

#endif // XSPMD_DIALECTS_XLA_XLAATTRS_TD
