#include "core/search/bandpareto.h"

#include "core/search/screeningrun.h"

namespace acsel
{

SearcherInfo BandPareto::describe()
{
    return {.name = "bp",
            .savedName = "band_pareto",
            .label = "BandPareto",
            .summary =
                "The paper's searcher: FracMix screen, Pareto frontier, full gate in RMQD order",
            .paperBaseline = true,
            .budgetReference = true,
            .make = [] { return std::make_unique<BandPareto>(); }};
}

SearchResult BandPareto::run(const Engine& e, const Request& q, const SearchOptions& o,
                             const ProgressFn& progress, const std::atomic<bool>& stop) const
{
    ScreeningRun run(name(), e, q, o, progress, stop);
    const FracMixTable& table = run.table();
    const LatencyScreen screen(table.calibration(), (1 + o.eta) * q.ttftBudgetMs,
                               (1 + o.eta) * q.tpotBudgetMs);
    // Only the frontier is kept, not every survivor of the screen.
    const StreamingParetoFront<ScoredCandidate> front = run.screenedFrontier(&screen, 0.9);
    if (run.cancelled())
        return run.finish();

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
