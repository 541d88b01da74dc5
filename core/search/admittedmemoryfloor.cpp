#include "core/search/admittedmemoryfloor.h"

#include <algorithm>

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

double AdmittedMemoryFloor::of(int context, double estimate) const
{
    const Rule& rule = rules_[static_cast<std::size_t>(context)];
    if (!rule.engine)
        return estimate;
    // The weights less kSoftRounding of the estimate: far above the rounding of the sums
    // (the estimate's, the engine's weights', besideWeights), so no higher than the recipe's.
    const double weights = estimate - rule.besideWeights - estimate * kSoftRounding;
    if (weights <= 0)
        return estimate;
    double total = withWeights(*rule.engine, weights).totalBytes;
    // vLLM's and SGLang's totals are monotone operations on W (sums, a quotient, the flag's
    // ceiling, a product), so they keep the order of W to the bit; TRT-LLM's
    // W + flag x (C - W - R - A) only to its rounding.
    if (info(rule.engine->backend).kvPool == KvPoolRule::ShareOfFree)
        total *= 1 - kSoftRounding;
    return std::max(estimate, total);
}

double AdmittedMemoryMemo::of(const AdmittedMemoryFloor& floor, int context, double estimate)
{
    const auto at = static_cast<std::size_t>(context);
    if (at >= steps_.size())
        steps_.resize(at + 1);
    Step& s = steps_[at];
    if (estimate >= s.low && estimate <= s.high)
        return s.floor;
    const double value = floor.of(context, estimate);
    if (value == s.floor && s.low <= s.high) {
        s.low = std::min(s.low, estimate);
        s.high = std::max(s.high, estimate);
    } else {
        s = {estimate, estimate, value};
    }
    return value;
}

} // namespace acsel
