// The latency axis of the quality-latency view: TTFT, TPOT or the normalised latency
// max(TTFT/L1, TPOT/L2) (docs/METHOD.md 4), and which points of the view meet the budgets. One
// definition for the core explorer and the GUI's plot; a header of its own so the plot does not
// pull in the search.
#pragma once

#include <cstdint>

namespace acsel
{

enum class LatencyAxis : std::uint8_t { Ttft, Tpot, Normalised };

// A point's x on the axis; the normalised latency divides by the TTFT and TPOT budgets.
inline double latencyOnAxis(LatencyAxis axis, double ttftMs, double tpotMs, double ttftBudgetMs,
                            double tpotBudgetMs)
{
    switch (axis) {
    case LatencyAxis::Ttft:
        return ttftMs;
    case LatencyAxis::Tpot:
        return tpotMs;
    case LatencyAxis::Normalised:
        break;
    }
    const double t = ttftMs / ttftBudgetMs;
    const double d = tpotMs / tpotBudgetMs;
    return t > d ? t : d;
}

// A point of the view meets the request when its TTFT, TPOT and memory are each within budget
// (a value equal to its budget meets it). memBudgetGiB is the budget the gate applies: the
// user's, capped at the device's memory.
inline bool withinBudgets(double ttftMs, double tpotMs, double memoryGiB, double ttftBudgetMs,
                          double tpotBudgetMs, double memBudgetGiB)
{
    return ttftMs <= ttftBudgetMs && tpotMs <= tpotBudgetMs && memoryGiB <= memBudgetGiB;
}

} // namespace acsel
