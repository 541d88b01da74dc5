// libFuzzer target: reading an exported (or hand-edited) ModelOpt recipe back: the recipe
// YAML and the legacy quant_cfg JSON (core/export/modeloptyaml, modeloptjson), then
// core/export/recipereader's configFromPlan. Every input goes through both readers, for a
// synthetic 2-layer Llama-shaped model so that a whole recipe fits in a small input. An
// accepted plan that is a band recipe must expand (planOf) back to the same plan.
#include "core/export/modeloptjson.h"
#include "core/export/modeloptyaml.h"
#include "core/export/recipereader.h"
#include "tests/fuzz/fuzzcheck.h"

#include <nlohmann/json.hpp>

namespace
{

using namespace acsel;

const ModelArch kArch{"tiny-2L-synthetic",
                      "acsel-test/tiny-2L-synthetic",
                      "llama",
                      2,
                      128,
                      2,
                      1,
                      64,
                      256,
                      1000,
                      false,
                      false,
                      AttnBias::None,
                      {}};

void checkPlan(const QuantPlan& plan, const std::string& file)
{
    fuzz::require(plan.layers.size() == static_cast<std::size_t>(kArch.layers),
                  "an accepted plan has one entry per layer");
    const int batch = 8;
    const Config c = configFromPlan(plan, kArch, 0, batch, file);
    fuzz::require(c.recipe.validate(kArch.layers).empty(), "an accepted recipe is well formed");
    fuzz::require(planOf(c, kArch.layers) == plan, "a recipe read back expands to its plan");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text = fuzz::text(data, size);
    const std::string yaml = "recipe.yaml";
    fuzz::loadOrLoadError(yaml,
                          [&] { checkPlan(readModelOptRecipeYaml(text, kArch, yaml).plan, yaml); });
    const std::string json = "quant_cfg.json";
    fuzz::loadOrLoadError(json,
                          [&] { checkPlan(readModelOptQuantCfgJson(text, kArch, json), json); });
    return 0;
}
