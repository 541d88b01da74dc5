#include "core/quality/capacitygap.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace acsel
{
namespace
{

constexpr FamilyOracle kOracles[] = {
    {"llama", "Llama-3.1-405B", 405e9, 405e9,
     "dense; the paper's Llama-3.x oracle (acsel-paper.md 4.1)"},
    {"qwen3", "Qwen3-235B-A22B", 235e9, 110e9,
     "MoE, 22B active; the paper's Qwen3 oracle (acsel-paper.md 4.1). ASSUMPTION: dense "
     "equivalent 5 x 22B = 110B, after the Qwen3 technical report (arXiv 2505.09388) stating its "
     "MoE base models match dense base models with 1/5 of the activated parameters"},
};

} // namespace

const FamilyOracle* findFamilyOracle(std::string_view family)
{
    for (const FamilyOracle& o : kOracles)
        if (o.family == family)
            return &o;
    return nullptr;
}

std::span<const FamilyOracle> familyOracles()
{
    return kOracles;
}

double chinchillaParamLoss(double params)
{
    return kChinchillaA * std::pow(params, -kChinchillaAlpha);
}

double capacityGapNats(const ModelArch& model)
{
    const FamilyOracle* o = findFamilyOracle(model.family);
    if (o == nullptr)
        throw std::invalid_argument("model " + model.name + ": no oracle known for family '" +
                                    model.family + "' (known: llama, qwen3)");
    const auto n = static_cast<double>(model.paramCount());
    if (n >= o->denseEquivalentParams)
        throw std::invalid_argument("model " + model.name +
                                    " is not smaller than its family's "
                                    "oracle " +
                                    std::string(o->name));
    return chinchillaParamLoss(n) - chinchillaParamLoss(o->denseEquivalentParams);
}

} // namespace acsel
