// File > Open Recent: sessions saved or opened through the window are listed most recent first,
// at most eight, persisted in the settings; choosing one opens it; choosing one whose file is
// gone drops it with a status-bar message; "Clear Menu" empties the list.
#include "app/studio/mainwindow.h"
#include "app/studio/studiosettings.h"
#include "testmain.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>

using acsel::studio::kMaxRecentSessions;
using acsel::studio::recentSessions;

namespace
{

// The file actions of the menu as the user sees it (refilled when it is about to show).
QList<QAction*> fileActions(QMenu* menu)
{
    emit menu->aboutToShow();
    QList<QAction*> out;
    for (QAction* a : menu->actions())
        if (!a->data().toString().isEmpty())
            out << a;
    return out;
}

QAction* actionFor(QMenu* menu, const QString& file)
{
    for (QAction* a : fileActions(menu))
        if (a->data().toString() == file)
            return a;
    return nullptr;
}

QAction* actionNamed(QMenu* menu, const QString& text)
{
    emit menu->aboutToShow();
    for (QAction* a : menu->actions())
        if (a->text() == text)
            return a;
    return nullptr;
}

} // namespace

class TestStudioRecent : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // never the user's settings
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio recent test"));
        QSettings().clear();
    }

    void theSettingsKeepOrderCapAndNoDuplicates()
    {
        QSettings s;
        for (int i = 0; i < 10; ++i)
            acsel::studio::addRecentSession(s, QStringLiteral("/p/s%1.acsel-session").arg(i));
        acsel::studio::addRecentSession(s, QStringLiteral("/p/s5.acsel-session")); // again
        const QStringList got = recentSessions(QSettings());
        QCOMPARE(got,
                 (QStringList{"/p/s5.acsel-session", "/p/s9.acsel-session", "/p/s8.acsel-session",
                              "/p/s7.acsel-session", "/p/s6.acsel-session", "/p/s4.acsel-session",
                              "/p/s3.acsel-session", "/p/s2.acsel-session"}));
        acsel::studio::clearRecentSessions(s);
        QVERIFY(recentSessions(QSettings()).isEmpty());
    }

    void savedAndOpenedSessionsAreListedAndAGoneOneIsDropped()
    {
        QTemporaryDir tmp;
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        w.show();
        auto* menu = w.findChild<QMenu*>(QStringLiteral("recentSessions"));
        QVERIFY(menu);
        QVERIFY(fileActions(menu).isEmpty());
        QAction* none = actionNamed(menu, QStringLiteral("No recent sessions"));
        QVERIFY(none && !none->isEnabled());

        // Nine saves: the last eight are kept, newest first, in a settings object read afresh.
        QStringList saved;
        for (int i = 0; i < 9; ++i) {
            saved << tmp.filePath(QStringLiteral("s%1.acsel-session").arg(i));
            QString error;
            QVERIFY2(w.sessions()->saveTo(saved.back(), &error), qPrintable(error));
        }
        QStringList expected;
        for (int i = 8; i >= 1; --i)
            expected << saved[i];
        QCOMPARE(recentSessions(QSettings()), expected);
        QCOMPARE(fileActions(menu).size(), kMaxRecentSessions);
        QCOMPARE(fileActions(menu).front()->text(), QStringLiteral("&1 s8.acsel-session"));

        // Choosing s3 opens it and moves it to the front.
        QAction* s3 = actionFor(menu, saved[3]);
        QVERIFY(s3);
        s3->trigger();
        QTRY_COMPARE(w.sessions()->currentFile(), saved[3]);
        QCOMPARE(recentSessions(QSettings()).front(), saved[3]);
        QCOMPARE(recentSessions(QSettings()).size(), kMaxRecentSessions);

        // s5's file is deleted: choosing it drops it, says so, and opens nothing.
        QVERIFY(QFile::remove(saved[5]));
        QAction* s5 = actionFor(menu, saved[5]);
        QVERIFY(s5);
        s5->trigger();
        QTRY_VERIFY(!recentSessions(QSettings()).contains(saved[5]));
        QCOMPARE(recentSessions(QSettings()).size(), kMaxRecentSessions - 1);
        QVERIFY(!actionFor(menu, saved[5]));
        QVERIFY2(w.statusBar()->currentMessage().contains(QStringLiteral("no longer exists")),
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(w.statusBar()->currentMessage().contains(saved[5]));
        QCOMPARE(w.sessions()->currentFile(), saved[3]);

        // Clear Menu empties the list and the menu.
        QAction* clear = actionNamed(menu, QStringLiteral("Clear Menu"));
        QVERIFY(clear && clear->isEnabled());
        clear->trigger();
        QTRY_VERIFY(recentSessions(QSettings()).isEmpty());
        QVERIFY(fileActions(menu).isEmpty());
        QVERIFY(!actionNamed(menu, QStringLiteral("Clear Menu"))->isEnabled());
        w.close();
    }

    void cleanupTestCase() { QSettings().clear(); }
};

ACSEL_TEST_MAIN(TestStudioRecent)
#include "test_studio_recent.moc"
