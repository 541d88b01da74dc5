// What the explorer window needs from an engine, as plain callables: the window and its
// widgets never hold engine objects, so the real engine (or a test engine) plugs in here.
// Every callable must be safe to call from a worker thread (they only read shared data).
#pragma once

#include "core/model/config.h"
#include "core/search/budgetmargin.h"
#include "viewmodel/explorertypes.h"
#include "viewmodel/plotdata.h"
#include "viewmodel/searchrunner.h"

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace acsel::studio
{

struct ExplorerHooks {
    // Every candidate configuration of the request within the filter, cheaply scored. May hand
    // a first part to early (the uniform configurations, said in its provenance) before the
    // complete set is returned. Polls stop and returns early when it is set (the partial set
    // is then discarded).
    using PointsFn = std::function<void(std::shared_ptr<const acsel::gui::PointSet>)>;
    std::function<std::shared_ptr<const acsel::gui::PointSet>(
        const acsel::Request&, const acsel::gui::SpaceFilter&, const PointsFn& early,
        const std::atomic<bool>& stop)>
        scoreSpace;
    // The full prediction of one configuration, with breakdowns and the gate's verdict.
    std::function<acsel::gui::PredictionView(const acsel::Config&, const acsel::Request&)> predict;
    // The recommendation of the request with its budgets less the margin (gated as acsel search
    // --margin gates; the nearest miss names budgets as the user gives them); polls stop,
    // reports progress in [0, 1].
    std::function<acsel::gui::SearchOutcome(const acsel::Request&, const acsel::gui::SpaceFilter&,
                                            acsel::gui::SearchAlgorithm, const acsel::BudgetMargin&,
                                            const acsel::gui::SearchRunner::ProgressFn&,
                                            const std::atomic<bool>& stop)>
        search;

    // Answers any budgets of one workload at once (the outcome `search` gives for them, without
    // a margin: the caller passes the budgets the gate sees), or nullopt for a request of
    // another workload. Called in the GUI thread.
    using BudgetAnswerer =
        std::function<std::optional<acsel::gui::SearchOutcome>(const acsel::Request&)>;
    // Builds the answerer of the request's workload (filter, searcher, everything but the
    // budgets); empty where no exact index exists (a searcher other than Exact, a
    // non-monotone calibration) or when stopped. On a worker thread, as `search`.
    std::function<BudgetAnswerer(const acsel::Request&, const acsel::gui::SpaceFilter&,
                                 acsel::gui::SearchAlgorithm, const std::atomic<bool>& stop)>
        indexBudgets;

    // The sizing table: the searcher's answer with 1, 2, 4 and 8 GPUs available (the
    // request's gpus ignored; its budgets those the gate sees, less any margin). On a worker
    // thread, as `search`.
    std::function<std::vector<acsel::gui::SizingOutcome>(
        const acsel::Request&, const acsel::gui::SpaceFilter&, acsel::gui::SearchAlgorithm,
        const acsel::gui::SearchRunner::ProgressFn&, const std::atomic<bool>& stop)>
        sizeByGpus;

    bool connected() const { return scoreSpace && predict && search; }
};

} // namespace acsel::studio
