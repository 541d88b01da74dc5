// Where the executables look for the default workspace: the order of the candidates, and the
// executable's own folder that makes an installed copy find its data. That the installed
// copy wins over the source tree is checked end to end by the package_install test
// (packaging/test_package_install.cmake), on the real unpacked .deb.
#include "app/common/paths.h"
#include "testmain.h"

#include <QCoreApplication>
#include <QDir>
#include <filesystem>

using namespace acsel::app;

class TestPaths : public QObject
{
    Q_OBJECT
private slots:
    void init() { qputenv("ACSEL_WORKSPACE", ""); }
    void executableDirIsThisTestsFolder();
    void installedDataDirIsBesideTheExecutable();
    void explicitPathWinsEvenIfMissing();
    void environmentBeatsDefaults();
    void buildTreeFallsBackToTheSourceDatasets();
};

void TestPaths::executableDirIsThisTestsFolder()
{
    QCOMPARE(QDir(QString::fromStdString(executableDir())).canonicalPath(),
             QDir(QCoreApplication::applicationDirPath()).canonicalPath());
}

void TestPaths::installedDataDirIsBesideTheExecutable()
{
    const QString expected =
        QDir(QCoreApplication::applicationDirPath()).canonicalPath() + "/../share/acsel-studio";
    QCOMPARE(QDir::cleanPath(QString::fromStdString(installedDataDir())),
             QDir::cleanPath(expected));
}

void TestPaths::explicitPathWinsEvenIfMissing()
{
    qputenv("ACSEL_WORKSPACE", "/elsewhere/ws.json");
    // A missing explicit file is the loader's error to report, not a reason to fall back.
    QCOMPARE(resolveWorkspacePath("/nonexistent/ws.json"), std::string("/nonexistent/ws.json"));
}

void TestPaths::environmentBeatsDefaults()
{
    qputenv("ACSEL_WORKSPACE", "/from/env.json");
    QCOMPARE(resolveWorkspacePath(""), std::string("/from/env.json"));
}

void TestPaths::buildTreeFallsBackToTheSourceDatasets()
{
    // The test binary lives in the build tree, with no share/ beside it.
    const std::filesystem::path got = resolveWorkspacePath("");
    QVERIFY(std::filesystem::equivalent(got, ACSEL_DATASETS "/workspace.json"));
}

ACSEL_TEST_GUILESS_MAIN(TestPaths)
#include "test_paths.moc"
