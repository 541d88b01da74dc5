// The one session object of the window (DESIGN.md data flow): holds the workspace, the engine
// hooks, the request, the space filter and the search algorithm, and runs the space scoring and
// the search on worker threads. A newer request supersedes older work. No widget in here.
#pragma once

#include "core/model/workspace.h"
#include "widgets/explorerhooks.h"
#include "widgets/searchrunner.h"

#include <QObject>
#include <QStringList>
#include <memory>

namespace acsel::studio
{

class ExplorerSession : public QObject
{
    Q_OBJECT
public:
    explicit ExplorerSession(QObject* parent = nullptr);

    void setWorkspace(std::shared_ptr<const acsel::Workspace> ws, acsel::gui::ExplorerHooks hooks);
    const acsel::Workspace* workspace() const { return ws_.get(); }
    const acsel::gui::ExplorerHooks& hooks() const { return hooks_; }
    const acsel::Request& request() const { return request_; }
    acsel::gui::SearchRunner* searchRunner() const { return search_; }
    bool isScoring() const { return scoring_->isRunning(); }

    // Re-scores the space when anything but the budgets changed (budgets only re-classify).
    void setRequest(const acsel::Request& r);
    void setFilter(const acsel::gui::SpaceFilter& f);
    void setAlgorithm(acsel::gui::SearchAlgorithm a);
    // Starts the search for the current request (cancelling a running one).
    void startSearch();
    // Full prediction for the band editor; empty without an engine.
    std::optional<acsel::gui::Prediction> predict(const acsel::Config& c) const;

signals:
    void pointsReady(std::shared_ptr<const acsel::gui::PointSet> points, double seconds);
    void searchFinished(const acsel::gui::SearchOutcome& outcome);
    void searchFailed(const QString& message);

private:
    void rescoreSpace();

    std::shared_ptr<const acsel::Workspace> ws_;
    acsel::gui::ExplorerHooks hooks_;
    acsel::Request request_;
    acsel::gui::SpaceFilter filter_;
    acsel::gui::SearchAlgorithm algorithm_ = acsel::gui::SearchAlgorithm::BandPareto;
    acsel::gui::SearchRunner* scoring_ = nullptr;
    acsel::gui::SearchRunner* search_ = nullptr;
};

// What the banner above the plot says: synthetic numbers, missing engine or tables, the
// workspace's own notes. Empty when there is nothing to warn about.
QStringList bannerLines(const acsel::Workspace& ws, const acsel::gui::ExplorerHooks& hooks);

// The stack a new session starts on: the one with the most formats (ties: the first).
std::string defaultStack(const acsel::Workspace& ws);

} // namespace acsel::studio
