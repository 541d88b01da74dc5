#include "core/search/budgetmargin.h"

#include "core/model/units.h"

#include <algorithm>

namespace acsel
{

Request BudgetMargin::apply(const Request& q, const Platform& gpu) const
{
    if (percent == 0)
        return q;
    const double keep = 1 - percent / 100;
    Request out = q;
    out.ttftBudgetMs = q.ttftBudgetMs * keep;
    out.tpotBudgetMs = q.tpotBudgetMs * keep;
    out.memBudgetGiB = std::min(q.memBudgetGiB, gpu.memCapacityBytes / kGiB) * keep;
    return out;
}

} // namespace acsel
