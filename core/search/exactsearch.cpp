#include "core/search/exactsearch.h"

#include "core/search/rmqdorder.h"
#include "core/search/screeningrun.h"

namespace acsel
{

SearcherInfo ExactSearch::describe()
{
    return {.name = "exact",
            .savedName = "exact",
            .label = "Exact",
            .summary =
                "The predicted optimum: every configuration that can pass is gated in RMQD order",
            .exact = true,
            .make = [] { return std::make_unique<ExactSearch>(); }};
}

SearchResult ExactSearch::run(const Engine& e, const Request& q, const SearchOptions& o,
                              const ProgressFn& progress, const std::atomic<bool>& stop) const
{
    ScreeningRun run(name(), e, q, o, progress, stop);
    const FracMixTable& table = run.table();
    // Calibrated FracMix is a lower bound of the full estimate only for such engines and a
    // monotone FMC: then the budgets themselves prune exactly; otherwise memory alone does.
    const bool pruneLatency = e.fracMixIsLowerBound(q) && table.calibration().monotone();
    const LatencyScreen screen(table.calibration(), q.ttftBudgetMs, q.tpotBudgetMs);
    // Tied candidates come fastest first by calibrated FracMix: with pruneLatency a lower
    // bound, so the gate loop skips those already slower than the best admitted.
    RmqdOrder order(run, pruneLatency ? &screen : nullptr, 0.5,
                    firstRound_ > 0 ? firstRound_ : RmqdOrder::kFirstRound);
    run.gateUntilAdmitted([&] { return order.next(); }, pruneLatency);
    return run.finish();
}

} // namespace acsel
