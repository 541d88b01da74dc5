#include "explorerstate.h"

#include "core/model/units.h"
#include "core/search/gate.h"

namespace acsel::studio
{

using namespace acsel::gui;

Request gatedRequest(const Workspace* ws, const Request& r, const BudgetMargin& margin)
{
    const auto s = ws ? ws->findStack(r.stack) : std::nullopt;
    if (!s)
        return r;
    return margin.apply(r, ws->platformOf(ws->stacks[static_cast<std::size_t>(*s)]));
}

Budgets ExplorerState::budgets() const
{
    const Request gated = gatedRequest(ws_, request_, margin_);
    Budgets b = budgetsOf(gated);
    if (!ws_)
        return b;
    if (const auto s = ws_->findStack(request_.stack)) {
        const Platform& p = ws_->platformOf(ws_->stacks[static_cast<std::size_t>(*s)]);
        if (p.memCapacityBytes > 0)
            b.memoryGiB = memoryBudgetBytes(gated, p) / kGiB;
    }
    return b;
}

void ExplorerState::setRequest(const Request& r)
{
    if (r == request_)
        return;
    const Request previous = request_;
    request_ = r;
    emit requestChanged(request_, previous);
    emit keyChanged();
}

void ExplorerState::setFilter(const SpaceFilter& f)
{
    if (f == filter_)
        return;
    filter_ = f;
    emit filterChanged(filter_);
    emit keyChanged();
}

void ExplorerState::setMargin(const BudgetMargin& m)
{
    if (m == margin_)
        return;
    margin_ = m;
    emit marginChanged(margin_);
    emit keyChanged();
}

void ExplorerState::setAlgorithm(SearchAlgorithmChoice a)
{
    if (a == algorithm_)
        return;
    algorithm_ = a;
    emit algorithmChanged(algorithm_);
    emit keyChanged();
}

void ExplorerState::setView(const ViewSettings& v)
{
    if (v == view_)
        return;
    view_ = v;
    emit viewChanged(view_);
}

} // namespace acsel::studio
