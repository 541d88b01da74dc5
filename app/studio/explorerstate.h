// The window's one source of truth: the request, the space filter, the search algorithm and
// the plot's view settings. The Request panel, the plot, the explorer session, the band
// editor, Compare and the session file read it and write it through its setters; each setter
// emits one change signal when the value really changes, so nothing is synced by hand.
// A search result carries the SearchKey it was computed for: it is current only while the key
// equals key() (a stale one is dropped or shown greyed, never as current).
#pragma once

#include "core/model/workspace.h"
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
    bool operator==(const SearchKey&) const = default;
};

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
    // What the user chose (nullopt: Automatic) and the searcher that choice runs.
    acsel::gui::SearchAlgorithmChoice algorithmChoice() const { return algorithm_; }
    acsel::gui::SearchAlgorithm algorithm() const { return acsel::resolvedAlgorithm(algorithm_); }
    const ViewSettings& view() const { return view_; }
    SearchKey key() const { return {request_, filter_, algorithm()}; }
    bool isCurrent(const SearchKey& k) const { return k == key(); }
    // The budgets the gate applies: the user's memory budget capped at the device's memory
    // (core memoryBudgetBytes); the request keeps the user's value.
    acsel::gui::Budgets budgets() const;

    void setRequest(const acsel::Request& r);
    void setFilter(const acsel::gui::SpaceFilter& f);
    void setAlgorithm(acsel::gui::SearchAlgorithmChoice a);
    void setView(const ViewSettings& v);

signals:
    // previous: what the request was, so a listener can tell a budget move from a new stack.
    void requestChanged(const acsel::Request& request, const acsel::Request& previous);
    void filterChanged(const acsel::gui::SpaceFilter& filter);
    // The choice changed (algorithm() may follow a serving-mode change without it).
    void algorithmChanged(acsel::gui::SearchAlgorithmChoice choice);
    void viewChanged(const acsel::studio::ViewSettings& view);
    // After any of the request, filter and algorithm changed: key() is new.
    void keyChanged();

private:
    const acsel::Workspace* ws_ = nullptr;
    acsel::Request request_;
    acsel::gui::SpaceFilter filter_;
    acsel::gui::SearchAlgorithmChoice algorithm_; // Automatic
    ViewSettings view_;
};

} // namespace acsel::studio
