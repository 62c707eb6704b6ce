//===- HloTranslate.h - HLO translations for mlir-translate -----*- C++ -*-===//
//
// Registers `--import-hlo` (HLO text → xla module) and `--export-hlo`
// (xla module → HLO text) with MLIR's translation registry, for
// tools/xla-translate and any mlir-translate-style driver.
//
//===----------------------------------------------------------------------===//

#ifndef XSPMD_LIB_HLO_HLOTRANSLATE_H
#define XSPMD_LIB_HLO_HLOTRANSLATE_H

namespace xspmd::hlo {

void registerHloTranslations();

} // namespace xspmd::hlo

#endif // XSPMD_LIB_HLO_HLOTRANSLATE_H
