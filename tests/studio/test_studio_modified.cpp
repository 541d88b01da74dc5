// The window title's '*' (QWidget::isWindowModified) follows the session file: set by a band
// edit, a pin, another request, filter or algorithm; cleared by Save and Open, and by undoing or
// reverting back to what was saved (the band editor's undo stack is marked clean on save); a
// workspace opened under the same file is compared with it too.
#include "app/studio/mainwindow.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "widgets/bandeditor.h"
#include "widgets/bandstrip.h"
#include "widgets/comparemodel.h"
#include "widgets/slopanel.h"

#include <QApplication>
#include <QComboBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace acsel;
using namespace acsel::gui;
using namespace acsel::studio::test;

class TestStudioModified : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio modified test"));
    }

    void theTitleMarkerFollowsSaves()
    {
        QTemporaryDir tmp;
        MainWindow w(false);
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        w.show();
        auto* ed = w.findChild<BandEditor*>();
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy() && ed->prediction(), kSlowMs);
        QUndoStack* undo = ed->strip()->undoStack();

        // No file yet: nothing to be modified against.
        ed->strip()->edit(nudged(ed->config().recipe), QStringLiteral("edit"));
        QVERIFY(!w.isWindowModified());
        // The placeholder is there from the start ("ACSeL Studio" shown): a restore may mark the
        // window modified before its title names a file.
        QCOMPARE(w.windowTitle(), QStringLiteral("ACSeL Studio[*]"));

        const QString file = tmp.filePath(QStringLiteral("m.acsel-session"));
        QString error;
        QVERIFY2(w.sessions()->saveTo(file, &error), qPrintable(error));
        QCOMPARE(w.windowTitle(), QStringLiteral("m.acsel-session[*] - ACSeL Studio"));
        QVERIFY(!w.isWindowModified());

        // A band edit after the save, undone and redone; undoing past the save point.
        const BandRecipe atSave = ed->config().recipe;
        ed->strip()->edit(nudged(atSave), QStringLiteral("edit"));
        QVERIFY(w.isWindowModified());
        undo->undo();
        QVERIFY(ed->config().recipe == atSave);
        QVERIFY(!w.isWindowModified());
        undo->redo();
        QVERIFY(w.isWindowModified());
        QVERIFY(w.sessions()->saveTo(file, &error));
        QVERIFY(!w.isWindowModified());
        undo->undo(); // back to the recipe of the first save: differs from the file now
        QVERIFY(w.isWindowModified());
        undo->redo();
        QVERIFY(!w.isWindowModified());

        // A pin, then unpinning it.
        auto* compare = w.findChild<CompareModel*>();
        compare->pin(
            {QStringLiteral("Edited"), QStringLiteral("m"), ed->config(), *ed->prediction()});
        QVERIFY(w.isWindowModified());
        compare->clear();
        QVERIFY(!w.isWindowModified());

        // The serving mode, as the user picks it, and back.
        auto* panel = w.findChild<SloPanel*>();
        auto* mode = panel->findChild<QComboBox*>(QStringLiteral("servingMode"));
        QVERIFY(mode);
        const int before = mode->currentIndex();
        mode->setCurrentIndex(1 - before);
        QVERIFY(w.isWindowModified());
        mode->setCurrentIndex(before);
        QVERIFY(!w.isWindowModified());

        // Opening the file: what it holds is shown, nothing modified.
        mode->setCurrentIndex(1 - before);
        QVERIFY(w.isWindowModified());
        QVERIFY(w.sessions()->open(file));
        QVERIFY(!w.isWindowModified());
        QCOMPARE(mode->currentIndex(), before);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isBusy(), kSlowMs); // the search it starts changes nothing
        QTest::qWait(200);
        QVERIFY(!w.isWindowModified());

        // Opening the workspace again (File > Open workspace) keeps the file but sets the
        // default request silently: another serving mode than the saved one is a change.
        mode->setCurrentIndex(1 - before);
        QVERIFY(w.sessions()->saveTo(file, &error));
        QVERIFY(!w.isWindowModified());
        QVERIFY(w.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        QCOMPARE(mode->currentIndex(), before);
        QCOMPARE(w.sessions()->currentFile(), file);
        QVERIFY(w.isWindowModified());
        // Closing a modified window asks to save (test_studio_savechanges): answered here.
        w.sessions()->setSaveQuestion([](const QString&) { return studio::SaveAnswer::Discard; });
        w.close();
    }
};

ACSEL_TEST_MAIN(TestStudioModified)
#include "test_studio_modified.moc"
