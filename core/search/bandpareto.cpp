#include "core/search/bandpareto.h"

#include "core/search/paretofront.h"
#include "core/search/screeningrun.h"

namespace acsel
{

SearchResult BandPareto::run(const Engine& e, const Request& q, const SearchOptions& o,
                             const ProgressFn& progress, const std::atomic<bool>& stop) const
{
    ScreeningRun run(name(), e, q, o, progress, stop);
    const FracMixTable& table = run.table();
    const LatencyScreen screen(table.calibration(), (1 + o.eta) * q.ttftBudgetMs,
                               (1 + o.eta) * q.tpotBudgetMs);
    // Only the frontier is kept, not every survivor of the screen: one per thread, then the
    // frontier of their union, the frontier of all (the same points for any number of threads).
    struct FrontKeeper {
        const FracMixTable* table = nullptr;
        StreamingParetoFront<ScoredCandidate> front;
        void operator()(int c, const BandRecipe& r, const SoftScore& s)
        {
            const auto [algo, rmqd] = table->bestQuality(c, r);
            const LatencyMs cal = table->calibrated(s);
            const double normLatency = table->normalisedLatency(cal.ttft, cal.tpot);
            front.add(rmqd, normLatency, {r, rmqd, normLatency, c, algo});
        }
    };
    const std::vector<FrontKeeper> kept =
        run.forEachScreenedRecipeInParallel(&screen, 0.9, FrontKeeper{&table, {}});
    if (run.cancelled())
        return run.finish();
    StreamingParetoFront<ScoredCandidate> front;
    for (const FrontKeeper& k : kept)
        for (const auto& p : k.front.points())
            front.add(p.x, p.y, p.value);

    const auto& points = front.points(); // ordered by RMQD
    std::size_t next = 0;
    run.gateUntilAdmitted(
        [&]() -> std::optional<ScoredCandidate> {
            if (next == points.size())
                return std::nullopt;
            return points[next++].value;
        },
        e.fracMixIsLowerBound(q) && table.calibration().monotone());
    return run.finish();
}

} // namespace acsel
