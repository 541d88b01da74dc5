// The window's menus and the actions that open dialogs: session files (the session logic is
// SessionController's) and the export.
#include "app/common/loadertable.h"
#include "filedialogs.h"
#include "guidetopics.h"
#include "guidewindow.h"
#include "mainwindow.h"
#include "recentsessionsmenu.h"
#include "sessionnotes.h"
#include "theme.h"
#include "undokeys.h"
#include "viewmodel/exportnote.h"
#include "widgets/bandeditor.h"
#include "widgets/bandstrip.h"
#include "widgets/comparemodel.h"
#include "widgets/comparetable.h"
#include "widgets/exportdialog.h"
#include "widgets/paretoplot.h"
#include "widgets/undoactions.h"

#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QUndoStack>
#include <functional>

using namespace acsel;
using namespace acsel::gui;
using acsel::studio::dialogFolder;
using acsel::studio::rememberFolder;
using acsel::studio::withFilterSuffix;

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    // The session is the document, so it has the standard Open/Save keys (docs/SESSIONS.md).
    file->addAction(tr("&Open session..."), QKeySequence::Open, this,
                    &MainWindow::openSessionDialog);
    recent_ = new acsel::studio::RecentSessionsMenu(
        file->addMenu(tr("Open &Recent")),
        [this](const QString& f) {
            if (sessions_->maybeSave())
                sessions_->open(f);
        },
        [this](const QString& m) { statusBar()->showMessage(m, 10000); }, this);
    connect(sessions_, &acsel::studio::SessionController::fileChanged, recent_,
            [this](const QString& f) {
                if (!f.isEmpty())
                    recent_->add(f);
            });
    file->addAction(tr("&Save session"), QKeySequence::Save, this, [this] { saveSession(false); });
    file->addAction(tr("Save session &as..."), this, [this] { saveSession(true); });
    file->addSeparator();
    // Opening a workspace, tables or calibration resets the request and filter: asked first,
    // like opening a session (Save / Discard / Cancel when modified).
    file->addAction(tr("Open &workspace..."), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
        if (!sessions_->maybeSave())
            return;
        QSettings settings;
        const QString f = QFileDialog::getOpenFileName(
            this, tr("Open workspace"), dialogFolder(settings), tr("Workspace (*.json)"));
        if (f.isEmpty())
            return;
        rememberFolder(settings, f);
        openWorkspace(f, tablesDir_, fmcFile_);
    });
    file->actions().constLast()->setObjectName(QStringLiteral("openWorkspaceAction"));
    file->addAction(tr("Open &tables folder..."), QKeySequence(tr("Ctrl+Alt+O")), this, [this] {
        if (!sessions_->maybeSave())
            return;
        QSettings settings;
        const QString d = QFileDialog::getExistingDirectory(this, tr("Operator tables folder"),
                                                            dialogFolder(settings));
        if (d.isEmpty())
            return;
        rememberFolder(settings, d, true);
        openWorkspace(workspaceFile_, d, fmcFile_);
    });
    file->addAction(tr("Open &FMC calibration..."), this, [this] {
        if (!sessions_->maybeSave())
            return;
        QSettings settings;
        const QString f = QFileDialog::getOpenFileName(
            this, tr("FMC coefficients"), dialogFolder(settings), tr("FMC coefficients (*.json)"));
        if (f.isEmpty())
            return;
        rememberFolder(settings, f);
        openWorkspace(workspaceFile_, tablesDir_, f);
    });
    file->addAction(tr("&Export..."), QKeySequence(tr("Ctrl+E")), this, &MainWindow::exportShown);
    file->actions().constLast()->setObjectName(QStringLiteral("exportAction"));
    file->addAction(tr("Save &plot as..."), QKeySequence(tr("Ctrl+Shift+S")), this, [this] {
        QSettings settings;
        QString filter;
        const QString f = withFilterSuffix(
            QFileDialog::getSaveFileName(this, tr("Save plot"),
                                         dialogFolder(settings) + QStringLiteral("/frontier.png"),
                                         tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"), &filter),
            filter);
        if (f.isEmpty())
            return;
        rememberFolder(settings, f);
        if (!plot_->saveImage(f))
            QMessageBox::warning(this, tr("Save plot"),
                                 tr("Could not write %1 (use .png, .svg or .pdf).").arg(f));
    });
    file->actions().constLast()->setObjectName(QStringLiteral("savePlotAction"));
    file->addAction(tr("Save &comparison as CSV..."), this, [this] {
        QSettings settings;
        QString filter;
        const QString f = withFilterSuffix(
            QFileDialog::getSaveFileName(this, tr("Save comparison"),
                                         dialogFolder(settings) + QStringLiteral("/compare.csv"),
                                         tr("CSV (*.csv)"), &filter),
            filter);
        if (f.isEmpty())
            return;
        rememberFolder(settings, f);
        QSaveFile out(f);
        if (!out.open(QIODevice::WriteOnly) || out.write(compare_->toCsv().toUtf8()) < 0 ||
            !out.commit())
            QMessageBox::warning(this, tr("Save comparison"), tr("Could not write %1.").arg(f));
    });
    file->actions().constLast()->setObjectName(QStringLiteral("saveCompareCsvAction"));
    connect(compareView_, &CompareTable::saveCsvRequested, file->actions().constLast(),
            &QAction::trigger);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = createUndoAction(editor_->strip()->undoStack(), this);
    QAction* redo = createRedoAction(editor_->strip()->undoStack(), this);
    undo->setObjectName(QStringLiteral("undoAction"));
    undo->setShortcuts(QKeySequence::Undo);
    // QKeySequence::Redo is Ctrl+Shift+Z on Linux; Ctrl+Y is what GUI.md promises everywhere.
    QList<QKeySequence> redoKeys = QKeySequence::keyBindings(QKeySequence::Redo);
    if (!redoKeys.contains(QKeySequence(tr("Ctrl+Y"))))
        redoKeys.append(QKeySequence(tr("Ctrl+Y")));
    redo->setShortcuts(redoKeys);
    redo->setObjectName(QStringLiteral("redoAction"));
    edit->addAction(undo);
    edit->addAction(redo);
    new acsel::studio::UndoKeys(this, undo, redo); // also while a spin box has focus
    edit->addAction(tr("&Pin the recommendation"), QKeySequence(tr("Ctrl+P")), this,
                    &MainWindow::pinCurrentCard)
        ->setObjectName(QStringLiteral("pinRecommendationAction"));
    edit->addAction(tr("Pin the &band editor's configuration"), QKeySequence(tr("Ctrl+Shift+P")),
                    this, &MainWindow::pinEditor)
        ->setObjectName(QStringLiteral("pinEditorAction"));
    edit->addAction(tr("&Clear pinned"), this, [this] { compare_->clear(); });
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Reset plot view"), QKeySequence(tr("Ctrl+0")), plot_,
                    &ParetoPlot::resetView);
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        view->addAction(d->toggleViewAction());
    view->addSeparator();
    buildThemeMenu(view->addMenu(tr("&Theme")));
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&User guide"), this, [this] { showGuide(QStringLiteral("GUIDE.md")); })
        ->setObjectName(QStringLiteral("guideAction"));
    // F1: the section about the part of the window with the focus (its dock's topic).
    help->addAction(tr("&Help on this part of the window"), QKeySequence::HelpContents, this,
                    [this] { showGuide(acsel::studio::topicOf(QApplication::focusWidget())); })
        ->setObjectName(QStringLiteral("contextHelpAction"));
    QMenu* terms = help->addMenu(tr("&Words explained"));
    for (const acsel::studio::GuideTopic& t : acsel::studio::termTopics())
        terms->addAction(t.question, this, [this, page = t.page] { showGuide(page); });
    help->addAction(tr("&Keyboard shortcuts"), this, &MainWindow::showShortcuts)
        ->setObjectName(QStringLiteral("shortcutsAction"));
    help->addSeparator();
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

