// The main window: docks the widgets around the plot and wires them to one ExplorerSession.
// No algorithm lives here.
#pragma once

#include "core/model/workspace.h"
#include "core/search/workspaceengine.h"
#include "explorerhooks.h"
#include "explorersession.h"
#include "explorerstate.h"
#include "sessioncontroller.h"
#include "theme.h"
#include "viewmodel/explorertypes.h"
#include "widgets/bandeditor.h"
#include "widgets/paretoplot.h"

#include <QMainWindow>
#include <QPalette>
#include <functional>
#include <memory>
#include <optional>

class QDockWidget;
class QLabel;
class QMenu;
class QToolButton;

namespace acsel::studio
{
class BudgetOffer;
class RecentSessionsMenu;
} // namespace acsel::studio

namespace acsel::gui
{
class BandEditor;
class BudgetGauges;
class CompareModel;
class CompareTable;
class ElidedLabel;
class FitQualityPlot;
class ParetoPlot;
class RecipeCard;
class SearchRunner;
class SizingTable;
class SloPanel;
} // namespace acsel::gui

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // restoreSettings: geometry and the last request from QSettings (off for --screenshot, so
    // screenshots do not depend on the last session).
    explicit MainWindow(bool restoreSettings, QWidget* parent = nullptr);
    ~MainWindow() override;
    // Replaces the workspace and its engine (fmcFile empty: raw latency, no calibration), with
    // the confidence gate chosen so far; on error the old session stays untouched and a dialog
    // says why.
    bool openWorkspace(const QString& workspaceFile, const QString& tablesDir,
                       const QString& fmcFile = {});
    // The same, for a session: check runs on the loaded workspace before anything changes and
    // may throw (its error goes into the dialog titled errorTitle).
    bool openWorkspace(const acsel::studio::WorkspacePaths& paths, const QString& errorTitle,
                       const std::function<void(const acsel::Workspace&)>& check);
    acsel::studio::SessionController* sessions() const { return sessions_; }
    acsel::studio::ExplorerState* state() const { return state_; }
    // A line about how the window was started (e.g. where the tables come from), for the banner.
    void setStartupNote(const QString& note) { startupNote_ = note; }
    // True while points are being scored or a search runs (used by --screenshot).
    bool isBusy() const;

protected:
    void closeEvent(QCloseEvent* e) override;
    // The first show without a saved dock layout sizes the bottom docks for the window's width.
    void showEvent(QShowEvent* e) override;

private:
    void buildDocks();
    void buildMenus(); // mainmenus.cpp
    void buildThemeMenu(QMenu* menu);
    void setTheme(acsel::studio::Theme theme);
    void showShortcuts();
    void showGuide(const QString& page); // relative to the docs folder, "#anchor" optional
    void saveSession(bool askForFile);
    // Reloads the engine with the confidence gate at p, keeping the request and the filter.
    void applyConfidence(double p);
    // The gate's interval depends on the request's concurrency and GPUs: when they differ from
    // those engine_'s gate was applied for, applies it again (after the current event).
    void followConfidenceLoad();
    void openSessionDialog();
    void wire();
    void showOutcome(const acsel::gui::SearchOutcome& o, const acsel::studio::SearchKey& key);
    void updateStaleness();
    void updateGauges(); // the card's answer against the current budgets
    void selectPoint(std::uint32_t configId);
    void showInEditor(const acsel::Config& c);
    std::vector<acsel::Format> stackFormats() const;
    // The band editor's and the pins' prediction under the current request; a configuration
    // the stack cannot run (or predict) gets NaN numbers and says why.
    acsel::gui::PredictionView predictNow(const acsel::Config& c) const;
    void pinCurrentCard();
    void pinEditor();
    void exportShown();
    void exportConfig(const acsel::Config& c, const acsel::gui::PredictionView& p);
    void updateBanner();
    // The info bar above the plot: one line (the first note and how many more) until expanded.
    void showBannerLines(const QStringList& lines, bool expanded);
    // The banner when the first workspace failed to open: the error and what to do.
    void showNothingLoaded(const QString& error);
    void updateServingWarning(); // mainstatus.cpp
    void updateEditorCaveat(const acsel::Config& c);
    void updateFits();
    void updateStatus();
    // The "By GPUs" dock (mainsizing.cpp): recomputed for the current request once its answer
    // is in and while the dock is shown.
    QDockWidget* buildSizingDock();
    void updateSizing();
    QString modelName(int model) const;

    bool restoreSettings_;
    bool defaultDocks_ = true; // no saved dock layout restored, not shown yet
    std::shared_ptr<const acsel::WorkspaceEngine> engine_;
    std::shared_ptr<const acsel::Workspace> ws_; // the engine's own workspace
    QString workspaceFile_;
    QString tablesDir_;
    QString fmcFile_;
    double confidence_ = 0.5;     // the confidence gate applied to engine_ (0.5: off)
    acsel::Request confidenceAt_; // the request whose concurrency and GPUs it was applied for
    QString startupNote_;
    bool opened_ = false;
    acsel::studio::ExplorerState* state_ = nullptr;
    acsel::studio::ExplorerSession* session_ = nullptr;
    std::optional<acsel::studio::SearchKey> cardKey_; // what the card's answer was computed for
    struct AnswerMarks {
        std::optional<acsel::gui::MarkedPoint> recommended, bestUniform;
    };
    AnswerMarks answerMarks_;            // the card's answer on the plot, drawn while it is current
    acsel::studio::ExplorerHooks hooks_; // the open workspace's (derived budgets)
    acsel::studio::BudgetOffer* budgetOffer_ = nullptr;
    QString howSure_; // the card's "How sure" line for the request's stack (updateFits)
    acsel::studio::SessionController* sessions_ = nullptr;
    acsel::gui::SloPanel* panel_ = nullptr;
    acsel::gui::ParetoPlot* plot_ = nullptr;
    acsel::gui::BudgetGauges* gauges_ = nullptr;
    acsel::gui::BandEditor* editor_ = nullptr;
    acsel::gui::RecipeCard* card_ = nullptr;
    acsel::gui::CompareModel* compare_ = nullptr;
    acsel::gui::FitQualityPlot* fits_ = nullptr;
    acsel::gui::CompareTable* compareView_ = nullptr;
    acsel::gui::SizingTable* sizing_ = nullptr;
    QDockWidget* sizingDock_ = nullptr;
    acsel::gui::SearchRunner* sizingRunner_ = nullptr;
    decltype(acsel::studio::ExplorerHooks::sizeByGpus) sizeByGpus_;
    std::optional<acsel::studio::SearchKey> sizingKey_; // what the table's rows answer
    QLabel* banner_ = nullptr;
    QToolButton* bannerToggle_ = nullptr;
    QStringList bannerLines_;
    QLabel* servingWarning_ = nullptr; // the FMC line fits the other serving model
    acsel::studio::RecentSessionsMenu* recent_ = nullptr;
    acsel::gui::ElidedLabel* counts_ = nullptr;
    QLabel* editorCaveat_ = nullptr; // the band editor's model has no quality rows
    double rescoreMs_ = 0;
    std::optional<double> qualityMdape_; // of the open workspace's surrogate
    QPalette systemPalette_;             // what View > Theme > System goes back to
};
