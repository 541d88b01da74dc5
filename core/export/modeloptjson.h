// The legacy ModelOpt quantization config (dict form, docs/EXPORT.md) for ModelOpt versions that
// predate recipes: {"quant_cfg": {"default": {"enable": false}, "<quantizer>": {...}, ...},
// "algorithm": ...}, with "default" first because newer ModelOpt converts the dict in order.
// ModelOpt's config schema forbids unknown keys, so the file carries no description.
#pragma once

#include "core/export/exportinput.h"
#include "core/export/quantplan.h"

#include <string>

namespace acsel
{

std::string modelOptQuantCfgJson(const ExportInput& in);
// Strict reader (ordered: later keys win, as in ModelOpt); LoadError with JSON pointers.
QuantPlan readModelOptQuantCfgJson(const std::string& text, const ModelArch& arch,
                                   const std::string& file);

} // namespace acsel
