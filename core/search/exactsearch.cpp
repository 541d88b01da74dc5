#include "core/search/exactsearch.h"

#include "core/search/screeningrun.h"

#include <algorithm>

namespace acsel
{

SearchResult ExactSearch::run(const Engine& e, const Request& q, const SearchOptions& o,
                              const ProgressFn& progress, const std::atomic<bool>& stop) const
{
    ScreeningRun run(name(), e, q, o, progress, stop);
    const FracMixTable& table = run.table();
    // Calibrated FracMix is a lower bound of the full estimate only for such engines and a
    // monotone FMC: then the budgets themselves prune exactly; otherwise memory alone does.
    const bool pruneLatency = e.fracMixIsLowerBound(q) && table.calibration().monotone();
    const LatencyScreen screen(table.calibration(), q.ttftBudgetMs, q.tpotBudgetMs);
    std::vector<ScoredCandidate> open;
    run.forEachScreenedRecipe(
        pruneLatency ? &screen : nullptr, 0.5, [&](int c, const BandRecipe& r, const SoftScore& s) {
            const auto [algo, rmqd] = table.bestQuality(c, r);
            // Ties in RMQD go to the lower predicted normalised latency (calibrated FracMix),
            // as on BandPareto's frontier.
            const LatencyMs cal = table.calibrated(s);
            open.push_back({r, rmqd, table.normalisedLatency(cal.ttft, cal.tpot), c, algo});
        });
    // A min-heap on RMQD: only as many candidates are ordered as are gated.
    auto worse = [](const ScoredCandidate& a, const ScoredCandidate& b) {
        return a.rmqd > b.rmqd || (a.rmqd == b.rmqd && a.normLatency > b.normLatency);
    };
    std::make_heap(open.begin(), open.end(), worse);
    const auto total = static_cast<double>(open.size());
    run.gateUntilAdmitted([&]() -> std::optional<ScoredCandidate> {
        if (open.empty())
            return std::nullopt;
        if (progress && (run.result().fullEvaluations & 1023) == 1023)
            progress(0.5 + 0.5 * (1.0 - static_cast<double>(open.size()) / total));
        std::pop_heap(open.begin(), open.end(), worse);
        const ScoredCandidate s = open.back();
        open.pop_back();
        return s;
    });
    return run.finish();
}

} // namespace acsel
