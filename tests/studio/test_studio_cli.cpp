// acsel-studio --help and --version open no window: they answer without a display (no
// DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM), where the default platform plugin would abort.
#include "testmain.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace
{

struct Result {
    int code = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out, err;
};

Result runHeadless(const QStringList& args)
{
    QTemporaryDir home;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char* var : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        env.remove(QString::fromLatin1(var));
    env.insert(QStringLiteral("HOME"), home.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/config"));
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ACSEL_STUDIO_BIN), args);
    Result r;
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitCode();
    r.status = p.exitStatus();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace

class TestStudioCli : public QObject
{
    Q_OBJECT
private slots:
    void helpWithoutDisplay_data();
    void helpWithoutDisplay();
    void versionWithoutDisplay_data();
    void versionWithoutDisplay();
};

void TestStudioCli::helpWithoutDisplay_data()
{
    QTest::addColumn<QString>("option");
    QTest::newRow("--help") << "--help";
    QTest::newRow("-h") << "-h";
}

void TestStudioCli::helpWithoutDisplay()
{
    QFETCH(QString, option);
    const Result r = runHeadless({option});
    QVERIFY2(r.status == QProcess::NormalExit, qPrintable(r.err));
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains(QStringLiteral("--workspace <file>")), qPrintable(r.out + r.err));
    QVERIFY(r.out.contains(QStringLiteral("--restore-check")));
    QVERIFY2(!r.err.contains(QStringLiteral("display")), qPrintable(r.err));
}

void TestStudioCli::versionWithoutDisplay_data()
{
    QTest::addColumn<QString>("option");
    QTest::newRow("--version") << "--version";
    QTest::newRow("-v") << "-v";
}

void TestStudioCli::versionWithoutDisplay()
{
    QFETCH(QString, option);
    const Result r = runHeadless({option});
    QVERIFY2(r.status == QProcess::NormalExit, qPrintable(r.err));
    QCOMPARE(r.code, 0);
    QVERIFY2(QRegularExpression(QStringLiteral("^ACSeL Studio \\d+\\.\\d+\\.\\d+\\s*$"))
                 .match(r.out)
                 .hasMatch(),
             qPrintable(r.out + r.err));
}

ACSEL_TEST_APPLESS_MAIN(TestStudioCli)
#include "test_studio_cli.moc"
