#include "app/common/paths.h"
#include "core/data/tablesdir.h"
#include "explorersession.h"
#include "mainwindow.h"
#include "sessioncontroller.h"
#include "startupprofile.h"
#include "studiosettings.h"
#include "widgets/paretoplot.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSettings>
#include <QSize>
#include <QTimer>
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <qcustomplot.h>
#include <string_view>

namespace
{
// --screenshot: wait until the scoring and the search are done (at most 15 s), then grab.
// Prints when that was (polled every 20 ms, so an upper bound) as a cold-start measurement.
void screenshotWhenIdle(MainWindow& window, const QString& file, const QElapsedTimer& sinceStart)
{
    auto* timer = new QTimer(&window);
    auto waited = std::make_shared<int>(0);
    QObject::connect(timer, &QTimer::timeout, &window, [&window, file, timer, waited, &sinceStart] {
        *waited += 20;
        if (window.isBusy() && *waited < 15000)
            return;
        timer->stop();
        std::fprintf(stderr, "frontier and recommendation ready %lld ms after start\n",
                     static_cast<long long>(sinceStart.elapsed()));
        QTimer::singleShot(300, &window, [&window, file] {
            window.grab().save(file);
            QApplication::quit();
        });
    });
    timer->start(20);
}

int restoreCheck()
{
    QString whyNot;
    const auto doc = acsel::studio::SessionController::uncleanAutosave(&whyNot);
    if (!doc) {
        std::fprintf(stderr, "%s\n", qPrintable(whyNot));
        return 1;
    }
    const std::string path = acsel::studio::SessionController::autosavePath().toStdString();
    std::fputs(acsel::writeSessionJson(*doc, path, acsel::SessionPaths::Absolute).c_str(), stdout);
    return 0;
}

// --startup-profile: marks each replot that draws a newly scored point set (the uniform
// configurations first, then the complete set) with its frontier.
void markFrontiers(MainWindow& window)
{
    auto* plot = window.findChild<acsel::gui::ParetoPlot*>();
    if (!plot)
        return;
    auto drawn = std::make_shared<const acsel::gui::PointSet*>(nullptr);
    QObject::connect(plot->customPlot(), &QCustomPlot::afterReplot, plot, [plot, drawn] {
        const acsel::gui::PointSet* set = plot->pointSet();
        if (!set || set->points.empty() || set == *drawn)
            return;
        *drawn = set;
        acsel::studio::startupMark("frontier drawn: " + std::to_string(set->points.size()) +
                                   " points, " + std::to_string(plot->scored().frontier.size()) +
                                   " on the frontier");
    });
}
} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    // --restore-check, --help and --version open no window, so they also run without a display
    // (the default platform would abort when it finds none).
    constexpr std::string_view kNoWindow[] = {"--restore-check", "--help",    "-h", "-?",
                                              "--help-all",      "--version", "-v"};
    for (int i = 1; i < argc; ++i)
        if (std::find(std::begin(kNoWindow), std::end(kNoWindow), argv[i]) != std::end(kNoWindow) &&
            qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ACSeL"));
    QApplication::setOrganizationDomain(QStringLiteral("acsel.dev"));
    QApplication::setApplicationName(QStringLiteral("ACSeL Studio"));
    QApplication::setApplicationVersion(QStringLiteral(ACSEL_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("dev.acsel.Studio"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Design-space explorer for LLM deployment"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption workspaceOpt(
        QStringLiteral("workspace"), QStringLiteral("Workspace JSON."), QStringLiteral("file"));
    const QCommandLineOption tablesOpt(QStringLiteral("tables"),
                                       QStringLiteral("Operator tables directory."),
                                       QStringLiteral("dir"));
    const QCommandLineOption shotOpt(QStringLiteral("screenshot"),
                                     QStringLiteral("Save a PNG of the window and quit."),
                                     QStringLiteral("file"));
    const QCommandLineOption restoreCheckOpt(
        QStringLiteral("restore-check"),
        QStringLiteral("Print the session a start would offer to restore (exit 0), or why there "
                       "is none (exit 1), and quit. Opens no window."));
    const QCommandLineOption profileOpt(
        QStringLiteral("startup-profile"),
        QStringLiteral("Print the time of each start-up stage since start on stderr."));
    const QCommandLineOption sizeOpt(
        QStringLiteral("size"),
        QStringLiteral("Window size WxH in pixels, e.g. 1280x720 (default: fits the screen)."),
        QStringLiteral("WxH"));
    parser.addOptions({workspaceOpt, tablesOpt, shotOpt, sizeOpt, restoreCheckOpt, profileOpt});
    parser.addPositionalArgument(QStringLiteral("session"),
                                 QStringLiteral("An .acsel-session file to open."),
                                 QStringLiteral("[session]"));
    parser.process(app);
    if (parser.isSet(restoreCheckOpt))
        return restoreCheck();
    if (parser.positionalArguments().size() > 1) {
        std::fprintf(stderr, "acsel-studio: expected at most one session file\n");
        return 2;
    }
    QSize size;
    if (parser.isSet(sizeOpt)) {
        const QStringList wh = parser.value(sizeOpt).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || size.width() < 200 || size.height() < 200 || size.width() > 16384 ||
            size.height() > 16384) {
            std::fprintf(stderr,
                         "acsel-studio: --size: expected WxH in pixels (200-16384), got '%s'\n",
                         qPrintable(parser.value(sizeOpt)));
            return 2;
        }
    }
    if (parser.isSet(profileOpt))
        acsel::studio::setStartupClock(&sinceStart);
    acsel::studio::startupMark("Qt application up");

    // A screenshot shows the defaults, not whatever the last session left in the settings.
    const bool restore = !parser.isSet(shotOpt);
    const auto saved =
        restore ? acsel::studio::loadStudioSettings(QSettings()) : acsel::studio::StudioSettings{};
    std::string wsArg = parser.value(workspaceOpt).toStdString();
    if (wsArg.empty() && !saved.workspaceFile.isEmpty() && QFileInfo::exists(saved.workspaceFile))
        wsArg = saved.workspaceFile.toStdString();
    MainWindow window(restore);
    acsel::studio::startupMark("window constructed");
    if (parser.isSet(profileOpt))
        markFrontiers(window);
    const auto wsPath = acsel::app::resolveWorkspacePath(wsArg);
    const auto tables = acsel::app::resolveTablesDir(parser.value(tablesOpt).toStdString(),
                                                     saved.tablesDir.toStdString());
    QString tablesDir = QString::fromStdString(tables.dir);
    // One rule for a missing folder and one without tables (an empty one): said on stderr
    // and in the banner, the window then runs on the spec-only stacks.
    const bool missing = !tablesDir.isEmpty() && !QFileInfo(tablesDir).isDir();
    bool noTables = false;
    if (!tablesDir.isEmpty() && !missing) {
        try {
            noTables = !acsel::holdsStacks(tables.dir);
        } catch (const std::exception&) {
            noTables = false; // unreadable: opening the workspace says why
        }
    }
    if (missing || noTables) {
        const QString note =
            QStringLiteral("The operator tables folder %1 (from %2) %3: running on the "
                           "spec-only stacks.")
                .arg(tablesDir, QString::fromStdString(tables.origin),
                     missing ? QStringLiteral("does not exist")
                             : QStringLiteral("holds no operator tables"));
        std::fprintf(stderr, "%s\n", qPrintable(note));
        window.setStartupNote(note);
        tablesDir.clear();
    } else if (!tablesDir.isEmpty()) {
        // The default is named as such, not by this machine's absolute path.
        window.setStartupNote(
            tables.origin.starts_with("default")
                ? QStringLiteral("Operator tables from ../shared/aic (the default).")
                : QStringLiteral("Operator tables from %1 (%2).")
                      .arg(tablesDir, QString::fromStdString(tables.origin)));
    }
    // A session given on the command line replaces the default workspace; if it cannot be
    // opened, its dialog is shown over the default workspace.
    const QString sessionFile = parser.positionalArguments().value(0);
    if (sessionFile.isEmpty() || !window.sessions()->open(sessionFile))
        window.openWorkspace(QString::fromStdString(wsPath), tablesDir);
    acsel::studio::startupMark("workspace opened, scoring and search started");
    if (size.isValid())
        window.resize(size);
    window.show();
    // A screenshot run neither reads nor writes the autosave (it would overwrite a crashed one).
    if (restore) {
        const QString note = window.sessions()->startAutosave();
        if (!note.isEmpty())
            std::fprintf(stderr, "%s\n", qPrintable(note));
    }
    if (parser.isSet(shotOpt))
        screenshotWhenIdle(window, parser.value(shotOpt), sinceStart);
    return QApplication::exec();
}
