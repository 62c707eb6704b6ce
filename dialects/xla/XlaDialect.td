//===- XlaDialect.td - the xla dialect ---------------------*- tablegen -*-===//
//
// The `xla` dialect: the lazy-tensor graph PyTorch/XLA records between two
// mark_steps, with meshes, partition-spec shardings and explicit collectives.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_DIALECTS_XLA_XLADIALECT_TD
#define XSPMD_DIALECTS_XLA_XLADIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Xla_Dialect : Dialect {
  let name = "xla";
  let cppNamespace = "::xspmd::xla";
  let summary = "Lazy-tensor graphs with meshes, shardings and collectives";
  let description = [{
    The `xla` dialect holds single-device tensor programs as PyTorch/XLA
    records them between two `mark_step`s, the device meshes they are sharded
    over (plain `Mesh` and ICI x DCN `HybridMesh`), partition-spec shardings
    with torch_xla semantics, and the collectives an SPMD program uses.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let hasConstantMaterializer = 1;
  let extraClassDeclaration = [{
    void registerAttributes();
    void registerOps();

    /// Meshes seen by the parser, so that a sharding written with integer
    /// axis indices can be resolved to axis names while it is parsed.
    /// The map is per context and only grows; a later mesh of the same name
    /// (e.g. in the next chunk of -split-input-file) replaces the earlier one.
    void rememberParsedMesh(::mlir::StringAttr name, ::mlir::Attribute mesh);
    ::mlir::Attribute lookupParsedMesh(::mlir::StringAttr name) const;

  private:
    ::llvm::DenseMap<::mlir::StringAttr, ::mlir::Attribute> parsedMeshes;
    mutable std::mutex parsedMeshesMutex;
  public:
  }];
}

class Xla_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Xla_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // XSPMD_DIALECTS_XLA_XLADIALECT_TD
