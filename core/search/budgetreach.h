// Why no configuration meets a request, read off scored points: for each of the three budgets,
// the best value any point reaches while it meets the other two. Loosening one budget to its
// reach admits a point; a budget no point can reach within the other two cannot be the only
// one to loosen. Exact over the points it is given (the GUI gives it the plotted ones).
#pragma once

#include <cmath>
#include <optional>
#include <span>

namespace acsel
{

struct BudgetReach {
    bool anyFeasible = false; // a point meets all three budgets
    // The lowest TTFT among points within the TPOT and memory budgets, and so on; nullopt when
    // no point meets the other two.
    std::optional<double> ttftMs, tpotMs, memoryGiB;
};

// Point: any type with ttftMs, tpotMs and memoryGiB convertible to double (the explorer's and
// the plot's points). A NaN value (a configuration the stack cannot run) meets no budget.
template <class Point>
BudgetReach budgetReach(std::span<const Point> points, double ttftBudgetMs, double tpotBudgetMs,
                        double memBudgetGiB)
{
    BudgetReach r;
    const auto lower = [](std::optional<double>& best, double v) {
        if (!best || v < *best)
            best = v;
    };
    for (const Point& p : points) {
        const auto ttft = static_cast<double>(p.ttftMs);
        const auto tpot = static_cast<double>(p.tpotMs);
        const auto mem = static_cast<double>(p.memoryGiB);
        const bool t = ttft <= ttftBudgetMs, d = tpot <= tpotBudgetMs, m = mem <= memBudgetGiB;
        r.anyFeasible = r.anyFeasible || (t && d && m);
        if (d && m && !std::isnan(ttft))
            lower(r.ttftMs, ttft);
        if (t && m && !std::isnan(tpot))
            lower(r.tpotMs, tpot);
        if (t && d && !std::isnan(mem))
            lower(r.memoryGiB, mem);
    }
    return r;
}

} // namespace acsel
