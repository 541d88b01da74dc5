#include "mainwindow.h"

#include "budgetoffer.h"
#include "core/data/loaderror.h"
#include "core/data/workspacefile.h"
#include "engineloading.h"
#include "guidetopics.h"
#include "sessiondefaults.h"
#include "sessionnotes.h"
#include "startupprofile.h"
#include "studiosettings.h"
#include "viewmodel/predictiontext.h"
#include "widgets/bandeditor.h"
#include "widgets/budgetgauges.h"
#include "widgets/comparemodel.h"
#include "widgets/comparetable.h"
#include "widgets/elidedlabel.h"
#include "widgets/fitqualityplot.h"
#include "widgets/paretoplot.h"
#include "widgets/recipecard.h"
#include "widgets/searchprogress.h"
#include "widgets/slopanel.h"
#include "widgets/warningstyle.h"
#include "widgets/wheelguard.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QShowEvent>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <limits>
#include <map>
#include <memory>
#include <qcustomplot.h>

using namespace acsel;
using namespace acsel::gui;

namespace
{
MarkedPoint markOf(const PredictionView& p)
{
    return {p.ttftMs, p.tpotMs, p.rmqd};
}

// No numbers (NaN: no point is drawn) and not runnable; the caller says why in the verdict.
PredictionView unpredicted()
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    PredictionView p;
    p.ttftMs = p.tpotMs = p.memoryBytes = p.rmqd = p.rawTtftMs = p.rawTpotMs = nan;
    p.runnable = false;
    return p;
}
} // namespace

