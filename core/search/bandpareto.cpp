#include "core/search/bandpareto.h"

#include "core/search/fracmixtable.h"
#include "core/search/paretofront.h"
#include "core/search/scoredcandidate.h"
#include "core/search/stopwatch.h"

#include <algorithm>

namespace acsel
{

SearchResult BandPareto::run(const Engine& e, const Request& q, const SearchOptions& o,
                             const ProgressFn& progress, const std::atomic<bool>& stop) const
{
    const Stopwatch clock;
    SearchResult result;
    result.algorithm = name();
    const FracMixTable table(e, q, o);
    const LatencyScreen screen(table.calibration(), (1 + o.eta) * q.ttftBudgetMs,
                               (1 + o.eta) * q.tpotBudgetMs);

    std::vector<ScoredCandidate> survivors;
    const auto contexts = static_cast<int>(table.contexts().size());
    for (int c = 0; c < contexts; ++c) {
        if (stop.load(std::memory_order_relaxed)) {
            result.cancelled = true;
            break;
        }
        std::int64_t seen = 0;
        const bool complete = table.space(c).forEachRecipe([&](const BandRecipe& r) {
            if ((++seen & 4095) == 0 && stop.load(std::memory_order_relaxed))
                return false;
            const SoftScore s = table.soft(c, r);
            if (s.memoryBytes > table.memoryBudget() || !screen.passes(s))
                return true;
            const auto [algo, rmqd] = table.bestQuality(c, r);
            const LatencyMs cal = table.calibrated(s);
            survivors.push_back({r, rmqd, table.normalisedLatency(cal.ttft, cal.tpot), c, algo});
            return true;
        });
        if (!complete) {
            result.cancelled = true;
            break;
        }
        result.softEvaluations += seen;
        if (progress)
            progress(0.9 * (c + 1) / contexts);
    }
    result.candidates = result.softEvaluations;
    if (result.cancelled) {
        result.wallSeconds = clock.seconds();
        return result;
    }

    std::vector<double> x(survivors.size()), y(survivors.size());
    for (std::size_t i = 0; i < survivors.size(); ++i) {
        x[i] = survivors[i].rmqd;
        y[i] = survivors[i].normLatency;
    }
    const std::vector<std::size_t> front = paretoFront(x, y); // ordered by RMQD
    for (std::size_t i : front) {
        if (stop.load(std::memory_order_relaxed)) {
            result.cancelled = true;
            break;
        }
        const ScoredCandidate& s = survivors[i];
        const Config cfg = table.config(s.context, s.recipe, s.algorithm);
        GateResult g = fullGate(e, cfg, q);
        ++result.fullEvaluations;
        if (g.admitted()) {
            result.config = cfg;
            result.gate = std::move(g);
            break;
        }
    }
    if (progress)
        progress(1.0);
    result.wallSeconds = clock.seconds();
    return result;
}

} // namespace acsel