void MainWindow::buildThemeMenu(QMenu* menu)
{
    using acsel::studio::Theme;
    systemPalette_ = QApplication::palette();
    auto* group = new QActionGroup(this);
    const QString names[] = {tr("&System"), tr("&Light"), tr("&Dark")};
    const Theme saved = restoreSettings_
                            ? acsel::studio::themeFromName(
                                  QSettings().value(QStringLiteral("view/theme")).toString())
                            : Theme::System;
    for (int i = 0; i < 3; ++i) {
        QAction* a = menu->addAction(names[i]);
        a->setObjectName(QStringLiteral("theme_") + QLatin1String(acsel::studio::kThemeNames[i]));
        a->setCheckable(true);
        a->setChecked(static_cast<Theme>(i) == saved);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, i] { setTheme(static_cast<Theme>(i)); });
    }
    if (saved != Theme::System)
        setTheme(saved);
}

void MainWindow::setTheme(acsel::studio::Theme theme)
{
    // Fusion draws every control from the palette; the platform style may not.
    if (theme != acsel::studio::Theme::System)
        QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setPalette(acsel::studio::paletteOf(theme, systemPalette_));
    if (restoreSettings_)
        QSettings().setValue(QStringLiteral("view/theme"),
                             QLatin1String(acsel::studio::kThemeNames[static_cast<int>(theme)]));
}

