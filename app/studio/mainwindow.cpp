#include "mainwindow.h"

#include "core/data/loaderror.h"
#include "core/data/workspacefile.h"
#include "studiosettings.h"
#include "widgets/bandeditor.h"
#include "widgets/comparemodel.h"
#include "widgets/comparetable.h"
#include "widgets/fitqualityplot.h"
#include "widgets/paretoplot.h"
#include "widgets/predictiontext.h"
#include "widgets/recipecard.h"
#include "widgets/searchprogress.h"
#include "widgets/slopanel.h"
#include "widgets/warningstyle.h"

#include <QCloseEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QVBoxLayout>
#include <limits>
#include <qcustomplot.h>

using namespace acsel;
using namespace acsel::gui;

namespace
{
MarkedPoint markOf(const Prediction& p)
{
    return {p.ttftMs, p.tpotMs, p.rmqd};
}
} // namespace

MainWindow::MainWindow(bool restoreSettings, QWidget* parent)
    : QMainWindow(parent), restoreSettings_(restoreSettings)
{
    setWindowTitle(tr("ACSeL Studio"));
    session_ = new acsel::studio::ExplorerSession(this);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    banner_ = new QLabel(central);
    banner_->setObjectName(QStringLiteral("banner"));
    banner_->setWordWrap(true);
    banner_->setAutoFillBackground(true);
    banner_->setMargin(6);
    servingWarning_ = new QLabel(central);
    servingWarning_->setObjectName(QStringLiteral("servingModelWarning"));
    servingWarning_->setWordWrap(true);
    styleAsWarning(*servingWarning_);
    servingWarning_->setMargin(6);
    servingWarning_->hide();
    plot_ = new ParetoPlot(central);
    layout->addWidget(banner_);
    layout->addWidget(servingWarning_);
    layout->addWidget(plot_, 1);
    setCentralWidget(central);
    buildDocks();
    sessions_ = new acsel::studio::SessionController(
        {session_, panel_, plot_, editor_, compare_},
        {[this] {
             return acsel::studio::WorkspacePaths{workspaceFile_, tablesDir_, fmcFile_};
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
            setWindowTitle(f.isEmpty() ? tr("ACSeL Studio")
                                       : tr("%1[*] - ACSeL Studio").arg(QFileInfo(f).fileName()));
        });
    connect(sessions_, &acsel::studio::SessionController::modifiedChanged, this,
            &QWidget::setWindowModified);
    // Opening or restoring a session sets the request without the panel's signals.
    connect(sessions_, &acsel::studio::SessionController::applied, this, [this] {
        updateFits();
        updateServingWarning();
    });
    buildMenus();
    wire();
    counts_ = new QLabel(this);
    statusBar()->addWidget(counts_, 1);
    editorCaveat_ = new QLabel(this);
    editorCaveat_->setObjectName(QStringLiteral("editorRmqdCaveat"));
    styleAsWarning(*editorCaveat_); // as the card's caveat
    editorCaveat_->hide();
    statusBar()->addPermanentWidget(editorCaveat_);
    statusBar()->addPermanentWidget(new SearchProgress(session_->searchRunner(), this));
    resize(1500, 950);
    if (!restoreSettings_)
        return;
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
}

MainWindow::~MainWindow()
{
    // Before the docks: the band editor's undo stack announces its last cleanChanged while it
    // is destroyed, and the controller would read the already destroyed request panel.
    delete sessions_;
}

void MainWindow::buildDocks()
{
    auto dock = [this](QWidget* w, const QString& title, const char* name,
                       Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(QLatin1String(name)); // for saveState()
        d->setWidget(w);
        addDockWidget(area, d);
        return d;
    };
    panel_ = new SloPanel(this);
    editor_ = new BandEditor(this);
    card_ = new RecipeCard(this);
    fits_ = new FitQualityPlot(this);
    compare_ = new CompareModel(this);
    compareView_ = new CompareTable(compare_, this);
    dock(panel_, tr("Request"), "request", Qt::LeftDockWidgetArea);
    QDockWidget* cardDock =
        dock(card_, tr("Recommendation"), "recommendation", Qt::RightDockWidgetArea);
    QDockWidget* fitDock = dock(fits_, tr("Surrogate fit"), "fit", Qt::RightDockWidgetArea);
    tabifyDockWidget(cardDock, fitDock);
    cardDock->raise();
    resizeDocks({cardDock}, {420}, Qt::Horizontal); // the card's tables have four columns
    QDockWidget* editDock = dock(editor_, tr("Band editor"), "bands", Qt::BottomDockWidgetArea);
    QDockWidget* cmpDock = dock(compareView_, tr("Compare"), "compare", Qt::BottomDockWidgetArea);
    splitDockWidget(editDock, cmpDock, Qt::Horizontal);
}

void MainWindow::wire()
{
    connect(panel_, &SloPanel::requestChanged, this, [this](const Request& r) {
        plot_->setBudgets(budgetsOf(r)); // light: re-classify and redraw on every move
        const bool otherRows =
            r.stack != session_->request().stack || r.mode != session_->request().mode;
        session_->setRequest(r);
        editor_->repredict();
        if (otherRows) {
            updateFits();
            updateServingWarning();
        }
    });
    connect(panel_, &SloPanel::requestSettled, session_,
            &acsel::studio::ExplorerSession::startSearch);
    connect(panel_, &SloPanel::filterChanged, session_, &acsel::studio::ExplorerSession::setFilter);
    connect(panel_, &SloPanel::algorithmChanged, session_,
            &acsel::studio::ExplorerSession::setAlgorithm);
    connect(session_, &acsel::studio::ExplorerSession::pointsReady, this,
            [this](auto points, double) { plot_->setPoints(std::move(points)); });
    connect(session_, &acsel::studio::ExplorerSession::searchFinished, this,
            &MainWindow::showOutcome);
    connect(session_, &acsel::studio::ExplorerSession::searchFailed, this,
            [this](const QString& m) { card_->showMessage(tr("The search failed: %1").arg(m)); });
    connect(plot_, &ParetoPlot::pointClicked, this, &MainWindow::selectPoint);
    connect(plot_, &ParetoPlot::rescored, this,
            [this](qint64, qint64, double ms) { rescoreMs_ = ms; });
    connect(plot_->customPlot(), &QCustomPlot::afterReplot, this, &MainWindow::updateStatus);
    connect(editor_, &BandEditor::configPredicted, this,
            [this](const Config& c, const std::optional<Prediction>& p) {
                plot_->setSelected(p ? std::optional(markOf(*p)) : std::nullopt);
                updateEditorCaveat(c);
            });
    connect(card_, &RecipeCard::pinRequested, this, &MainWindow::pinCurrentCard);
    connect(card_, &RecipeCard::exportRequested, this, &MainWindow::exportShown);
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
    return openWorkspace({workspaceFile, tablesDir, fmcFile}, tr("Cannot open workspace"), {});
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
    try {
        loaded = acsel::studio::loadEngine(workspaceFile.toStdString(), tablesDir.toStdString(),
                                           fmcFile.toStdString());
        const Workspace& ws = *loaded.workspace;
        if (check)
            check(ws);
        qualityMdape = acsel::studio::heldoutQualityMdape(*loaded.engine);
        const auto saved = acsel::studio::loadStudioSettings(QSettings());
        const std::string stack = acsel::studio::defaultStack(ws);
        filter = acsel::studio::defaultFilter(ws, stack);
        if (restoreSettings_ && saved.request && ws.findStack(saved.request->stack))
            r = *saved.request;
        else // the anchor prediction may load operator tables: a bad table fails here
            r = acsel::studio::defaultRequest(ws, loaded.hooks, filter, stack);
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
    session_->setWorkspace(ws_, loaded.hooks);
    editor_->setPredictor([this](const Config& c) {
        // A configuration kept from another stack (a new workspace, an opened session) may use
        // a format this stack has no costs for: said in the verdict, no point drawn (NaN).
        try {
            return *session_->predict(c);
        } catch (const std::exception& e) {
            const double nan = std::numeric_limits<double>::quiet_NaN();
            return Prediction{
                nan,   nan,
                nan,   nan,
                false, tr("not predicted: %1").arg(QString::fromStdString(e.what())).toStdString(),
                {},    {},
                {}};
        }
    });
    panel_->setWorkspace(*ws_);
    panel_->setRequest(r);
    if (!panel_->request().stack.empty())
        filter = acsel::studio::defaultFilter(*ws_, panel_->request().stack);
    panel_->setFilter(filter);
    session_->setRequest(panel_->request());
    plot_->setBudgets(budgetsOf(panel_->request()));
    session_->setFilter(panel_->filter());
    card_->showMessage(tr("Searching..."));
    qualityMdape_ = qualityMdape;
    updateFits();
    updateBanner();
    updateServingWarning();
    sessions_->updateModified();
    return true;
}

void MainWindow::showOutcome(const SearchOutcome& o)
{
    if (!o.best) {
        card_->showMessage(tr("No configuration meets this request: loosen a budget."));
        plot_->setRecommended(std::nullopt);
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
        acsel::studio::rmqdExtrapolationNote(*engine_, modelName(o.best->model).toStdString())};
    card_->setContent(c);
    plot_->setRecommended(markOf(o.bestPrediction));
    if (!sessions_->keepsRestoredEdit()) // a restored edit outlives the searches it started
        showInEditor(*o.best);
}

void MainWindow::selectPoint(std::uint32_t configId)
{
    const PointSet* set = plot_->pointSet();
    if (!set || configId >= set->configs.size() || !ws_)
        return;
    showInEditor(set->configs[configId]);
}

void MainWindow::showInEditor(const Config& c)
{
    const auto s = ws_ ? ws_->findStack(session_->request().stack) : std::nullopt;
    editor_->setConfig(c, modelName(c.model),
                       s ? ws_->stacks[static_cast<std::size_t>(*s)].formats
                         : std::vector<Format>{});
}

void MainWindow::pinCurrentCard()
{
    // Pins what the band editor shows (the recommendation, a clicked point or an edit).
    if (!editor_->prediction())
        return;
    const Config& c = editor_->config();
    compare_->pin(
        {card_->content() && card_->content()->config == c ? tr("Recommended") : tr("Edited"),
         modelName(c.model), c, *editor_->prediction()});
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
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    acsel::studio::saveStudioSettings(settings, {workspaceFile_, tablesDir_, panel_->request()});
    sessions_->writeAutosave(true); // the next start finds it clean: nothing to offer
    QMainWindow::closeEvent(e);
}
