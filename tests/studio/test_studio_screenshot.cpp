// acsel-studio --screenshot --size 1280x720 (offscreen, spec-only stacks): the PNG has exactly
// the asked size, and the user's saved settings (last workspace, request) are left byte for
// byte as they were: a screenshot run neither reads nor writes them.
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

class TestStudioScreenshot : public QObject
{
    Q_OBJECT
private slots:
    void sizeHonouredAndSettingsUntouched()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString config = home.filePath(QStringLiteral("config"));
        QVERIFY(QDir().mkpath(config + QStringLiteral("/ACSeL")));
        const QString settingsFile = config + QStringLiteral("/ACSeL/ACSeL Studio.conf");
        const QByteArray settings = "[request]\nconcurrency=2\nisl=333\nmemory_gib=11.5\n"
                                    "mode=static\nosl=77\nstack=rtx_a6000/vllm\n"
                                    "tpot_ms=44\nttft_ms=555\n\n[workspace]\n"
                                    "file=/nowhere/workspace.json\ntables=\n";
        {
            QFile f(settingsFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(settings);
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("HOME"), home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), config);
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("ACSEL_TABLES"), home.filePath(QStringLiteral("no-tables")));
        const QString shot = home.filePath(QStringLiteral("shot.png"));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ACSEL_STUDIO_BIN),
                {QStringLiteral("--workspace"), QStringLiteral(ACSEL_DATASETS "/workspace.json"),
                 QStringLiteral("--screenshot"), shot, QStringLiteral("--size"),
                 QStringLiteral("1280x720")});
        QVERIFY(p.waitForFinished(150000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        const QImage img(shot);
        QVERIFY2(!img.isNull(), qPrintable(err));
        QCOMPARE(img.size(), QSize(1280, 720));
        QFile f(settingsFile);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), settings);

        // A malformed size is one clear line and exit 2.
        QProcess bad;
        bad.setProcessEnvironment(env);
        bad.start(QStringLiteral(ACSEL_STUDIO_BIN),
                  {QStringLiteral("--size"), QStringLiteral("big")});
        QVERIFY(bad.waitForFinished(30000));
        QCOMPARE(bad.exitCode(), 2);
        QVERIFY(QString::fromUtf8(bad.readAllStandardError()).contains(QStringLiteral("--size")));
    }

    void emptyAndMissingTablesFoldersRunSpecOnly_data()
    {
        QTest::addColumn<bool>("exists");
        QTest::addColumn<QString>("said");
        QTest::newRow("missing") << false << QStringLiteral("does not exist");
        QTest::newRow("empty") << true << QStringLiteral("holds no operator tables");
    }
    void emptyAndMissingTablesFoldersRunSpecOnly()
    {
        // One rule for a --tables folder that is missing and one without tables: the window
        // runs on the spec-only stacks and says so (stderr and the banner), not "Nothing is
        // loaded".
        QFETCH(bool, exists);
        QFETCH(QString, said);
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString tables = home.filePath(QStringLiteral("tables"));
        if (exists)
            QVERIFY(QDir().mkpath(tables + QStringLiteral("/empty_system")));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("HOME"), home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(ACSEL_STUDIO_BIN),
                {QStringLiteral("--workspace"), QStringLiteral(ACSEL_DATASETS "/workspace.json"),
                 QStringLiteral("--tables"), tables, QStringLiteral("--screenshot"),
                 home.filePath(QStringLiteral("shot.png")), QStringLiteral("--size"),
                 QStringLiteral("1280x720")});
        QVERIFY(p.waitForFinished(150000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(err));
        const QString note = QStringLiteral("The operator tables folder %1 (from --tables) %2: "
                                            "running on the spec-only stacks.")
                                 .arg(tables, said);
        QVERIFY2(err.contains(note), qPrintable(err));
    }
};

ACSEL_TEST_APPLESS_MAIN(TestStudioScreenshot)
#include "test_studio_screenshot.moc"
