// Reads a ModelOpt quant_cfg back the way ModelOpt applies it: entries in order, each
// matching quantizer names by fnmatch, later entries winning, a cfg replacing a quantizer's
// whole config, an enable-only entry toggling it. The resulting quantizer states are then
// classified into our formats (a QuantPlan) and, if the plan is a legal band recipe, into a
// Config again. Used to check that what we export means exactly the configuration chosen,
// and to read hand-edited recipes with a clear reason when they are not one.
#pragma once

#include "core/export/quantcfg.h"

#include <optional>
#include <string>
#include <vector>

namespace acsel
{

// Applies the entries to every quantizer of the model and classifies the result. Throws
// LoadError(file, quantizer or entry, reason) for a quantizer state no format of ours has.
QuantPlan planFromEntries(const std::vector<CfgEntry>& entries, Algorithm algorithm,
                          const ModelArch& arch, const std::string& file);

// The configuration a plan describes (model and batch are not part of a ModelOpt recipe, so
// the caller supplies them). Throws LoadError(file, "quant_cfg", every reason) when the plan
// is no legal band recipe for the model.
Config configFromPlan(const QuantPlan& plan, const ModelArch& arch, int model, int batch,
                      const std::string& file);

} // namespace acsel
