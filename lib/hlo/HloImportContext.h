//===- HloImportContext.h - state of the opcode importers -------*- C++ -*-===//
//
// The importer walks a computation's instructions in order; each opcode's
// importer (one file per family: ImportElementwise.cpp, ImportShape.cpp,
// ...) reads its operands' values, builds xla ops and binds the
// instruction's result. A value is the list of arrays of the HLO value
// (one for an array, the flattened leaves for a tuple).
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOIMPORTCONTEXT_H
#define XSPMD_LIB_HLO_HLOIMPORTCONTEXT_H

#include "lib/hlo/HloAst.h"
#include "lib/hlo/HloAttrText.h"
#include "lib/hlo/HloMeshInference.h"

#include "dialects/xla/XlaOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SourceMgr.h"

namespace xspmd::hlo {

class ComputationImporter;

/// Imports one instruction; on failure it has reported a located error.
using OpImporter = mlir::LogicalResult (*)(ComputationImporter &,
                                           const Instruction &);
using OpImporterTable = llvm::StringMap<OpImporter>;

void addElementwiseImporters(OpImporterTable &table);
void addShapeImporters(OpImporterTable &table);
void addDotConvImporters(OpImporterTable &table);
void addReduceImporters(OpImporterTable &table);
void addIndexingImporters(OpImporterTable &table);
void addControlFlowImporters(OpImporterTable &table);
void addCollectiveImporters(OpImporterTable &table);
void addBatchNormImporters(OpImporterTable &table);

/// Module-wide state: the syntax tree, locations, meshes, functions.
class ModuleImporter {
public:
  ModuleImporter(const Module &ast, llvm::SourceMgr &sourceMgr,
                 mlir::ModuleOp module);

  mlir::LogicalResult run();

  mlir::MLIRContext *getContext() { return module.getContext(); }
  const Module &getAst() const { return ast; }
  mlir::ModuleOp getModule() { return module; }
  MeshInference &getMeshes() { return meshes; }
  const OpImporterTable &getTable() const { return table; }
  int64_t getReplicaCount() const { return replicaCount; }
  int64_t getNumPartitions() const { return numPartitions; }

  /// `file:line:col` of a position in the HLO text.
  mlir::FileLineColLoc getLoc(llvm::SMLoc loc);
  /// An op's location: metadata's op_name and source line when present,
  /// else the instruction's name at its HLO position.
  mlir::Location getOpLoc(const Instruction &inst);
  mlir::InFlightDiagnostic emitError(llvm::SMLoc loc);

  /// The tensor type of an array shape (errors on tuples and element types
  /// the dialect lacks).
  mlir::FailureOr<mlir::RankedTensorType> getTensorType(const Shape &shape,
                                                        llvm::SMLoc loc);
  /// The leaf tensor types of a shape.
  mlir::LogicalResult getLeafTypes(const Shape &shape, llvm::SMLoc loc,
                                   llvm::SmallVectorImpl<mlir::Type> &types);

  const Computation *lookupComputation(const Instruction &inst,
                                       llvm::StringRef attrName);

  /// The private function for a computation called with `call`.
  mlir::FailureOr<mlir::func::FuncOp> getCalledFunction(const Computation &c);

  /// The shardings of an instruction's leaves (none when it has no
  /// `sharding=`; a null entry for a leaf without one).
  mlir::LogicalResult
  getLeafShardings(const Instruction &inst,
                   llvm::SmallVectorImpl<xla::ShardingAttr> &shardings);

private:
  mlir::FailureOr<mlir::func::FuncOp>
  importFunction(const Computation &comp, llvm::StringRef name, bool isEntry);
  mlir::LogicalResult collectShardings();

  const Module &ast;
  llvm::SourceMgr &sourceMgr;
  mlir::ModuleOp module;
  MeshInference meshes;
  OpImporterTable table;
  llvm::StringMap<mlir::func::FuncOp> calledFunctions;
  llvm::StringSet<> inProgress;
  int64_t replicaCount = 1, numPartitions = 1;
};

/// Imports the instructions of one computation at the builder's insertion
/// point, with its parameters bound to given values.
class ComputationImporter {
public:
  ComputationImporter(ModuleImporter &module, mlir::OpBuilder &builder,
                      bool isEntry = false)
      : module(module), builder(builder), isEntry(isEntry) {}

  /// Imports `comp`; parameter i is bound to `params[i]` (its leaves).
  /// On success `results` holds the ROOT's leaves.
  mlir::LogicalResult
  importBody(const Computation &comp,
             llvm::ArrayRef<llvm::SmallVector<mlir::Value>> params,
             llvm::SmallVectorImpl<mlir::Value> &results);

