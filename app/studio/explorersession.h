// The window's worker side (docs/ARCHITECTURE.md): holds the workspace and the engine hooks,
// follows the request, filter and algorithm of the ExplorerState it is bound to, and runs the
// space scoring and the search on worker threads. A newer request supersedes older work; each
// result names the SearchKey it was computed for. No widget in here.
#pragma once

#include "core/model/workspace.h"
#include "core/search/workspaceengine.h"
#include "explorerhooks.h"
#include "explorerstate.h"
#include "widgets/fitqualityplot.h"
#include "widgets/searchrunner.h"

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
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
    // nullopt (Automatic): the searcher of the request's serving mode, followed when it changes.
    void setAlgorithm(acsel::gui::SearchAlgorithmChoice a);
    // Takes everything at once and scores and searches it, even if equal to the last one
    // (after setWorkspace: the same request on a new engine).
    void start(const acsel::Request& r, const acsel::gui::SpaceFilter& f,
               acsel::gui::SearchAlgorithmChoice a);
    // Searches the current request (cancelling a running search); nothing to do when the
    // same request, filter and algorithm are being or have been searched.
    void startSearch();
    // The window has drawn the first points of the running scoring: a queued search may start.
    void firstFrameShown();
    // Full prediction for the band editor; empty without an engine.
    std::optional<acsel::gui::Prediction> predict(const acsel::Config& c) const;

signals:
    // Twice per scoring: the uniform configurations first, then the complete set.
    void pointsReady(std::shared_ptr<const acsel::gui::PointSet> points, double seconds);
    // key: the request, filter and algorithm it was computed for (ExplorerState::isCurrent).
    void searchFinished(const acsel::gui::SearchOutcome& outcome,
                        const acsel::studio::SearchKey& key);
    void searchFailed(const QString& message);

private:
    void queueRescore();
    void startQueued();
    void runSearch();
    SearchKey key() const;

    std::shared_ptr<const acsel::Workspace> ws_;
    ExplorerHooks hooks_;
    acsel::Request request_;
    acsel::gui::SpaceFilter filter_;
    acsel::gui::SearchAlgorithmChoice algorithm_; // Automatic
    acsel::gui::SearchRunner* scoring_ = nullptr;
    acsel::gui::SearchRunner* search_ = nullptr;
    QTimer* kick_ = nullptr; // zero-delay: starts the queued work on the next event-loop turn
    bool rescoreQueued_ = false;
    bool searchQueued_ = false;
    bool firstFrameDrawn_ = false;      // of the running scoring
    std::optional<SearchKey> searched_; // of the running or delivered search
};

// --startup-profile: once given the process clock, startupMark prints "<ms since start> ms
// <what>" to stderr (from any thread); without it startupMark does nothing.
void setStartupClock(const QElapsedTimer* sinceStart);
void startupMark(const std::string& what);

// A workspace with its real engine: the workspace (spec-only stacks join it), the engine over
// it (FMC from fmcFile if given, the quality surrogate fitted on the workspace's quality set)
// and the hooks the window runs. Throws LoadError (or another std::exception) on bad input.
struct LoadedEngine {
    std::shared_ptr<const acsel::WorkspaceEngine> engine;
    std::shared_ptr<const acsel::Workspace> workspace; // aliases engine->workspace()
    ExplorerHooks hooks;
};
LoadedEngine loadEngine(const std::string& workspaceFile, const std::string& tablesDir,
                        const std::string& fmcFile);

// The quality surrogate's MdAPE (percent) on the held-out rows of the workspace's quality set;
// nullopt when the workspace names no quality set or it has no held-out row.
std::optional<double> heldoutQualityMdape(const acsel::WorkspaceEngine& engine);

// The measured end-to-end rows of the request's stack (AIC silicon CSV) against the engine's
// raw estimates for them (the serving model of the request's mode), TTFT and TPOT, with the
// stack's FMC line and MdAPE when a calibration is loaded. note says where the rows come from,
// or why there are none (a malformed file is named there with its error).
struct StackFits {
    std::vector<acsel::gui::FitSeries> series; // empty: no measured row of the stack
    std::string note;
};
StackFits stackFits(const acsel::WorkspaceEngine& engine, const acsel::Request& q);
// <tables dir>/silicon/dense_tp1.csv when it exists (the layout of ../shared/aic), else "".
std::string siliconFileOf(const acsel::Workspace& ws);

// What the banner above the plot says: synthetic quality, uncalibrated latency, missing
// engine, then the workspace's own notes. Empty when there is nothing to say.
// qualitySynthetic: the engine's flag (the data its surrogate was fitted on).
QStringList bannerLines(const acsel::Workspace& ws, const ExplorerHooks& hooks, bool fmcLoaded,
                        bool qualitySynthetic);

// The warning shown over the plot when the request's stack has an FMC line fitted on the other
// serving model than the request's (`acsel search` says the same on stderr): its calibrated
// latencies then correct the wrong raw estimate. Empty when they match or nothing is loaded.
QString servingModelMismatch(const acsel::WorkspaceEngine& engine, const acsel::Request& q);

// The warning shown with a configuration's prediction when the quality surrogate had no rows of
// its model (`acsel search` warns the same): its RMQD is then the shared trend of the other
// models. Empty when the model has rows (or the surrogate has no per-model offsets).
QString rmqdExtrapolationNote(const acsel::WorkspaceEngine& engine, const std::string& model);

// The note an exported configuration document carries on its predictions (as `acsel search
// --json` writes it): synthetic quality data, and an extrapolated RMQD for a model without
// quality rows. Empty when there is nothing to say.
std::string predictionsNote(const acsel::WorkspaceEngine& engine, const std::string& model);

// The banner's line naming every workspace model the surrogate has no rows of (their points'
// RMQD on the plot is extrapolated). Empty when there is none.
QString extrapolatedModelsLine(const acsel::WorkspaceEngine& engine);

// The stack a new session starts on: the first of the preferred stacks the workspace has,
// else the one with the most formats (ties: the first).
std::string defaultStack(const acsel::Workspace& ws);

// The Qwen3 models (else the first family), every format of the stack, every scope.
acsel::gui::SpaceFilter defaultFilter(const acsel::Workspace& ws, const std::string& stack);

// isl 1024, osl 256, concurrency 4, budgets 10 % above the predicted TTFT, TPOT and memory of
// the largest filtered model quantized uniformly to fp8 (else int8) that fits the device, so
// the frontier straddles them. Without a prediction hook, the Request defaults.
acsel::Request defaultRequest(const acsel::Workspace& ws, const ExplorerHooks& hooks,
                              const acsel::gui::SpaceFilter& filter, const std::string& stack);

} // namespace acsel::studio
