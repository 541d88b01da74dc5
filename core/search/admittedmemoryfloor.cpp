#include "core/search/admittedmemoryfloor.h"

#include <algorithm>
#include <iterator>
#include <limits>

namespace acsel
{

AdmittedMemoryFloor::AdmittedMemoryFloor(const Engine& e, const FracMixTable& table)
{
    const auto contexts = static_cast<int>(table.contexts().size());
    rules_.resize(static_cast<std::size_t>(contexts));
    if (!e.engineMemoryFollowsEstimate(table.request()))
        return;
    for (int c = 0; c < contexts; ++c) {
        const ConfigSpace& space = table.space(c);
        const FormatScope& any = space.bandChoices().front();
        const BandRecipe r = BandRecipe::uniform(space.numLayers(), any.format, any.scope);
        const Config cfg = table.config(c, r, ConfigSpace::fittingAlgorithms(r).front());
        Rule& rule = rules_[static_cast<std::size_t>(c)];
        const std::optional<EngineMemory> engine = e.engineMemory(cfg, table.request());
        if (!engine)
            continue;
        rule.besideWeights = e.memoryBytes(cfg, table.request()) - engine->weightBytes;
        // The engine's total is at most W + R + A + K + one flag step (withWeights): where
        // that stays below the estimate W + besideWeights (a batch above the concurrency
        // holds more KV than the engine's pool), the floor is the estimate (two steps of
        // margin against rounding), and is not computed for every recipe.
        const double beside = engine->runtimeBytes + engine->activationBytes + engine->kvBytes;
        if (beside + 2 * kMemoryFlagStep * engine->capacityBytes > rule.besideWeights)
            rule.engine = engine;
    }
}

double AdmittedMemoryFloor::engineFloor(int context, double estimate) const
{
    const Rule& rule = rules_[static_cast<std::size_t>(context)];
    const double none = -std::numeric_limits<double>::infinity();
    if (!rule.engine)
        return none;
    // The weights less kSoftRounding of the estimate: far above the rounding of the sums
    // (the estimate's, the engine's weights', besideWeights), so no higher than the recipe's.
    const double weights = estimate - rule.besideWeights - estimate * kSoftRounding;
    if (weights <= 0)
        return none;
    const double total = withWeights(*rule.engine, weights).totalBytes;
    // vLLM's and SGLang's totals are monotone operations on W (sums, a quotient, the flag's
    // ceiling, a product), so they keep the order of W to the bit; TRT-LLM's
    // W + flag x (C - W - R - A) only to its rounding.
    return info(rule.engine->backend).kvPool == KvPoolRule::ShareOfFree
               ? total * (1 - kSoftRounding)
               : total;
}

double AdmittedMemoryMemo::of(const AdmittedMemoryFloor& floor, int context, double estimate)
{
    const auto at = static_cast<std::size_t>(context);
    if (at >= contexts_.size())
        contexts_.resize(at + 1);
    auto& [steps, last] = contexts_[at];
    if (last < steps.size() && estimate >= steps[last].low && estimate <= steps[last].high)
        return std::max(estimate, steps[last].floor);
    // The first step above the estimate; the one before may hold it.
    const auto above = std::upper_bound(steps.begin(), steps.end(), estimate,
                                        [](double x, const Step& s) { return x < s.low; });
    const auto below = above == steps.begin() ? steps.end() : std::prev(above);
    if (below != steps.end() && estimate <= below->high) {
        last = static_cast<std::size_t>(below - steps.begin());
        return std::max(estimate, below->floor);
    }
    const double value = floor.engineFloor(context, estimate);
    const bool joinsBelow = below != steps.end() && below->floor == value;
    const bool joinsAbove = above != steps.end() && above->floor == value;
    if (joinsBelow && joinsAbove) {
        below->high = above->high;
        steps.erase(above);
    } else if (joinsBelow) {
        below->high = estimate;
    } else if (joinsAbove) {
        above->low = estimate;
    } else {
        steps.insert(above, {estimate, estimate, value});
    }
    return std::max(estimate, value);
}

} // namespace acsel
