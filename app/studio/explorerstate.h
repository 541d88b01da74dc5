// The window's one source of truth: the request, the space filter, the search algorithm and
// the plot's view settings. The Request panel, the plot, the explorer session, the band
// editor, Compare and the session file read it and write it through its setters; each setter
// emits one change signal when the value really changes, so nothing is synced by hand.
// A search result carries the SearchKey it was computed for: it is current only while the key
// equals key() (a stale one is dropped or shown greyed, never as current).
#pragma once

#include "core/model/workspace.h"
#include "core/search/budgetmargin.h"
#include "viewmodel/explorertypes.h"
#include "viewmodel/plotscoring.h"

#include <QObject>

namespace acsel::studio
{

// What a search depends on: a result made for another key is stale.
struct SearchKey {
    acsel::Request request;
    acsel::gui::SpaceFilter filter;
    acsel::gui::SearchAlgorithm algorithm = acsel::defaultSearchAlgorithm();
    acsel::BudgetMargin margin; // the gate sees the request's budgets less it
    bool operator==(const SearchKey&) const = default;
};

// The request the gate sees: r's budgets less the margin (BudgetMargin::apply, as acsel search
// --margin), r itself without a workspace or for a stack it does not have.
acsel::Request gatedRequest(const acsel::Workspace* ws, const acsel::Request& r,
                            const acsel::BudgetMargin& margin);

// The plot's view (saved in sessions). The default is the most useful view: the normalised
// latency max(TTFT/L1, TPOT/L2) on a log axis, so both latency budgets sit at x = 1.
struct ViewSettings {
    acsel::gui::LatencyAxis axis = acsel::gui::LatencyAxis::Normalised;
    bool logX = true;
    bool logY = false;
    acsel::gui::ColourBy colourBy = acsel::gui::ColourBy::Model;
    bool operator==(const ViewSettings&) const = default;
};

class ExplorerState : public QObject
{
    Q_OBJECT
public:
    explicit ExplorerState(QObject* parent = nullptr) : QObject(parent) {}

    // The workspace the request's stack is looked up in (for the device's memory cap).
    void setWorkspace(const acsel::Workspace* ws) { ws_ = ws; }

    const acsel::Request& request() const { return request_; }
    const acsel::gui::SpaceFilter& filter() const { return filter_; }
    // Admit only what is predicted at least this far inside every budget (0: at the budgets).
    const acsel::BudgetMargin& margin() const { return margin_; }
    // What the user chose (nullopt: Automatic) and the searcher that choice runs.
    acsel::gui::SearchAlgorithmChoice algorithmChoice() const { return algorithm_; }
    acsel::gui::SearchAlgorithm algorithm() const { return acsel::resolvedAlgorithm(algorithm_); }
    const ViewSettings& view() const { return view_; }
    SearchKey key() const { return {request_, filter_, algorithm(), margin_}; }
    bool isCurrent(const SearchKey& k) const { return k == key(); }
    // The budgets the gate applies: the user's memory budget capped at the device's memory
    // (core memoryBudgetBytes), all three less the margin; the request keeps the user's values.
    acsel::gui::Budgets budgets() const;

    void setRequest(const acsel::Request& r);
    void setFilter(const acsel::gui::SpaceFilter& f);
    void setMargin(const acsel::BudgetMargin& m);
    void setAlgorithm(acsel::gui::SearchAlgorithmChoice a);
    void setView(const ViewSettings& v);

signals:
    // previous: what the request was, so a listener can tell a budget move from a new stack.
    void requestChanged(const acsel::Request& request, const acsel::Request& previous);
    void filterChanged(const acsel::gui::SpaceFilter& filter);
    void marginChanged(const acsel::BudgetMargin& margin);
    // The choice changed (algorithm() may follow a serving-mode change without it).
    void algorithmChanged(acsel::gui::SearchAlgorithmChoice choice);
    void viewChanged(const acsel::studio::ViewSettings& view);
    // After any of the request, filter, algorithm and margin changed: key() is new.
    void keyChanged();

private:
    const acsel::Workspace* ws_ = nullptr;
    acsel::Request request_;
    acsel::gui::SpaceFilter filter_;
    acsel::BudgetMargin margin_;
    acsel::gui::SearchAlgorithmChoice algorithm_; // Automatic
    ViewSettings view_;
};

} // namespace acsel::studio
