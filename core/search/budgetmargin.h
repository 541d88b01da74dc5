// A safety margin on the budgets: admit only configurations whose predictions are at least P %
// inside every budget, by gating them at budgets shrunk by that share. The memory budget shrunk
// is the one the gate applies (the user's, capped at the device's memory), so a budget above
// the device keeps its margin.
#pragma once

#include "core/model/config.h"
#include "core/model/platform.h"
#include "core/model/requestcheck.h"

namespace acsel
{

struct BudgetMargin {
    double percent = 0; // [0, 100)

    // The one check of a margin (the CLI's --margin, the window's Margin %, a session file).
    bool valid() const { return fieldProblem(RequestField::Margin, percent).empty(); }
    bool operator==(const BudgetMargin&) const = default;
    // The request the gate sees: TTFT and TPOT budgets times (1 - P/100), the memory budget
    // min(budget, device) times the same; q itself when P is 0.
    Request apply(const Request& q, const Platform& gpu) const;
};

} // namespace acsel
