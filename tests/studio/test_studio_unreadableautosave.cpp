// An autosave that cannot be read (truncated by a full disk, written by a newer build) is kept
// aside as autosave-unreadable.acsel-session and the start says so, instead of being silently
// overwritten by the next autosave.
#include "app/studio/mainwindow.h"
#include "app/studio/sessioncontroller.h"
#include "testmain.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <memory>

using acsel::studio::SessionController;

class TestStudioUnreadableAutosave : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // ~/.qttest: never the user's autosave
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio unreadable autosave test"));
    }

    void unreadableAutosaveIsKeptAside()
    {
        const QString autosave = SessionController::autosavePath();
        const QString kept = QFileInfo(autosave).absolutePath() +
                             QStringLiteral("/autosave-unreadable.acsel-session");
        QFile::remove(kept);
        QVERIFY(QFileInfo(autosave).absoluteDir().mkpath(QStringLiteral(".")));
        const QByteArray broken = "{\"schema_version\": 1, \"kind\": \"acsel-sess";
        {
            QFile f(autosave);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(broken);
        }
        QString why;
        bool unreadable = false;
        QVERIFY(!SessionController::uncleanAutosave(&why, &unreadable));
        QVERIFY(unreadable);
        QVERIFY(QFile::exists(autosave)); // a check alone moves nothing
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        const QString note = w.sessions()->startAutosave();
        QVERIFY2(note.contains(QStringLiteral("The autosave cannot be read")), qPrintable(note));
        QVERIFY2(note.contains(kept), qPrintable(note));
        QVERIFY(w.sessions()->autosaving());
        QFile k(kept);
        QVERIFY(k.open(QIODevice::ReadOnly));
        QCOMPARE(k.readAll(), broken);
        w.close();
        QFile::remove(kept);
        QFile::remove(autosave);
    }
};

ACSEL_TEST_MAIN(TestStudioUnreadableAutosave)
#include "test_studio_unreadableautosave.moc"
