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
    run.forEachScreenedRecipe(pruneLatency ? &screen : nullptr, 0.5,
                              [&](int c, const BandRecipe& r, const SoftScore&) {
                                  const auto [algo, rmqd] = table.bestQuality(c, r);
                                  open.push_back({r, rmqd, 0.0, c, algo});
                              });
    // A min-heap on RMQD: only as many candidates are ordered as are gated.
    auto worse = [](const ScoredCandidate& a, const ScoredCandidate& b) { return a.rmqd > b.rmqd; };
    std::make_heap(open.begin(), open.end(), worse);
    // Tied candidates are yielded by their calibrated FracMix normalised latency (computed only
    // for the tied ones): with pruneLatency a lower bound, so the gate loop skips the slower.
    std::vector<ScoredCandidate> tied; // one RMQD, the fastest last
    const auto total = static_cast<double>(open.size());
    run.gateUntilAdmitted(
        [&]() -> std::optional<ScoredCandidate> {
            if (tied.empty()) {
                if (open.empty())
                    return std::nullopt;
                if (progress && (run.result().fullEvaluations & 1023) == 1023)
                    progress(0.5 + 0.5 * (1.0 - static_cast<double>(open.size()) / total));
                const double rmqd = open.front().rmqd;
                while (!open.empty() && open.front().rmqd == rmqd) {
                    std::pop_heap(open.begin(), open.end(), worse);
                    ScoredCandidate& s = open.back();
                    const LatencyMs cal = table.calibrated(table.soft(s.context, s.recipe));
                    s.normLatency = table.normalisedLatency(cal.ttft, cal.tpot);
                    tied.push_back(s);
                    open.pop_back();
                }
                std::sort(tied.begin(), tied.end(), [](const auto& a, const auto& b) {
                    return a.normLatency > b.normLatency;
                });
            }
            const ScoredCandidate s = tied.back();
            tied.pop_back();
            return s;
        },
        pruneLatency);
    return run.finish();
}

} // namespace acsel
