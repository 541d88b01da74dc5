#include "app/common/paths.h"
#include "mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QScreen>
#include <QTimer>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("ACSeL"));
    QApplication::setOrganizationDomain(QStringLiteral("acsel.dev"));
    QApplication::setApplicationName(QStringLiteral("ACSeL Studio"));
    QApplication::setApplicationVersion(QStringLiteral(ACSEL_VERSION));

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
    parser.addOptions({workspaceOpt, tablesOpt, shotOpt});
    parser.process(app);

    MainWindow window;
    const auto wsPath = acsel::app::resolveWorkspacePath(parser.value(workspaceOpt).toStdString());
    const auto tables = acsel::app::resolveTablesDir(parser.value(tablesOpt).toStdString());
    window.openWorkspace(QString::fromStdString(wsPath), QString::fromStdString(tables.dir));
    window.show();
    if (parser.isSet(shotOpt)) {
        const QString file = parser.value(shotOpt);
        QTimer::singleShot(500, &window, [&window, file] {
            window.grab().save(file);
            QApplication::quit();
        });
    }
    return QApplication::exec();
}
