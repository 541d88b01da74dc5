// The window's worker side (docs/ARCHITECTURE.md): holds the workspace and the engine hooks,
// follows the request, filter and algorithm of the ExplorerState it is bound to, and runs the
// space scoring and the search on worker threads. A newer request supersedes older work; each
// result names the SearchKey it was computed for. No widget in here.
#pragma once

#include "core/model/workspace.h"
#include "explorerhooks.h"
#include "explorerstate.h"
#include "viewmodel/searchrunner.h"

#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>

namespace acsel::studio
{

class ExplorerSession : public QObject
{
    Q_OBJECT
public:
    explicit ExplorerSession(QObject* parent = nullptr);

    void setWorkspace(std::shared_ptr<const acsel::Workspace> ws, ExplorerHooks hooks);
    const acsel::Workspace* workspace() const { return ws_.get(); }
    const ExplorerHooks& hooks() const { return hooks_; }
    const acsel::Request& request() const { return request_; }
    // The request as the gate sees it: the budgets less the margin (gatedRequest).
    acsel::Request gated() const { return gatedRequest(ws_.get(), request_, margin_); }
    acsel::gui::SearchRunner* searchRunner() const { return search_; }
    // True while the space is being scored or work is queued to start (see below).
    bool isScoring() const { return scoring_->isRunning() || kick_->isActive() || searchQueued_; }

    // Work is queued, not started at once: the changes of one event-loop turn (opening a
    // workspace sets the request and the filter several times) start one job each, and the
    // search waits for the scoring's first frame (the uniform configurations) to be shown (or
    // the scoring to end), so a frontier is drawn first.
    // Re-scores the space when anything but the budgets changed (budgets only re-classify).
    void setRequest(const acsel::Request& r);
    void setFilter(const acsel::gui::SpaceFilter& f);
    // A new margin only moves the budgets: answered from the index as a budget move is.
    void setMargin(const acsel::BudgetMargin& m);
    // nullopt (Automatic): the searcher of the request's serving mode, followed when it changes.
    void setAlgorithm(acsel::gui::SearchAlgorithmChoice a);
    // Takes everything at once and scores and searches it, even if equal to the last one
    // (after setWorkspace: the same request on a new engine).
    void start(const acsel::Request& r, const acsel::gui::SpaceFilter& f,
               acsel::gui::SearchAlgorithmChoice a);
    // Searches the current request (cancelling a running search); nothing to do when the
    // same request, filter and algorithm are being or have been searched.
    void startSearch();
    // The window has drawn these points: when they are the running scoring's first ones, a
    // queued search may start.
    void firstFrameShown(const acsel::gui::PointSet* shown);
    // Whether budget changes of the current workload are answered from its index.
    bool answersBudgetsAtOnce() const;
    // Full prediction for the band editor (gated with the margin); empty without an engine.
    std::optional<acsel::gui::PredictionView> predict(const acsel::Config& c) const;

signals:
    // Twice per scoring: the uniform configurations first, then the complete set.
    void pointsReady(std::shared_ptr<const acsel::gui::PointSet> points, double seconds);
    // key: the request, filter and algorithm it was computed for (ExplorerState::isCurrent).
    void searchFinished(const acsel::gui::SearchOutcome& outcome,
                        const acsel::studio::SearchKey& key);
    void searchFailed(const QString& message);
    // The searched workload's budget index is built: budget changes are answered at once.
    void budgetIndexReady();

private:
    void queueRescore();
    void startQueued();
    void runSearch();
    SearchKey key() const;
    // The outcome for the current request from the index, shown at once; false without one.
    bool answerFromIndex();
    // Once nothing else runs, builds the last searched workload's index (if it has none).
    void startIndexIfIdle();
    void dropIndexOfAnotherWorkload();

    std::shared_ptr<const acsel::Workspace> ws_;
    ExplorerHooks hooks_;
    acsel::Request request_;
    acsel::gui::SpaceFilter filter_;
    acsel::BudgetMargin margin_;
    acsel::gui::SearchAlgorithmChoice algorithm_; // Automatic
    acsel::gui::SearchRunner* scoring_ = nullptr;
    acsel::gui::SearchRunner* search_ = nullptr;
    acsel::gui::SearchRunner* indexing_ = nullptr;
    QTimer* kick_ = nullptr; // zero-delay: starts the queued work on the next event-loop turn
    bool rescoreQueued_ = false;
    bool searchQueued_ = false;
    bool firstFrameDrawn_ = false;                    // of the running scoring
    const acsel::gui::PointSet* published_ = nullptr; // its last points handed to the window
    std::optional<SearchKey> searched_;               // of the running or delivered search
    // The budget index: the workload it is (being) built for and, once built, its answerer
    // (empty where the workload has none).
    std::optional<SearchKey> indexed_;
    ExplorerHooks::BudgetAnswerer answerer_;
};

} // namespace acsel::studio
