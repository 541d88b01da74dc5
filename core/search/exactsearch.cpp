#include "core/search/exactsearch.h"

#include "core/search/fracmixtable.h"
#include "core/search/scoredcandidate.h"
#include "core/search/stopwatch.h"

#include <algorithm>

namespace acsel
{

SearchResult ExactSearch::run(const Engine& e, const Request& q, const SearchOptions& o,
                              const ProgressFn& progress, const std::atomic<bool>& stop) const
{
    const Stopwatch clock;
    SearchResult result;
    result.algorithm = name();
    const FracMixTable table(e, q, o);
    const bool pruneLatency = e.fracMixIsLowerBound(q) && table.calibration().monotone();
    const LatencyScreen screen(table.calibration(), q.ttftBudgetMs, q.tpotBudgetMs);

    std::vector<ScoredCandidate> open;
    const auto contexts = static_cast<int>(table.contexts().size());
    for (int c = 0; c < contexts && !result.cancelled; ++c) {
        const bool complete = table.space(c).forEachRecipe([&](const BandRecipe& r) {
            if ((++result.candidates & 4095) == 0 && stop.load(std::memory_order_relaxed))
                return false;
            const SoftScore s = table.soft(c, r);
            ++result.softEvaluations;
            if (s.memoryBytes > table.memoryBudget())
                return true;
            if (pruneLatency && !screen.passes(s))
                return true;
            const auto [algo, rmqd] = table.bestQuality(c, r);
            open.push_back({r, rmqd, 0.0, c, algo});
            return true;
        });
        result.cancelled = !complete || stop.load(std::memory_order_relaxed);
        if (progress)
            progress(0.5 * (c + 1) / contexts);
    }
    // A min-heap on RMQD: only as many candidates are ordered as are gated.
    auto worse = [](const ScoredCandidate& a, const ScoredCandidate& b) { return a.rmqd > b.rmqd; };
    std::make_heap(open.begin(), open.end(), worse);
    const auto total = static_cast<double>(open.size());
    while (!open.empty() && !result.cancelled) {
        std::pop_heap(open.begin(), open.end(), worse);
        const ScoredCandidate s = open.back();
        open.pop_back();
        const Config cfg = table.config(s.context, s.recipe, s.algorithm);
        GateResult g = fullGate(e, cfg, q);
        ++result.fullEvaluations;
        if (g.admitted()) {
            result.config = cfg;
            result.gate = std::move(g);
            break;
        }
        if ((result.fullEvaluations & 1023) == 0) {
            result.cancelled = stop.load(std::memory_order_relaxed);
            if (progress)
                progress(0.5 + 0.5 * (1.0 - static_cast<double>(open.size()) / total));
        }
    }
    if (progress)
        progress(1.0);
    result.wallSeconds = clock.seconds();
    return result;
}

} // namespace acsel
