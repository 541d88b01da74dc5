#include "app/common/paths.h"
#include "mainwindow.h"
#include "studiosettings.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSettings>
#include <QTimer>
#include <cstdio>

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
} // namespace

int main(int argc, char** argv)
{
    QElapsedTimer sinceStart;
    sinceStart.start();
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
    const QCommandLineOption demoOpt(
        QStringLiteral("demo"),
        QStringLiteral("Use the synthetic stand-in engine (roofline latency, made-up quality)."));
    parser.addOptions({workspaceOpt, tablesOpt, shotOpt, demoOpt});
    parser.process(app);

    const auto saved = acsel::studio::loadStudioSettings(QSettings());
    std::string wsArg = parser.value(workspaceOpt).toStdString();
    if (wsArg.empty() && !saved.workspaceFile.isEmpty() && QFileInfo::exists(saved.workspaceFile))
        wsArg = saved.workspaceFile.toStdString();
    MainWindow window(parser.isSet(demoOpt));
    const auto wsPath = acsel::app::resolveWorkspacePath(wsArg);
    const auto tables = acsel::app::resolveTablesDir(parser.value(tablesOpt).toStdString(),
                                                     saved.tablesDir.toStdString());
    window.openWorkspace(QString::fromStdString(wsPath), QString::fromStdString(tables.dir));
    window.show();
    if (parser.isSet(shotOpt))
        screenshotWhenIdle(window, parser.value(shotOpt), sinceStart);
    return QApplication::exec();
}
