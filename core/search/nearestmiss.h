// Why nothing meets a request, exactly: for each budget (TTFT, TPOT, memory), the smallest value
// of it at which a configuration passes the full gate with the other two budgets unchanged, and
// the answer the exact search gives there. That value is the lowest prediction of the budget's
// metric (calibrated TTFT or TPOT; memory as the gate compares it, Prediction::
// admittedMemoryBytes) among the configurations admitted with this budget lifted (memory: to the
// device): the predictions do not depend on the budgets, so the gate admits that configuration
// at exactly this value and no configuration below it. Found by walking the candidates in
// increasing lower bound of the metric (memory is exact in FracMix; calibrated FracMix latency
// is a lower bound when Engine::fracMixIsLowerBound and the FMC is monotone, else every
// candidate within memory is gated) and full-gating them until the next bound cannot beat the
// lowest admitted value.
#pragma once

#include "core/search/budgetmargin.h"
#include "core/search/searcher.h"

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace acsel
{

enum class BudgetKind : std::uint8_t { Ttft, Tpot, Memory };
inline constexpr std::array<BudgetKind, 3> kBudgetKinds{BudgetKind::Ttft, BudgetKind::Tpot,
                                                        BudgetKind::Memory};
std::string_view toString(BudgetKind b); // "TTFT", "TPOT", "memory"
std::string_view unitOf(BudgetKind b);   // "ms", "ms", "GiB"
// The budget's value in q (ms, or GiB), and q with it replaced.
double budgetOf(const Request& q, BudgetKind b);
Request withBudget(Request q, BudgetKind b, double value);
// A prediction's value of the budget's metric as the gate compares it (ms, or bytes).
double metricOf(const Prediction& p, BudgetKind b);

// The lowest value of b's metric (ms, or bytes) over the configurations of the space that pass
// the full gate of q with b's budget as q has it: the caller lifts that budget (infinity, or
// the device's memory). nullopt when none passes, or when stopped (then *stopped is set).
// firstRound: candidates gated per round before the next walk (0: a default; the tests use
// tiny rounds to walk every path).
std::optional<double> lowestAdmitted(const Engine& e, const Request& q, BudgetKind b,
                                     const SearchOptions& o, const std::atomic<bool>& stop,
                                     bool* stopped = nullptr, std::size_t firstRound = 0);

struct BudgetMiss {
    BudgetKind budget = BudgetKind::Ttft;
    // The lowest prediction of the budget's metric (ms, or bytes) among the configurations that
    // meet the other two budgets; nullopt when none does, however far this one is loosened
    // (memory: up to the whole device, less the margin).
    std::optional<double> lowest;
    // The budget to ask for instead (ms, or GiB; before the margin, as the user gives it): the
    // smallest multiple of 0.1 at which `lowest` passes. 0 without `lowest`.
    double suggested = 0;
    // The exact search's answer at the suggested budget (the other two unchanged).
    SearchResult answer;
};

struct NearestMiss {
    std::array<BudgetMiss, 3> budgets; // in kBudgetKinds order
    bool stopped = false;
    // Whether loosening some single budget gives an answer.
    bool anyBudgetAlone() const
    {
        for (const BudgetMiss& m : budgets)
            if (m.lowest)
                return true;
        return false;
    }
};

// The nearest miss of a request nothing meets: `asked` carries the budgets as the user gives
// them, `margin` is applied before gating (budgetmargin.h). Throws std::invalid_argument for
// an unknown stack.
NearestMiss nearestMiss(const Engine& e, const Request& asked, const BudgetMargin& margin,
                        const SearchOptions& o, const std::atomic<bool>& stop);

} // namespace acsel
