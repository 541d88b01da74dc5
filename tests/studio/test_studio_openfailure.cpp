// A workspace that cannot be opened at start leaves an empty window: the error box says why, and
// the banner keeps saying it (and what to do) once the box is gone. A later good workspace
// replaces the banner.
#include "app/studio/mainwindow.h"
#include "testmain.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>

class TestStudioOpenFailure : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio open failure test"));
    }

    void bannerSaysWhyNothingIsLoaded()
    {
        QTemporaryDir dir;
        const QString missing = dir.filePath(QStringLiteral("no_such_workspace.json"));
        MainWindow w(false);
        QVERIFY(!w.openWorkspace(missing, QString()));
        w.show();
        auto* box = w.findChild<QMessageBox*>();
        QVERIFY(box);
        QVERIFY2(box->text().contains(missing), qPrintable(box->text()));
        box->close(); // deletes itself
        auto* banner = w.findChild<QLabel*>(QStringLiteral("banner"));
        QVERIFY(banner && banner->isVisible());
        QVERIFY2(banner->text().startsWith(QStringLiteral("Cannot open workspace: ") + missing),
                 qPrintable(banner->text()));
        QVERIFY(
            banner->text().contains(QStringLiteral("Nothing is loaded. File > Open workspace")));

        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        QVERIFY2(!banner->text().contains(QStringLiteral("Nothing is loaded")),
                 qPrintable(banner->text()));
    }

    void theTitleNamesWhatWasOpened()
    {
        // File > Open tables folder and Open FMC calibration keep the workspace: a failure
        // there is the folder's or the file's, not the workspace's.
        QTemporaryDir dir;
        const QString ws = QStringLiteral(ACSEL_DATASETS "/workspace.json");
        MainWindow w(false);
        QVERIFY(w.openWorkspace(ws, QString()));
        auto title = [&w] {
            auto* box = w.findChild<QMessageBox*>();
            const QString t = box ? box->windowTitle() : QString();
            delete box;
            return t;
        };
        const QString empty = dir.filePath(QStringLiteral("tables"));
        QVERIFY(QDir().mkdir(empty)); // no operator tables in it
        QVERIFY(!w.openWorkspace(ws, empty));
        QCOMPARE(title(), QStringLiteral("Cannot open tables folder"));
        QFile fmc(dir.filePath(QStringLiteral("fmc.json")));
        QVERIFY(fmc.open(QIODevice::WriteOnly));
        fmc.write("{\"not\": \"coefficients\"}");
        fmc.close();
        QVERIFY(!w.openWorkspace(ws, QString(), fmc.fileName()));
        QCOMPARE(title(), QStringLiteral("Cannot open FMC calibration"));
        QVERIFY(!w.openWorkspace(dir.filePath(QStringLiteral("none.json")), QString()));
        QCOMPARE(title(), QStringLiteral("Cannot open workspace"));
    }
};

ACSEL_TEST_MAIN(TestStudioOpenFailure)
#include "test_studio_openfailure.moc"
