#include "core/search/exactsearch.h"

#include "core/search/screenedcandidates.h"
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
    forEachScreenedRecipe(table, pruneLatency ? &screen : nullptr, result, progress, 0.5, stop,
                          [&](int c, const BandRecipe& r, const SoftScore& s) {
                              const auto [algo, rmqd] = table.bestQuality(c, r);
                              // Ties in RMQD go to the faster configuration (raw FracMix).
                              const double pace =
                                  std::max(s.rawTtft / q.ttftBudgetMs, s.rawTpot / q.tpotBudgetMs);
                              open.push_back({r, rmqd, pace, c, algo});
                          });
    // A min-heap on RMQD: only as many candidates are ordered as are gated.
    auto worse = [](const ScoredCandidate& a, const ScoredCandidate& b) {
        return a.rmqd > b.rmqd || (a.rmqd == b.rmqd && a.normLatency > b.normLatency);
    };
    std::make_heap(open.begin(), open.end(), worse);
    const auto total = static_cast<double>(open.size());
    gateUntilAdmitted(
        e, table,
        [&]() -> std::optional<ScoredCandidate> {
            if (open.empty())
                return std::nullopt;
            if (progress && (result.fullEvaluations & 1023) == 1023)
                progress(0.5 + 0.5 * (1.0 - static_cast<double>(open.size()) / total));
            std::pop_heap(open.begin(), open.end(), worse);
            const ScoredCandidate s = open.back();
            open.pop_back();
            return s;
        },
        result, stop);
    if (progress)
        progress(1.0);
    result.wallSeconds = clock.seconds();
    return result;
}

} // namespace acsel