void MainWindow::showShortcuts()
{
    // Read from the menus themselves, so the list cannot drift from the keys.
    QString rows;
    const std::function<void(const QMenu*, const QString&)> walk = [&](const QMenu* m,
                                                                       const QString& path) {
        for (QAction* a : m->actions()) {
            const QString name = path + a->text().remove(QLatin1Char('&'));
            if (a->menu())
                walk(a->menu(), name + QStringLiteral(" > "));
            else if (!a->shortcuts().isEmpty()) {
                QStringList keys;
                for (const QKeySequence& k : a->shortcuts())
                    keys << k.toString(QKeySequence::NativeText);
                rows +=
                    QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>")
                        .arg(name.toHtmlEscaped(), keys.join(QStringLiteral(", ")).toHtmlEscaped());
            }
        }
    };
    for (QAction* a : menuBar()->actions())
        if (a->menu())
            walk(a->menu(), a->text().remove(QLatin1Char('&')) + QStringLiteral(" > "));
    rows += tr("<tr><td>Band editor: move the focused boundary</td><td><b>Left, Right</b></td></tr>"
               "<tr><td>Band editor: focus the previous or next boundary</td><td><b>Up, "
               "Down</b></td></tr><tr><td>Compare: unpin the selected row</td><td><b>Delete</b>"
               "</td></tr>");
    auto* box = new QMessageBox(QMessageBox::NoIcon, tr("Keyboard shortcuts"),
                                QStringLiteral("<table cellspacing=6>%1</table>").arg(rows),
                                QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("shortcutsBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showGuide(const QString& page)
{
    // The user guide beside the binary: in the build tree (build/<preset>/app/studio) or an
    // installed share/doc.
    const QString dir = QApplication::applicationDirPath();
    const QString candidates[] = {dir + QStringLiteral("/../../../../docs"),
                                  dir + QStringLiteral("/../share/doc/acsel")};
    for (const QString& c : candidates) {
        if (!QFileInfo(c + QStringLiteral("/GUIDE.md")).isReadable())
            continue;
        auto* guide = new acsel::studio::GuideWindow(c + QLatin1Char('/') + page);
        guide->setObjectName(QStringLiteral("guideWindow"));
        guide->setAttribute(Qt::WA_DeleteOnClose);
        guide->show();
        return;
    }
    QMessageBox::information(this, tr("User guide"),
                             tr("docs/GUIDE.md was not found next to the program (looked in "
                                "%1). It is in the source tree's docs folder.")
                                 .arg(QFileInfo(candidates[0]).absoluteFilePath()));
}

void MainWindow::saveSession(bool askForFile)
{
    QString file = sessions_->currentFile();
    if (askForFile || file.isEmpty()) {
        QSettings settings;
        const QString start =
            file.isEmpty() ? dialogFolder(settings) + QStringLiteral("/session.acsel-session")
                           : file;
        file = QFileDialog::getSaveFileName(this, tr("Save session"), start,
                                            tr("ACSeL session (*.acsel-session)"));
        if (file.isEmpty())
            return;
        rememberFolder(settings, file);
        if (!file.endsWith(QStringLiteral(".acsel-session")))
            file += QStringLiteral(".acsel-session");
    }
    QString error;
    if (!sessions_->saveTo(file, &error))
        QMessageBox::warning(this, tr("Save session"), error);
}

void MainWindow::openSessionDialog()
{
    if (!sessions_->maybeSave())
        return;
    QSettings settings;
    const QString f = QFileDialog::getOpenFileName(this, tr("Open session"), dialogFolder(settings),
                                                   tr("ACSeL session (*.acsel-session)"));
    if (f.isEmpty())
        return;
    rememberFolder(settings, f);
    sessions_->open(f);
}

void MainWindow::exportShown()
{
    // Exports what the band editor shows (the recommendation, a clicked point or an edit).
    if (!ws_ || !editor_->prediction()) {
        QMessageBox::information(this, tr("Export"), tr("Select a configuration first."));
        return;
    }
    exportConfig(editor_->config(), *editor_->prediction());
}

void MainWindow::exportConfig(const Config& c, const PredictionView& p)
{
    const Request& q = state_->request();
    // A configuration the gate rejected is exported only when asked for, and says so in the
    // file's header.
    if (!p.admitted &&
        QMessageBox::question(
            this, tr("Export a rejected configuration?"),
            tr("The gate rejected this configuration: %1.\n\nExport it anyway? The exported "
               "file's header will say that it was rejected.")
                .arg(QString::fromStdString(p.verdict)),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel) != QMessageBox::Yes)
        return;
    // Where the latencies come from first, as acsel search's documents say it.
    const std::string caveats =
        acsel::studio::predictionsNote(*engine_, modelName(c.model).toStdString());
    const std::string note =
        exportNote(p, engine_->provenance(q.stack) + (caveats.empty() ? "" : "; " + caveats));
    const auto s = ws_->findStack(q.stack);
    ExportDialog dialog({ws_->models[static_cast<std::size_t>(c.model)], c, q,
                         static_cast<const Prediction&>(p), note},
                        s ? std::optional(ws_->stacks[static_cast<std::size_t>(*s)]) : std::nullopt,
                        this);
    // The load check acsel launch runs, for the stack's engine at its template release.
    if (const auto engine = parseBackend(backendOf(q.stack)); engine && s) {
        try {
            const LoaderTable loaders = acsel::app::shippedLoaderTable(*ws_);
            if (!loaders.entries.empty()) {
                QStringList lines;
                const ExportInput in{ws_->models[static_cast<std::size_t>(c.model)], c, q,
                                     static_cast<const Prediction&>(p), note};
                for (const std::string& line : acsel::app::loadCheckLines(
                         checkLoad(loaders, *engine, info(*engine).templateVersion, in,
                                   ws_->platformOf(ws_->stacks[static_cast<std::size_t>(*s)])),
                         *engine))
                    lines << QString::fromStdString(line);
                const auto qs = [](std::string_view v) {
                    return QString::fromUtf8(v.data(), static_cast<qsizetype>(v.size()));
                };
                if (!lines.isEmpty())
                    dialog.setLoadWarning(tr("Load check for %1 %2: %3")
                                              .arg(qs(toString(*engine)),
                                                   qs(info(*engine).templateVersion),
                                                   lines.join(QStringLiteral("; "))));
            }
        } catch (const std::exception& e) { // an unreadable table: said, the export goes on
            dialog.setLoadWarning(tr("Load check not run: %1").arg(QString::fromUtf8(e.what())));
        }
    }
    dialog.exec();
}