  /// Imports `comp` into a new block of `region` whose arguments are its
  /// parameters' leaves, ending in `xla.yield` of the ROOT's leaves.
  mlir::LogicalResult importRegion(const Computation &comp,
                                   mlir::Region &region);
  /// Imports `comp` into a new argument-less block of `region`, its
  /// parameters bound to `params`, ending in `xla.yield`.
  mlir::LogicalResult
  importInlineRegion(const Computation &comp, mlir::Region &region,
                     llvm::ArrayRef<llvm::SmallVector<mlir::Value>> params);

  ModuleImporter &getModule() { return module; }
  mlir::OpBuilder &getBuilder() { return builder; }
  mlir::MLIRContext *getContext() { return module.getContext(); }
  mlir::Location getLoc(const Instruction &inst) {
    return module.getOpLoc(inst);
  }
  mlir::InFlightDiagnostic emitError(llvm::SMLoc loc) {
    return module.emitError(loc);
  }
  mlir::InFlightDiagnostic emitError(const Instruction &inst) {
    return module.emitError(inst.opcodeLoc);
  }

  /// The leaves of operand `i`.
  llvm::ArrayRef<mlir::Value> getOperandLeaves(const Instruction &inst,
                                               unsigned i);
  /// Operand `i`, which must be an array.
  mlir::FailureOr<mlir::Value> getOperand(const Instruction &inst, unsigned i);
  /// All operands, each an array.
  mlir::LogicalResult getOperands(const Instruction &inst,
                                  llvm::SmallVectorImpl<mlir::Value> &values);
  /// The defining HLO instruction of operand `i` (for constants).
  const Instruction *getOperandInstruction(const Instruction &inst, unsigned i);
  /// The shape of operand `i`.
  const Shape &getOperandShape(const Instruction &inst, unsigned i);
  mlir::LogicalResult expectOperands(const Instruction &inst, unsigned n);

  /// The result type of an array instruction.
  mlir::FailureOr<mlir::RankedTensorType>
  getResultType(const Instruction &inst);

  void setResult(const Instruction &inst, mlir::ValueRange leaves);

  /// Attribute readers with located errors; `required` ones report absence.
  const HloAttr *getAttr(const Instruction &inst, llvm::StringRef name,
                         bool required);
  mlir::FailureOr<llvm::SmallVector<int64_t>>
  getIntList(const Instruction &inst, llvm::StringRef name, bool required);
  mlir::FailureOr<int64_t> getInt(const Instruction &inst,
                                  llvm::StringRef name);
  mlir::LogicalResult attrError(const HloAttr &attr, const std::string &why);
  /// Fails on the first attribute of `inst` its importer did not read and
  /// that is not inert (a hint or provenance).
  mlir::LogicalResult checkAllAttributesRead(const Instruction &inst);

  /// Reports `%name = ... opcode` as unsupported, with `why`.
  mlir::LogicalResult unsupported(const Instruction &inst,
                                  const llvm::Twine &why = "");

  /// Builds `OpTy` from operands and named attributes, with a result type.
  template <typename OpTy>
  OpTy create(const Instruction &inst, mlir::TypeRange types,
              mlir::ValueRange operands,
              llvm::ArrayRef<mlir::NamedAttribute> attrs = {}) {
    return OpTy::create(builder, getLoc(inst), types, operands, attrs);
  }
  mlir::NamedAttribute named(llvm::StringRef name, mlir::Attribute value) {
    return builder.getNamedAttr(name, value);
  }
  mlir::DenseI64ArrayAttr i64s(llvm::ArrayRef<int64_t> values) {
    return builder.getDenseI64ArrayAttr(values);
  }

  /// A scalar body with two parameters whose ROOT applies one binary
  /// opcode to them (`add(p0, p1)`): that opcode, else empty.
  static std::string getBinaryReducer(const Computation &comp);

  /// The value of `inst` when it is a scalar constant.
  static std::optional<double> getScalarConstant(const Instruction *inst);

  /// `x` broadcast to `type` when it is a scalar of another shape.
  mlir::Value broadcastScalar(const Instruction &inst, mlir::Value x,
                              mlir::RankedTensorType type);

private:
  mlir::LogicalResult importInstruction(const Instruction &inst);
  mlir::LogicalResult applySharding(const Instruction &inst);

  ModuleImporter &module;
  mlir::OpBuilder &builder;
  bool isEntry;
  const Computation *computation = nullptr;
  llvm::ArrayRef<llvm::SmallVector<mlir::Value>> params;
  llvm::StringMap<llvm::SmallVector<mlir::Value>> values;
  llvm::StringMap<const Instruction *> instructions;
};

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOIMPORTCONTEXT_H