MainWindow::MainWindow(bool restoreSettings, QWidget* parent)
    : QMainWindow(parent), restoreSettings_(restoreSettings)
{
    // Always with the placeholder: a restore may mark the window modified before any file.
    setWindowTitle(tr("ACSeL Studio[*]"));
    state_ = new acsel::studio::ExplorerState(this);
    session_ = new acsel::studio::ExplorerSession(this);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(4, 4, 4, 4);
    // The info bar: provenance and caveats in one line until expanded (a laptop screen keeps
    // its plot); the tooltip always has every note in full.
    auto* infoBar = new QWidget(central);
    infoBar->setObjectName(QStringLiteral("infoBar"));
    auto* infoLayout = new QHBoxLayout(infoBar);
    infoLayout->setContentsMargins(0, 0, 0, 0);
    bannerToggle_ = new QToolButton(infoBar);
    bannerToggle_->setObjectName(QStringLiteral("bannerToggle"));
    bannerToggle_->setCheckable(true);
    bannerToggle_->setArrowType(Qt::RightArrow);
    bannerToggle_->setToolTip(tr("Show every note"));
    banner_ = new QLabel(infoBar);
    banner_->setObjectName(QStringLiteral("banner"));
    banner_->setWordWrap(true);
    banner_->setAutoFillBackground(true);
    banner_->setMargin(4);
    infoLayout->addWidget(bannerToggle_, 0, Qt::AlignTop);
    infoLayout->addWidget(banner_, 1);
    connect(bannerToggle_, &QToolButton::toggled, this,
            [this](bool on) { showBannerLines(bannerLines_, on); });
    servingWarning_ = new QLabel(central);
    servingWarning_->setObjectName(QStringLiteral("servingModelWarning"));
    servingWarning_->setWordWrap(true);
    styleAsWarning(*servingWarning_);
    servingWarning_->setMargin(6);
    servingWarning_->hide();
    plot_ = new ParetoPlot(central);
    gauges_ = new BudgetGauges(central);
    budgetOffer_ = new acsel::studio::BudgetOffer(central);
    layout->addWidget(infoBar);
    layout->addWidget(servingWarning_);
    layout->addWidget(budgetOffer_);
    layout->addWidget(gauges_);
    layout->addWidget(plot_, 1);
    setCentralWidget(central);
    central->setProperty(acsel::studio::kGuideTopicProperty,
                         QStringLiteral("GUIDE.md#3-a-first-session-in-the-window"));
    buildDocks();
    sessions_ = new acsel::studio::SessionController(
        {session_, state_, editor_, compare_},
        {[this] {
             return acsel::studio::WorkspacePaths{workspaceFile_, tablesDir_, fmcFile_,
                                                  confidence_};
         },
         [this](const acsel::studio::WorkspacePaths& p, const QString& title,
                const std::function<void(const Workspace&)>& check) {
             return openWorkspace(p, title, check);
         },
         [this](const Config& c) { showInEditor(c); }, [this] { return ws_.get(); }},
        this);
    // "name[*]": Qt shows the '*' while the session differs from its file.
    connect(
        sessions_, &acsel::studio::SessionController::fileChanged, this, [this](const QString& f) {
            setWindowTitle(f.isEmpty() ? tr("ACSeL Studio[*]")
                                       : tr("%1[*] - ACSeL Studio").arg(QFileInfo(f).fileName()));
        });
    connect(sessions_, &acsel::studio::SessionController::modifiedChanged, this,
            &QWidget::setWindowModified);
    buildMenus();
    wire();
    counts_ = new ElidedLabel(this); // a long line must not widen the window
    counts_->setObjectName(QStringLiteral("statusCounts"));
    statusBar()->addWidget(counts_, 1);
    editorCaveat_ = new QLabel(this);
    editorCaveat_->setObjectName(QStringLiteral("editorRmqdCaveat"));
    styleAsWarning(*editorCaveat_); // as the card's caveat
    editorCaveat_->hide();
    statusBar()->addPermanentWidget(editorCaveat_);
    statusBar()->addPermanentWidget(new SearchProgress(session_->searchRunner(), this));
    // The first size fits the screen (a 1280x720 laptop too); a saved geometry replaces it.
    QSize size(1500, 950);
    if (const QScreen* screen = QGuiApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() - QSize(8, 40)); // + frame
    resize(size);
    if (!restoreSettings_)
        return;
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    defaultDocks_ = !restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::showEvent(QShowEvent* e)
{
    QMainWindow::showEvent(e);
    if (!defaultDocks_)
        return;
    defaultDocks_ = false; // once, at the size the window is first shown at
    const int width = this->width();
    // Compare takes a little more of the bottom than the band editor: its metrics in view
    // without scrolling on a laptop (the strip reads well at half the width).
    resizeDocks({findChild<QDockWidget*>(QStringLiteral("bands")),
                 findChild<QDockWidget*>(QStringLiteral("compare"))},
                {width * 45 / 100, width * 55 / 100}, Qt::Horizontal);
    // Tall enough for four pins without scrolling (with the dock's title bar).
    resizeDocks({findChild<QDockWidget*>(QStringLiteral("compare"))},
                {compareView_->horizontalHeader()->sizeHint().height() +
                 CompareModel::kMaxPinned * compareView_->verticalHeader()->defaultSectionSize() +
                 2 * compareView_->frameWidth() + fontMetrics().height() + 8},
                Qt::Vertical);
}

MainWindow::~MainWindow()
{
    // Before the docks: the band editor's undo stack announces its last cleanChanged while it
    // is destroyed, and the controller would read the already destroyed request panel.
    delete sessions_;
}

void MainWindow::buildDocks()
{
    // Each dock names the user guide's section about it (F1, Help on this part of the window).
    auto dock = [this](QWidget* w, const QString& title, const char* name,
                       Qt::DockWidgetArea area) {
        static const std::map<QString, QString> topics{
            {QStringLiteral("request"), QStringLiteral("GUIDE.md#3-a-first-session-in-the-window")},
            {QStringLiteral("bands"), QStringLiteral("GUIDE.md#3-a-first-session-in-the-window")},
            {QStringLiteral("recommendation"),
             QStringLiteral("GUIDE.md#5-reading-a-recommendation")},
            {QStringLiteral("compare"), QStringLiteral("GUI.md#using-it")},
            {QStringLiteral("fit"), QStringLiteral("DATA.md#3-measured-profiles-fmc-calibration")}};
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name)); // for saveState()
        if (const auto t = topics.find(d->objectName()); t != topics.end())
            d->setProperty(acsel::studio::kGuideTopicProperty, t->second);
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    // Request and card scroll: their content is taller than a laptop screen leaves them.
    auto scrolled = [this](QWidget* w) {
        WheelGuard::install(w); // the wheel scrolls the panel, not the control under it
        auto* area = new QScrollArea(this);
        area->setWidget(w);
        area->setWidgetResizable(true);
        area->setFrameShape(QFrame::NoFrame);
        area->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
        return area;
    };
    panel_ = new SloPanel(this);
    editor_ = new BandEditor(this);
    card_ = new RecipeCard(this);
    fits_ = new FitQualityPlot(this);
    compare_ = new CompareModel(this);
    compareView_ = new CompareTable(compare_, this);
    dock(scrolled(panel_), tr("Request"), "request", Qt::LeftDockWidgetArea);
    QDockWidget* cardDock =
        dock(scrolled(card_), tr("Recommendation"), "recommendation", Qt::RightDockWidgetArea);
    QDockWidget* fitDock = dock(fits_, tr("Surrogate fit"), "fit", Qt::RightDockWidgetArea);
    tabifyDockWidget(cardDock, fitDock);
    tabifyDockWidget(cardDock, buildSizingDock());
    cardDock->raise();
    resizeDocks({cardDock}, {420}, Qt::Horizontal); // the card's tables have four columns
    QDockWidget* editDock = dock(editor_, tr("Band editor"), "bands", Qt::BottomDockWidgetArea);
    QDockWidget* cmpDock = dock(compareView_, tr("Compare"), "compare", Qt::BottomDockWidgetArea);
    splitDockWidget(editDock, cmpDock, Qt::Horizontal);
}

