//===- FunctionAttrs.cpp - bulk updates of argument/result attrs ----------===//

#include "passes/common/FunctionAttrs.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace xspmd {

static SmallVector<DictionaryAttr> withAttr(ArrayRef<DictionaryAttr> current,
                                            unsigned count, StringRef name,
                                            ArrayRef<Attribute> values,
                                            MLIRContext *ctx) {
  SmallVector<DictionaryAttr> dicts;
  dicts.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    DictionaryAttr dict = i < current.size() && current[i]
                              ? current[i]
                              : DictionaryAttr::get(ctx);
    if (i < values.size() && values[i] && dict.get(name) != values[i]) {
      NamedAttrList attrs(dict);
      attrs.set(name, values[i]);
      dict = attrs.getDictionary(ctx);
    }
    dicts.push_back(dict);
  }
  return dicts;
}

static SmallVector<DictionaryAttr> dictsOf(ArrayAttr attrs) {
  SmallVector<DictionaryAttr> dicts;
  if (attrs)
    for (Attribute a : attrs)
      dicts.push_back(dyn_cast<DictionaryAttr>(a));
  return dicts;
}

void setArgAttrs(FunctionOpInterface func, StringRef name,
                 ArrayRef<Attribute> values) {
  func.setAllArgAttrs(withAttr(dictsOf(func.getAllArgAttrs()),
                               func.getNumArguments(), name, values,
                               func.getContext()));
}

void setResultAttrs(FunctionOpInterface func, StringRef name,
                    ArrayRef<Attribute> values) {
  func.setAllResultAttrs(withAttr(dictsOf(func.getAllResultAttrs()),
                                  func.getNumResults(), name, values,
                                  func.getContext()));
}

} // namespace xspmd
