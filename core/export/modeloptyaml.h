// The ModelOpt >= 0.44 PTQ recipe YAML (list form, docs/EXPORT.md), written with yaml-cpp, and
// read back (strictly) into a QuantPlan. ModelOpt's recipe schema forbids unknown keys, so
// everything the user should know beyond metadata.recipe_type and metadata.description goes
// into the description and a header comment.
#pragma once

#include "core/export/exportinput.h"
#include "core/export/quantplan.h"

#include <string>

namespace acsel
{

std::string modelOptRecipeYaml(const ExportInput& in);

struct RecipeReadback {
    QuantPlan plan;
    std::string description;
};
// Parses a recipe for the given model; LoadError(file, "line N (quantize.quant_cfg[3])", ...)
// for anything that is not a recipe of ours (imports, parent_class, unknown attributes...).
RecipeReadback readModelOptRecipeYaml(const std::string& text, const ModelArch& arch,
                                      const std::string& file);

} // namespace acsel