void MainWindow::wire()
{
    using acsel::studio::ExplorerState;
    // The panel edits the state; the state drives the panel (programmatically, so no echo),
    // the plot, the explorer session, the band editor and the pins.
    connect(panel_, &SloPanel::requestChanged, state_, &ExplorerState::setRequest);
    connect(panel_, &SloPanel::filterChanged, state_, &ExplorerState::setFilter);
    connect(panel_, &SloPanel::algorithmChanged, state_, &ExplorerState::setAlgorithm);
    connect(panel_, &SloPanel::marginChanged, state_, &ExplorerState::setMargin);
    connect(panel_, &SloPanel::requestSettled, session_,
            &acsel::studio::ExplorerSession::startSearch);
    connect(state_, &ExplorerState::requestChanged, this,
            [this](const Request& r, const Request& previous) {
                // The panel searches once the hand rests (requestSettled); a change made
                // elsewhere (a session, a test, a script) is searched at once.
                const bool fromPanel = panel_->request() == r;
                if (!fromPanel)
                    panel_->setRequest(r);
                plot_->setBudgets(state_->budgets()); // light: re-classify and redraw
                updateGauges();
                session_->setRequest(r);
                if (!fromPanel)
                    session_->startSearch();
                editor_->repredict();
                compare_->repredict([this](const Config& c) { return predictNow(c); });
                followConfidenceLoad();
                if (r.stack != previous.stack || r.mode != previous.mode) {
                    updateFits();
                    updateServingWarning();
                }
                // The user chose another stack: its own budgets one click away.
                if (r.stack != previous.stack) {
                    if (fromPanel && ws_)
                        budgetOffer_->offer(QString::fromStdString(r.stack),
                                            budgetsOf(acsel::studio::withDerivedBudgets(
                                                *ws_, hooks_, state_->filter(), r)),
                                            budgetsOf(r));
                    else
                        budgetOffer_->withdraw();
                }
            });
    connect(budgetOffer_, &acsel::studio::BudgetOffer::budgetsChosen, this,
            [this](const Budgets& b) {
                Request r = state_->request();
                r.ttftBudgetMs = b.ttftMs;
                r.tpotBudgetMs = b.tpotMs;
                r.memBudgetGiB = b.memoryGiB;
                state_->setRequest(r);
            });
    connect(state_, &ExplorerState::filterChanged, this, [this](const SpaceFilter& f) {
        if (!(panel_->filter() == f)) {
            panel_->setFilter(f);
            if (!(panel_->filter() == f)) { // the panel keeps bf16: the state says so too
                state_->setFilter(panel_->filter());
                return;
            }
        }
        session_->setFilter(f);
    });
    // A margin only moves the budgets the gate sees: as a budget move (searched on the
    // panel's requestSettled, at once when set elsewhere).
    connect(state_, &ExplorerState::marginChanged, this, [this](const BudgetMargin& m) {
        const bool fromPanel = panel_->margin() == m;
        if (!fromPanel)
            panel_->setMargin(m);
        plot_->setBudgets(state_->budgets());
        updateGauges();
        session_->setMargin(m);
        if (!fromPanel)
            session_->startSearch();
        editor_->repredict();
        compare_->repredict([this](const Config& c) { return predictNow(c); });
    });
    connect(panel_, &SloPanel::confidenceChanged, this, &MainWindow::applyConfidence);
    connect(state_, &ExplorerState::algorithmChanged, this, [this](SearchAlgorithmChoice a) {
        panel_->setAlgorithm(a);
        session_->setAlgorithm(a);
    });
    // While the plot takes the state's view, its own viewChanged (one per setter, the first
    // with the rest still old) is no user change: not written back.
    auto showing = std::make_shared<bool>(false);
    auto showView = [this, showing](acsel::studio::ViewSettings v) {
        *showing = true;
        plot_->setAxis(v.axis);
        plot_->setLogX(v.logX);
        plot_->setLogY(v.logY);
        plot_->setColourBy(v.colourBy);
        *showing = false;
    };
    connect(state_, &ExplorerState::viewChanged, this, showView);
    showView(state_->view()); // the plot starts in the state's default view
    connect(plot_, &ParetoPlot::viewChanged, this, [this, showing] {
        if (!*showing)
            state_->setView({plot_->axis(), plot_->logX(), plot_->logY(), plot_->colourBy()});
    });
    connect(state_, &ExplorerState::keyChanged, this, &MainWindow::updateStaleness);
    connect(session_, &acsel::studio::ExplorerSession::pointsReady, this,
            [this](auto points, double) { plot_->setPoints(std::move(points)); });
    connect(plot_->customPlot(), &QCustomPlot::afterReplot, this,
            [this] { session_->firstFrameShown(plot_->pointSet()); });
    connect(session_, &acsel::studio::ExplorerSession::searchFinished, this,
            &MainWindow::showOutcome);
    connect(session_, &acsel::studio::ExplorerSession::searchFailed, this,
            [this](const QString& m) { card_->showMessage(tr("The search failed: %1").arg(m)); });
    connect(plot_, &ParetoPlot::pointClicked, this, &MainWindow::selectPoint);
    connect(plot_, &ParetoPlot::rescored, this,
            [this](qint64, qint64, double ms) { rescoreMs_ = ms; });
    connect(plot_->customPlot(), &QCustomPlot::afterReplot, this, &MainWindow::updateStatus);
    connect(editor_, &BandEditor::configPredicted, this,
            [this](const Config& c, const std::optional<PredictionView>& p) {
                plot_->setSelected(p ? std::optional(markOf(*p)) : std::nullopt);
                updateEditorCaveat(c);
            });
    connect(card_, &RecipeCard::pinRequested, this, &MainWindow::pinCurrentCard);
    connect(card_, &RecipeCard::pinUniformRequested, this, [this] {
        const auto& c = card_->content();
        if (c && !card_->isStale() && c->uniform && c->uniformPrediction)
            compare_->pin({tr("Best uniform"), modelName(c->uniform->model), *c->uniform,
                           *c->uniformPrediction});
    });
    connect(card_, &RecipeCard::exportRequested, this, [this] {
        if (card_->content() && !card_->isStale())
            exportConfig(card_->content()->config, card_->content()->prediction);
    });
    compare_->setRmqdCaveat([this](const QString& model) {
        return engine_ ? acsel::studio::rmqdExtrapolationNote(*engine_, model.toStdString())
                       : QString();
    });
    connect(compare_, &CompareModel::pinnedChanged, this, [this] {
        std::vector<MarkedPoint> marks;
        for (const PinnedConfig& p : compare_->pinned())
            marks.push_back(markOf(p.prediction));
        plot_->setPinned(marks);
    });
}

