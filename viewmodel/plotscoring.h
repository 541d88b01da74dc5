// Re-scoring a point set for a request's budgets: the x coordinate on the chosen latency axis,
// feasibility and the Pareto frontier. Runs on every slider move, so it reuses the caller's
// buffers (no allocation once they have grown) and is plain C++.
#pragma once

#include "core/search/latencyaxis.h"
#include "viewmodel/plotdata.h"

#include <cstdint>
#include <vector>

namespace acsel::gui
{

// One axis type for the core explorer and the plot.
using acsel::LatencyAxis;

struct Budgets {
    double ttftMs = 1000;
    double tpotMs = 50;
    double memoryGiB = 80;
    bool operator==(const Budgets&) const = default;
};

inline Budgets budgetsOf(const acsel::Request& r)
{
    return {r.ttftBudgetMs, r.tpotBudgetMs, r.memBudgetGiB};
}

// The x of a point on an axis: TTFT, TPOT, or max(TTFT/L1, TPOT/L2) (docs/METHOD.md 4).
inline double latencyX(const PlotPoint& p, LatencyAxis axis, const Budgets& b)
{
    return acsel::latencyOnAxis(axis, p.ttftMs, p.tpotMs, b.ttftMs, b.tpotMs);
}
// Where the latency budget sits on that axis.
double budgetX(LatencyAxis axis, const Budgets& b);
// The explorer's rule (core withinBudgets); b.memoryGiB is already capped at the device.
inline bool isFeasible(const PlotPoint& p, const Budgets& b)
{
    return acsel::withinBudgets(p.ttftMs, p.tpotMs, p.memoryGiB, b.ttftMs, b.tpotMs, b.memoryGiB);
}

struct ScoredView {
    std::vector<double> x;              // x[i] for points[i]
    std::vector<std::uint8_t> feasible; // 1 if points[i] meets every budget
    std::vector<std::uint32_t> order;   // point indices sorted by (x, rmqd)
    // Pareto frontier of (x, rmqd), both minimised, over the feasible points: core's
    // appendFrontOfSorted over the cached order (paretoFront's scan, as Explorer::frontier),
    // point indices by ascending x; points equal in both objectives are all kept.
    std::vector<std::uint32_t> frontier;
    std::int64_t feasibleCount = 0;
    std::int64_t fitsMemoryCount = 0;

    // The TTFT and TPOT orders do not depend on the budgets: they are kept between calls for
    // the same points (identified by address and size; point sets are immutable once scored).
    const void* orderSource = nullptr;
    std::size_t orderSize = 0;
    LatencyAxis orderAxis = LatencyAxis::Normalised;
    struct SortKey {
        double x;
        double rmqd;
        std::uint32_t index;
    };
    std::vector<SortKey> keys; // scratch: sorting contiguous keys avoids cache misses
};

void scorePoints(const std::vector<PlotPoint>& points, LatencyAxis axis, const Budgets& budgets,
                 ScoredView& out);

} // namespace acsel::gui
