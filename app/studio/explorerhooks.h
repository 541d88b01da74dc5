// What the explorer window needs from an engine, as plain callables: the window and its
// widgets never hold engine objects, so the real engine (or a test engine) plugs in here.
// Every callable must be safe to call from a worker thread (they only read shared data).
#pragma once

#include "core/model/config.h"
#include "widgets/explorertypes.h"
#include "widgets/plotdata.h"
#include "widgets/searchrunner.h"

#include <atomic>
#include <functional>
#include <memory>

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
    std::function<acsel::gui::Prediction(const acsel::Config&, const acsel::Request&)> predict;
    // The recommendation; polls stop, reports progress in [0, 1].
    std::function<acsel::gui::SearchOutcome(
        const acsel::Request&, const acsel::gui::SpaceFilter&, acsel::gui::SearchAlgorithm,
        const acsel::gui::SearchRunner::ProgressFn&, const std::atomic<bool>& stop)>
        search;

    bool connected() const { return scoreSpace && predict && search; }
};

} // namespace acsel::studio
