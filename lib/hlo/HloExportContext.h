//===- HloExportContext.h - state of the HLO text exporter ------*- C++ -*-===//
//
// The exporter prints one computation at a time (`ComputationExporter`):
// values get instruction names, each op appends lines. Module-wide state
// (`ModuleExporter`) holds the finished computations, unique names,
// channel ids and the shared reducer computations. Op printers are in
// ExportOps.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOEXPORTCONTEXT_H
#define XSPMD_LIB_HLO_HLOEXPORTCONTEXT_H

#include "dialects/xla/XlaOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace xspmd::hlo {

/// HLO's name for an element type (`f32`, `pred`, `s32`...).
std::string hloElementType(mlir::Type type);
/// `f32[8,16]`, or `(f32[8], s32[])` for several types.
std::string hloShape(mlir::Type type);
std::string hloTupleShape(mlir::TypeRange types);
/// A scalar as an HLO literal (`1.5`, `-inf`, `true`, `3`).
std::string formatScalar(double value, mlir::Type element);
/// `{0,1}`.
std::string hloIntList(llvm::ArrayRef<int64_t> values);

class ModuleExporter {
public:
  explicit ModuleExporter(mlir::ModuleOp module) : module(module) {}

  mlir::LogicalResult run(llvm::StringRef function, llvm::raw_ostream &os);

  mlir::ModuleOp getModule() { return module; }
  int64_t getNumDevices() const { return numDevices; }
  std::string uniqueName(llvm::StringRef base);
  int64_t nextChannel() { return channel++; }
  void addComputation(std::string text) {
    computations.push_back(std::move(text));
  }
  /// The computation `(x, y) -> x op y` over scalars of `element`.
  std::string getReducer(llvm::StringRef opcode, mlir::Type element);
  /// The computation of a called function.
  mlir::FailureOr<std::string> getFunction(mlir::func::FuncOp func);
  /// `{...}` for a sharding, or failure (located at `op`).
  mlir::FailureOr<std::string> shardingText(xla::ShardingAttr sharding,
                                            mlir::Operation *op);
  xla::MeshAttr lookupMesh(mlir::FlatSymbolRefAttr ref);

private:
  mlir::ModuleOp module;
  int64_t numDevices = 1;
  int64_t channel = 1;
  llvm::StringMap<int64_t> nameCounts;
  llvm::StringSet<> usedNames;
  std::vector<std::string> computations;
  std::map<std::pair<std::string, std::string>, std::string> reducers;
  llvm::DenseMap<mlir::Operation *, std::string> functions;
};

class ComputationExporter {
public:
  ComputationExporter(ModuleExporter &module, std::string name)
      : module(module), name(std::move(name)) {}

  /// Adds a parameter and returns its name.
  std::string addParameter(mlir::Type type, llvm::StringRef base = "p");
  std::string addTupleParameter(mlir::TypeRange types);

  /// Appends `%n = shape opcode(operands), attrs` and returns `n`.
  std::string emit(llvm::StringRef base, llvm::StringRef shape,
                   llvm::StringRef opcode, llvm::ArrayRef<std::string> operands,
                   llvm::StringRef attrs = "");
  std::string emit(llvm::StringRef base, mlir::Type type,
                   llvm::StringRef opcode, llvm::ArrayRef<std::string> operands,
                   llvm::StringRef attrs = "") {
    return emit(base, hloShape(type), opcode, operands, attrs);
  }
  /// `%n = shape constant(literal)`.
  std::string emitConstant(mlir::Type type, llvm::StringRef literal);
  /// A scalar constant of `element` (or a broadcast of it to `type`).
  std::string emitScalar(double value, mlir::Type element);
  std::string emitSplat(double value, mlir::RankedTensorType type);
  /// The tuple elements of a value named `tuple`.
  llvm::SmallVector<std::string> emitUntuple(const std::string &tuple,
                                             mlir::TypeRange types);

  void bind(mlir::Value value, std::string valueName) {
    names[value] = std::move(valueName);
  }
  mlir::FailureOr<std::string> lookup(mlir::Value value, mlir::Operation *user);
  mlir::LogicalResult lookupAll(mlir::ValueRange values, mlir::Operation *user,
                                llvm::SmallVectorImpl<std::string> &out);

  /// Exports the ops of `block` (not its terminator).
  mlir::LogicalResult exportOps(mlir::Block &block);
  mlir::LogicalResult exportOp(mlir::Operation *op);

  /// Finishes with ROOT `results` (a tuple unless exactly one array), with
  /// an optional sharding on the ROOT; returns the computation's name.
  std::string finish(llvm::ArrayRef<std::string> results, mlir::TypeRange types,
                     bool entry = false, llvm::StringRef rootSharding = "",
                     bool forceTuple = false);

  /// Exports `region` (one block, ending in xla.yield) as a computation
  /// whose parameters are the block arguments (scalar bodies).
  static mlir::FailureOr<std::string> exportScalarRegion(ModuleExporter &module,
                                                         mlir::Region &region,
                                                         llvm::StringRef base);

  ModuleExporter &getModule() { return module; }

private:
  struct Line {
    std::string name, text;
    bool isParameter = false;
  };
  ModuleExporter &module;
  std::string name;
  std::vector<Line> lines;
  std::vector<std::pair<std::string, std::string>> params; // name, shape
  llvm::DenseMap<mlir::Value, std::string> names;
  friend class ModuleExporter;

public:
  /// Appends `, metadata=...` to the line defining `valueName`.
  void addMetadata(const std::string &valueName, llvm::StringRef text);
  /// Appends `, sharding=...` to the line defining `valueName`.
  void addSharding(const std::string &valueName, llvm::StringRef text);
};

/// Prints `op` (any xla op, func.call); fails with a located error for an
/// op without an HLO form.
mlir::LogicalResult exportOperation(ComputationExporter &ce,
                                    mlir::Operation *op);

/// Prints `op` when it is a sharding marker or a device-level op of a
/// partitioned program (collectives, axis_index, ...); nullopt for others
/// (ExportCollectives.cpp).
std::optional<mlir::LogicalResult>
exportDeviceLevelOp(ComputationExporter &ce, mlir::Operation *op,
                    llvm::ArrayRef<std::string> operands);

/// xla.while and xla.case as HLO while and conditional
/// (ExportControlFlow.cpp).
mlir::LogicalResult exportWhile(ComputationExporter &ce, xla::WhileOp op);
mlir::LogicalResult exportCase(ComputationExporter &ce, xla::CaseOp op);

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOEXPORTCONTEXT_H
