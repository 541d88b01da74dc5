#include "widgets/plotscoring.h"

#include <algorithm>
#include <limits>

namespace acsel::gui {

double budgetX(LatencyAxis axis, const Budgets& b)
{
    switch (axis) {
    case LatencyAxis::Ttft: return b.ttftMs;
    case LatencyAxis::Tpot: return b.tpotMs;
    case LatencyAxis::Normalised: break;
    }
    return 1.0;
}

void scorePoints(const std::vector<PlotPoint>& points, LatencyAxis axis, const Budgets& budgets,
                 ScoredView& out)
{
    const std::size_t n = points.size();
    out.x.resize(n);
    out.feasible.resize(n);
    out.order.resize(n);
    out.frontier.clear();
    std::int64_t feasible = 0;
    std::int64_t fits = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const PlotPoint& p = points[i];
        out.x[i] = latencyX(p, axis, budgets);
        const bool ok = isFeasible(p, budgets);
        out.feasible[i] = ok ? 1 : 0;
        feasible += ok ? 1 : 0;
        fits += p.memoryGiB <= budgets.memoryGiB ? 1 : 0;
        out.order[i] = static_cast<std::uint32_t>(i);
    }
    out.feasibleCount = feasible;
    out.fitsMemoryCount = fits;
    const double* x = out.x.data();
    const PlotPoint* pts = points.data();
    std::sort(out.order.begin(), out.order.end(), [x, pts](std::uint32_t a, std::uint32_t b) {
        return x[a] < x[b] || (x[a] == x[b] && pts[a].rmqd < pts[b].rmqd);
    });
    double best = std::numeric_limits<double>::infinity();
    for (const std::uint32_t i : out.order) {
        const PlotPoint& p = pts[i];
        if (p.memoryGiB <= budgets.memoryGiB && p.rmqd < best) {
            best = p.rmqd;
            out.frontier.push_back(i);
        }
    }
}

} // namespace acsel::gui
