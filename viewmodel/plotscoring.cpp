#include "viewmodel/plotscoring.h"

#include "core/search/paretofront.h"

#include <algorithm>

namespace acsel::gui
{

double budgetX(LatencyAxis axis, const Budgets& b)
{
    switch (axis) {
    case LatencyAxis::Ttft:
        return b.ttftMs;
    case LatencyAxis::Tpot:
        return b.tpotMs;
    case LatencyAxis::Normalised:
        break;
    }
    return 1.0;
}

void scorePoints(const std::vector<PlotPoint>& points, LatencyAxis axis, const Budgets& budgets,
                 ScoredView& out)
{
    const std::size_t n = points.size();
    out.x.resize(n);
    out.feasible.resize(n);
    if (out.order.size() != n)
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
    }
    out.feasibleCount = feasible;
    out.fitsMemoryCount = fits;
    const bool reuse = axis != LatencyAxis::Normalised && out.orderSource == points.data() &&
                       out.orderSize == n && out.orderAxis == axis && out.order.size() == n;
    if (!reuse) {
        out.keys.resize(n);
        for (std::size_t i = 0; i < n; ++i)
            out.keys[i] = {out.x[i], points[i].rmqd, static_cast<std::uint32_t>(i)};
        std::sort(out.keys.begin(), out.keys.end(),
                  [](const ScoredView::SortKey& a, const ScoredView::SortKey& b) {
                      if (a.x != b.x)
                          return a.x < b.x;
                      return a.rmqd < b.rmqd || (a.rmqd == b.rmqd && a.index < b.index);
                  });
        for (std::size_t i = 0; i < n; ++i)
            out.order[i] = out.keys[i].index;
        out.orderSource = points.data();
        out.orderSize = n;
        out.orderAxis = axis;
    }
    const PlotPoint* pts = points.data();
    appendFrontOfSorted<std::uint32_t>(
        out.order, [&out](std::uint32_t i) { return out.x[i]; },
        [pts](std::uint32_t i) { return pts[i].rmqd; },
        [&out](std::uint32_t i) { return out.feasible[i] != 0; }, out.frontier);
}

} // namespace acsel::gui
