#include "mainwindow.h"

#include "core/data/loaderror.h"
#include "core/data/workspacefile.h"
#include "studiosettings.h"
#include "widgets/bandeditor.h"
#include "widgets/bandstrip.h"
#include "widgets/comparemodel.h"
#include "widgets/comparetable.h"
#include "widgets/exportdialog.h"
#include "widgets/fitqualityplot.h"
#include "widgets/paretoplot.h"
#include "widgets/predictiontext.h"
#include "widgets/recipecard.h"
#include "widgets/searchprogress.h"
#include "widgets/slopanel.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>
#include <QVBoxLayout>
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
    banner_->setWordWrap(true);
    banner_->setAutoFillBackground(true);
    banner_->setMargin(6);
    plot_ = new ParetoPlot(central);
    layout->addWidget(banner_);
    layout->addWidget(plot_, 1);
    setCentralWidget(central);
    buildDocks();
    buildMenus();
    wire();
    counts_ = new QLabel(this);
    statusBar()->addWidget(counts_, 1);
    statusBar()->addPermanentWidget(new SearchProgress(session_->searchRunner(), this));
    resize(1500, 950);
    if (!restoreSettings_)
        return;
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
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

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open workspace..."), QKeySequence::Open, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("Open workspace"), workspaceFile_,
                                                       tr("Workspace (*.json)"));
        if (!f.isEmpty())
            openWorkspace(f, tablesDir_, fmcFile_);
    });
    file->addAction(tr("Open &tables folder..."), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
        const QString d =
            QFileDialog::getExistingDirectory(this, tr("Operator tables folder"), tablesDir_);
        if (!d.isEmpty())
            openWorkspace(workspaceFile_, d, fmcFile_);
    });
    file->addAction(tr("Open &FMC calibration..."), this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("FMC coefficients"), fmcFile_,
                                                       tr("FMC coefficients (*.json)"));
        if (!f.isEmpty())
            openWorkspace(workspaceFile_, tablesDir_, f);
    });
    file->addAction(tr("&Export..."), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportShown);
    file->addAction(tr("&Save plot as..."), QKeySequence::Save, this, [this] {
        const QString f =
            QFileDialog::getSaveFileName(this, tr("Save plot"), QStringLiteral("frontier.png"),
                                         tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"));
        if (!f.isEmpty() && !plot_->saveImage(f))
            QMessageBox::warning(this, tr("Save plot"),
                                 tr("Could not write %1 (use .png, .svg or .pdf).").arg(f));
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = editor_->strip()->undoStack()->createUndoAction(this, tr("&Undo band edit"));
    QAction* redo = editor_->strip()->undoStack()->createRedoAction(this, tr("&Redo band edit"));
    undo->setShortcuts(QKeySequence::Undo);
    redo->setShortcuts(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addAction(tr("&Pin the shown recommendation"), QKeySequence(tr("Ctrl+P")), this,
                    &MainWindow::pinCurrentCard);
    edit->addAction(tr("&Clear pinned"), this, [this] { compare_->clear(); });
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Reset plot view"), QKeySequence(tr("Ctrl+0")), plot_,
                    &ParetoPlot::resetView);
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About ACSeL Studio"), this, [this] {
        QMessageBox::about(
            this, tr("About ACSeL Studio"),
            tr("<b>ACSeL Studio %1</b><p>Design-space explorer for deploying LLMs on memory- and "
               "latency-constrained GPUs (the ACSeL method).</p><p>Licence: GPL-3.0-or-later. "
               "Plots use QCustomPlot (Emanuel Eichhammer), licensed GPL-3.0; operator tables "
               "come from AIConfigurator (Apache-2.0).</p>")
                .arg(QApplication::applicationVersion()));
    });
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::wire()
{
    connect(panel_, &SloPanel::requestChanged, this, [this](const Request& r) {
        plot_->setBudgets(budgetsOf(r)); // light: re-classify and redraw on every move
        session_->setRequest(r);
        editor_->repredict();
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
            [this](const Config&, const std::optional<Prediction>& p) {
                plot_->setSelected(p ? std::optional(markOf(*p)) : std::nullopt);
            });
    connect(card_, &RecipeCard::pinRequested, this, &MainWindow::pinCurrentCard);
    connect(card_, &RecipeCard::exportRequested, this, &MainWindow::exportShown);
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
    acsel::studio::LoadedEngine loaded;
    Request r;
    SpaceFilter filter;
    std::optional<double> qualityMdape;
    try {
        loaded = acsel::studio::loadEngine(workspaceFile.toStdString(), tablesDir.toStdString(),
                                           fmcFile.toStdString());
        const Workspace& ws = *loaded.workspace;
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
        auto* box = new QMessageBox(QMessageBox::Critical, tr("Cannot open workspace"),
                                    QString::fromStdString(e.what()), QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        qWarning("Cannot open workspace: %s", e.what());
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
    editor_->setPredictor([this](const Config& c) { return *session_->predict(c); });
    panel_->setWorkspace(*ws_);
    panel_->setRequest(r);
    if (!panel_->request().stack.empty())
        filter = acsel::studio::defaultFilter(*ws_, panel_->request().stack);
    panel_->setFilter(filter);
    session_->setRequest(panel_->request());
    plot_->setBudgets(budgetsOf(panel_->request()));
    session_->setFilter(panel_->filter());
    card_->showMessage(tr("Searching..."));
    const auto measured = acsel::studio::stackFits(*engine_, panel_->request());
    fits_->setFits(
        measured.series, qualityMdape,
        tr("Latency: %1. Quality: %2. %3")
            .arg(QString::fromStdString(engine_->calibrationSource(panel_->request().stack)),
                 QString::fromStdString(engine_->surrogateSource()),
                 QString::fromStdString(measured.note)));
    updateBanner();
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
        o.stats};
    card_->setContent(c);
    plot_->setRecommended(markOf(o.bestPrediction));
    const Stack* s = ws_ ? &ws_->stacks[static_cast<std::size_t>(
                               ws_->findStack(session_->request().stack).value_or(0))]
                         : nullptr;
    editor_->setConfig(*o.best, c.modelName, s ? s->formats : std::vector<Format>{});
}

void MainWindow::selectPoint(std::uint32_t configId)
{
    const PointSet* set = plot_->pointSet();
    if (!set || configId >= set->configs.size() || !ws_)
        return;
    const Config& c = set->configs[configId];
    const auto s = ws_->findStack(session_->request().stack);
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

void MainWindow::exportShown()
{
    // Exports what the band editor shows (the recommendation, a clicked point or an edit).
    if (!ws_ || !editor_->prediction()) {
        QMessageBox::information(this, tr("Export"), tr("Select a configuration first."));
        return;
    }
    const Config& c = editor_->config();
    const Request& q = session_->request();
    const Prediction& p = *editor_->prediction();
    Predictions numbers{p.ttftMs, p.tpotMs, p.memoryGiB, p.rmqd, {}};
    if (ws_->qualitySynthetic)
        numbers.note = "RMQD from the surrogate fitted on synthetic quality data";
    const auto s = ws_->findStack(q.stack);
    ExportDialog dialog({ws_->models[static_cast<std::size_t>(c.model)], c, q, numbers},
                        s ? std::optional(ws_->stacks[static_cast<std::size_t>(*s)]) : std::nullopt,
                        this);
    dialog.exec();
}

QString MainWindow::modelName(int model) const
{
    return ws_ && model >= 0 && static_cast<std::size_t>(model) < ws_->models.size()
               ? QString::fromStdString(ws_->models[static_cast<std::size_t>(model)].name)
               : QString();
}

void MainWindow::updateBanner()
{
    QStringList lines = acsel::studio::bannerLines(*ws_, session_->hooks(), !fmcFile_.isEmpty());
    if (!startupNote_.isEmpty())
        lines.append(startupNote_);
    // Long notes (stack lists) are cut to keep the plot large; the tooltip has them whole.
    constexpr qsizetype kMaxChars = 170;
    QStringList shown;
    for (const QString& l : lines)
        shown << (l.size() <= kMaxChars
                      ? l
                      : l.left(l.lastIndexOf(QLatin1Char(' '), kMaxChars)) + tr(" ... (hover)"));
    banner_->setText(shown.join(QLatin1Char('\n')));
    banner_->setToolTip(lines.join(QStringLiteral("\n\n")));
    banner_->setVisible(!lines.isEmpty());
    QPalette pal = banner_->palette();
    pal.setColor(QPalette::Window, pal.color(QPalette::ToolTipBase));
    pal.setColor(QPalette::WindowText, pal.color(QPalette::ToolTipText));
    banner_->setPalette(pal);
}

void MainWindow::updateStatus()
{
    const ScoredView& v = plot_->scored();
    counts_->setText(tr("%1 configurations scored, %2 feasible, %3 on the frontier · re-score %4 "
                        "ms, replot %5 ms")
                         .arg(v.x.size())
                         .arg(v.feasibleCount)
                         .arg(v.frontier.size())
                         .arg(rescoreMs_, 0, 'f', 1)
                         .arg(plot_->customPlot()->replotTime(), 0, 'f', 1));
}

bool MainWindow::isBusy() const
{
    return session_->isScoring() || session_->searchRunner()->isRunning();
}

void MainWindow::closeEvent(QCloseEvent* e)
{
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    acsel::studio::saveStudioSettings(settings, {workspaceFile_, tablesDir_, panel_->request()});
    QMainWindow::closeEvent(e);
}