bool MainWindow::openWorkspace(const QString& workspaceFile, const QString& tablesDir,
                               const QString& fmcFile)
{
    // The dialog names what the user opened: the tables folder or the FMC file when it is all
    // that differs from the open session (File > Open tables folder / FMC calibration).
    QString title = tr("Cannot open workspace");
    if (opened_ && workspaceFile == workspaceFile_) {
        if (tablesDir != tablesDir_)
            title = tr("Cannot open tables folder");
        else if (fmcFile != fmcFile_)
            title = tr("Cannot open FMC calibration");
    }
    // The confidence chosen stays, as the margin does (applied where the FMC file has intervals).
    return openWorkspace({workspaceFile, tablesDir, fmcFile, confidence_}, title, {});
}

bool MainWindow::openWorkspace(const acsel::studio::WorkspacePaths& paths,
                               const QString& errorTitle,
                               const std::function<void(const Workspace&)>& check)
{
    const QString& workspaceFile = paths.workspaceFile;
    const QString& tablesDir = paths.tablesDir;
    const QString& fmcFile = paths.fmcFile;
    acsel::studio::LoadedEngine loaded;
    Request r;
    SpaceFilter filter;
    std::optional<double> qualityMdape;
    BudgetMargin margin = state_->margin(); // a workspace opened later keeps the panel's
    double confidence = paths.confidence;
    try {
        const auto saved = acsel::studio::loadStudioSettings(QSettings());
        if (restoreSettings_ && !opened_ && confidence == kNoConfidence)
            confidence = saved.confidence;
        loaded = acsel::studio::loadEngine(workspaceFile.toStdString(), tablesDir.toStdString(),
                                           fmcFile.toStdString(), confidence, state_->request());
        const Workspace& ws = *loaded.workspace;
        if (check)
            check(ws);
        qualityMdape = acsel::studio::heldoutQualityMdape(*loaded.engine);
        const std::string stack = acsel::studio::defaultStack(ws);
        filter = acsel::studio::defaultFilter(ws, stack);
        if (restoreSettings_ && saved.request && ws.findStack(saved.request->stack))
            r = *saved.request;
        else // the anchor prediction may load operator tables: a bad table fails here
            r = acsel::studio::defaultRequest(ws, loaded.hooks, filter, stack);
        if (restoreSettings_ && !opened_)
            margin = saved.margin;
    } catch (const std::exception& e) {
        // Window-modal but not blocking: a --screenshot run still finishes.
        auto* box = new QMessageBox(QMessageBox::Critical, errorTitle,
                                    QString::fromStdString(e.what()), QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        qWarning("%s: %s", qPrintable(errorTitle), e.what());
        if (!opened_) // an empty window says why once the box is gone
            showNothingLoaded(errorTitle + QStringLiteral(": ") + QString::fromUtf8(e.what()));
        return false;
    }
    if (opened_) // the startup note was about the first session's tables
        startupNote_ =
            tablesDir.isEmpty() ? QString() : tr("Operator tables from %1.").arg(tablesDir);
    opened_ = true;
    engine_ = loaded.engine;
    ws_ = loaded.workspace;
    workspaceFile_ = workspaceFile;
    tablesDir_ = tablesDir;
    fmcFile_ = fmcFile;
    confidence_ = loaded.intervals ? confidence : kNoConfidence;
    confidenceAt_ = state_->request();
    panel_->setConfidenceAvailable(
        loaded.intervals,
        fmcFile.isEmpty()
            ? QString()
            : tr("Needs an FMC calibration with intervals: %1 has none (fewer than 3 profiles "
                 "per stack, or a file written before intervals).")
                  .arg(fmcFile));
    panel_->setConfidence(confidence_);
    state_->setWorkspace(ws_.get());
    session_->setWorkspace(ws_, loaded.hooks);
    hooks_ = loaded.hooks;
    sizeByGpus_ = loaded.hooks.sizeByGpus;
    sizingKey_.reset();
    editor_->setPredictor([this](const Config& c) { return predictNow(c); });
    std::vector<bool> moe;
    for (const ModelArch& m : ws_->models)
        moe.push_back(m.isMoe());
    editor_->setMoeModels(moe);
    compare_->setMoeModels(std::move(moe));
    panel_->setWorkspace(*ws_);
    panel_->setRequest(r);
    if (!panel_->request().stack.empty())
        filter = acsel::studio::defaultFilter(*ws_, panel_->request().stack);
    panel_->setFilter(filter);
    // The panel has checked what it could show (a stack of this workspace, bf16 kept).
    state_->setRequest(panel_->request());
    state_->setFilter(panel_->filter());
    panel_->setMargin(margin);
    state_->setMargin(panel_->margin());
    budgetOffer_->withdraw();             // the workspace's own request: nothing to offer
    plot_->setBudgets(state_->budgets()); // the same request may meet another device cap
    session_->start(state_->request(), state_->filter(),
                    state_->algorithmChoice()); // a new engine: score and search whatever changed
    cardKey_.reset();
    card_->showMessage(tr("Searching..."));
    qualityMdape_ = qualityMdape;
    updateFits();
    updateBanner();
    updateServingWarning();
    sessions_->updateModified();
    followConfidenceLoad(); // the workspace's own request may sit at another concurrency
    return true;
}

void MainWindow::followConfidenceLoad()
{
    const auto stale = [this] {
        const Request& r = state_->request();
        return confidence_ != kNoConfidence &&
               (r.concurrency != confidenceAt_.concurrency || r.gpus != confidenceAt_.gpus);
    };
    if (stale()) // checked again when it runs: several changes in one event apply it once
        QTimer::singleShot(0, this, [this, stale] {
            if (stale())
                applyConfidence(confidence_);
        });
}

void MainWindow::applyConfidence(double p)
{
    // The gate's lines change with it: a new engine (as acsel search --confidence builds one),
    // on the same request, filter, margin, band editor and pins.
    const Request r = state_->request();
    const SpaceFilter f = state_->filter();
    if (!openWorkspace({workspaceFile_, tablesDir_, fmcFile_, p}, tr("Cannot apply the confidence"),
                       {})) {
        panel_->setConfidence(confidence_);
        return;
    }
    state_->setRequest(r);
    state_->setFilter(f);
    sessions_->updateModified();
}

PredictionView MainWindow::predictNow(const Config& c) const
{
    // A configuration kept from another stack (a pin, a new workspace, an opened session) may
    // use a format this stack has no costs for: said in the verdict, no point drawn (NaN).
    try {
        if (const auto p = session_->predict(c))
            return *p;
    } catch (const std::exception& e) {
        PredictionView p = unpredicted();
        p.verdict = tr("not predicted: %1").arg(QString::fromStdString(e.what())).toStdString();
        return p;
    }
    PredictionView p = unpredicted();
    p.verdict = tr("no prediction engine").toStdString();
    return p;
}

void MainWindow::showOutcome(const SearchOutcome& o, const acsel::studio::SearchKey& key)
{
    // Computed for an earlier request, filter or algorithm: never shown as current (the
    // search for the current one is queued or running).
    if (!state_->isCurrent(key))
        return;
    cardKey_ = key;
    updateSizing(); // after the answer, so the two searches do not compete for the cores
    if (!o.best) {
        // Nothing plotted (this request's points: the search waited for at least their first
        // frame): the Space filters leave nothing. Else which budget binds and the nearest
        // answer, found exactly with the search.
        const PointSet* ps = plot_->pointSet();
        if (!ps || ps->points.empty())
            card_->showMessage(tr("No configuration to search."), emptySpaceText());
        else {
            // The memory floor's sentence is acsel search's (app/common/memoryfloor.h), after the
            // budgets' lines.
            QString detail = o.nearestMiss
                                 ? nearestMissText(*o.nearestMiss, key.request, *ws_, key.margin)
                                 : QString();
            if (!o.memoryFloor.empty()) {
                const QString w = QString::fromStdString(o.memoryFloor);
                detail += (detail.isEmpty() ? QString() : QStringLiteral("\n")) +
                          w.left(1).toUpper() + w.mid(1) + QLatin1Char('.');
            }
            card_->showMessage(tr("No configuration meets this request."), detail);
        }
        answerMarks_ = {};
        updateGauges();
        updateStaleness();
        return;
    }
    CardContent c{
        tr("Recommended by %1").arg(QString::fromLatin1(toDisplayString(o.stats.algorithm))),
        *o.best,
        modelName(o.best->model),
        o.bestPrediction,
        o.bestUniform,
        o.bestUniform ? std::optional(o.bestUniformPrediction) : std::nullopt,
        o.stats,
        acsel::studio::rmqdExtrapolationNote(*engine_, modelName(o.best->model).toStdString()),
        howSure_,
        ws_ ? parameterText(ws_->models[static_cast<std::size_t>(o.best->model)]) : QString(),
        ws_ && ws_->models[static_cast<std::size_t>(o.best->model)].isMoe(),
        gateText(key.margin, confidence_)};
    card_->setContent(c);
    answerMarks_ = {markOf(o.bestPrediction),
                    o.bestUniform ? std::optional(markOf(o.bestUniformPrediction)) : std::nullopt};
    // An edit, a clicked point or a restored configuration stays: the recommendation is offered.
    editor_->showRecommendation(*o.best, modelName(o.best->model), stackFormats());
    updateGauges();
    updateStaleness();
    updateStatus(); // the answer's time
    acsel::studio::startupMark("recommendation shown (card, star on the plot)");
}

void MainWindow::updateStaleness()
{
    const bool stale = !(cardKey_ && state_->isCurrent(*cardKey_));
    card_->setStale(stale);
    // An offered recommendation answers the card's request: gone with it (a later answer
    // offers its own), and never beside "No configuration meets this request".
    if (stale || !card_->content())
        editor_->withdrawOffer();
    gauges_->setEnabled(!stale); // greyed with the card: an answer for an older request
    // The star and the best uniform's mark only for the request they were computed for: an
    // older answer's star may sit inside the new budgets' shaded area.
    plot_->setRecommended(stale ? std::nullopt : answerMarks_.recommended);
    plot_->setBestUniform(stale ? std::nullopt : answerMarks_.bestUniform);
}

void MainWindow::updateGauges()
{
    const std::optional<CardContent>& c = card_->content();
    gauges_->setValues(state_->budgets(), c ? std::optional(c->prediction) : std::nullopt);
}

void MainWindow::selectPoint(std::uint32_t configId)
{
    const PointSet* set = plot_->pointSet();
    if (!set || configId >= set->configs.size() || !ws_)
        return;
    showInEditor(set->configs[configId]);
}

std::vector<Format> MainWindow::stackFormats() const
{
    const auto s = ws_ ? ws_->findStack(state_->request().stack) : std::nullopt;
    return s ? ws_->stacks[static_cast<std::size_t>(*s)].formats : std::vector<Format>{};
}

void MainWindow::showInEditor(const Config& c)
{
    editor_->setConfig(c, modelName(c.model), stackFormats(), BandEditor::Origin::Chosen);
}

void MainWindow::pinCurrentCard()
{
    // The card's answer, only while it is the current request's.
    if (!card_->content() || card_->isStale())
        return;
    const CardContent& c = *card_->content();
    compare_->pin({tr("Recommended"), c.modelName, c.config, c.prediction});
}

void MainWindow::pinEditor()
{
    if (!editor_->prediction())
        return;
    const Config& c = editor_->config();
    compare_->pin({tr("Edited"), modelName(c.model), c, *editor_->prediction()});
}

QString MainWindow::modelName(int model) const
{
    return ws_ && model >= 0 && static_cast<std::size_t>(model) < ws_->models.size()
               ? QString::fromStdString(ws_->models[static_cast<std::size_t>(model)].name)
               : QString();
}

bool MainWindow::isBusy() const
{
    return session_->isScoring() || session_->searchRunner()->isRunning();
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    if (!sessions_->maybeSave()) { // Cancel, or Save failed: the window stays as it was
        e->ignore();
        return;
    }
    // --screenshot (and tests) started without the user's settings: they must not write them.
    if (restoreSettings_) {
        QSettings settings;
        settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings.setValue(QStringLiteral("window/state"), saveState());
        acsel::studio::saveStudioSettings(settings, {workspaceFile_, tablesDir_, state_->request(),
                                                     state_->margin(), confidence_});
    }
    sessions_->writeAutosave(true); // the next start finds it clean: nothing to offer
    QMainWindow::closeEvent(e);
}
