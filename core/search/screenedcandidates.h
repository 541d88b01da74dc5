// The two passes BandPareto and ExactSearch share: enumerate every legal recipe of a FracMix
// table, keeping those that fit the memory budget and pass a latency screen; then full-gate
// kept candidates in the searcher's order until one is admitted. Each searcher brings its own
// screen and order.
#pragma once

#include "core/search/fracmixtable.h"
#include "core/search/scoredcandidate.h"

#include <atomic>
#include <optional>

namespace acsel
{

// Calls keep(context, recipe, soft score) for every legal recipe of every context whose exact
// memory fits the budget and whose FracMix latency passes `screen` (nullptr: no latency
// screen). Counts the recipes in result.candidates and the soft scores in
// result.softEvaluations; sets result.cancelled when `stop` is raised (checked every 4096
// recipes). Progress runs from 0 to `progressShare`.
template <class Keep>
void forEachScreenedRecipe(const FracMixTable& t, const LatencyScreen* screen, SearchResult& result,
                           const ProgressFn& progress, double progressShare,
                           const std::atomic<bool>& stop, Keep&& keep)
{
    const auto contexts = static_cast<int>(t.contexts().size());
    for (int c = 0; c < contexts && !result.cancelled; ++c) {
        const bool complete = t.space(c).forEachRecipe([&](const BandRecipe& r) {
            if ((++result.candidates & 4095) == 0 && stop.load(std::memory_order_relaxed))
                return false;
            const SoftScore s = t.soft(c, r);
            ++result.softEvaluations;
            if (s.memoryBytes <= t.memoryBudget() && (screen == nullptr || screen->passes(s)))
                keep(c, r, s);
            return true;
        });
        result.cancelled = !complete || stop.load(std::memory_order_relaxed);
        if (progress)
            progress(progressShare * (c + 1) / contexts);
    }
}

// Full-gates the candidates `next` yields (std::optional<ScoredCandidate>, empty when there are
// no more) until one is admitted, which goes into result with its gate. Stops early, with
// result.cancelled, when `stop` is raised.
template <class Next>
void gateUntilAdmitted(const Engine& e, const FracMixTable& t, Next&& next, SearchResult& result,
                       const std::atomic<bool>& stop)
{
    while (!result.cancelled) {
        const std::optional<ScoredCandidate> s = next();
        if (!s)
            return;
        const Config cfg = t.config(s->context, s->recipe, s->algorithm);
        GateResult g = fullGate(e, cfg, t.request());
        ++result.fullEvaluations;
        if (g.admitted()) {
            result.config = cfg;
            result.gate = std::move(g);
            return;
        }
        result.cancelled = stop.load(std::memory_order_relaxed);
    }
}

} // namespace acsel
