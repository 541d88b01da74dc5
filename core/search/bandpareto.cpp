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
    std::vector<ScoredCandidate> survivors;
    run.forEachScreenedRecipe(&screen, 0.9, [&](int c, const BandRecipe& r, const SoftScore& s) {
        const auto [algo, rmqd] = table.bestQuality(c, r);
        const LatencyMs cal = table.calibrated(s);
        survivors.push_back({r, rmqd, table.normalisedLatency(cal.ttft, cal.tpot), c, algo});
    });
    if (run.cancelled())
        return run.finish();

    std::vector<double> x(survivors.size()), y(survivors.size());
    for (std::size_t i = 0; i < survivors.size(); ++i) {
        x[i] = survivors[i].rmqd;
        y[i] = survivors[i].normLatency;
    }
    const std::vector<std::size_t> front = paretoFront(x, y); // ordered by RMQD
    std::size_t next = 0;
    run.gateUntilAdmitted(
        [&]() -> std::optional<ScoredCandidate> {
            if (next == front.size())
                return std::nullopt;
            return survivors[front[next++]];
        },
        e.fracMixIsLowerBound(q) && table.calibration().monotone());
    return run.finish();
}

} // namespace acsel
