// "Save the changes?" before the session is replaced: the real window, driven offscreen, with
// the question answered by SessionController::setSaveQuestion (no modal loop). Cancel keeps the
// window and the edit; Discard closes without writing the session file (the autosave is still
// written clean); Save writes the file and closes; a failed save cancels the close; nothing
// modified: no question. Open Recent asks the same question.
#include "app/studio/mainwindow.h"
#include "core/session/sessionfile.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "widgets/bandeditor.h"
#include "widgets/bandstrip.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <memory>

using namespace acsel;
using namespace acsel::gui;
using namespace acsel::studio::test;
using acsel::studio::SaveAnswer;
using acsel::studio::SessionController;

namespace
{

QByteArray bytesOf(const QString& file)
{
    QFile f(file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A shown window on the default workspace, its search done, saved to file.
std::unique_ptr<MainWindow> savedWindow(const QString& file)
{
    auto w = std::make_unique<MainWindow>(false);
    if (!w->openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()))
        return nullptr;
    w->show();
    auto* ed = w->findChild<BandEditor*>();
    if (!QTest::qWaitFor([&] { return !w->isBusy() && ed->prediction(); }, kSlowMs))
        return nullptr;
    QString error;
    if (!w->sessions()->saveTo(file, &error)) {
        qWarning("%s", qPrintable(error));
        return nullptr;
    }
    return w;
}

// A band edit after the save; returns the edited recipe.
BandRecipe edit(MainWindow& w)
{
    auto* ed = w.findChild<BandEditor*>();
    const BandRecipe r = nudged(ed->config().recipe);
    ed->strip()->edit(r, QStringLiteral("test edit"));
    return r;
}

// Answers every question with `answer` and records which files it was asked about.
struct Answerer {
    SaveAnswer answer = SaveAnswer::Cancel;
    QStringList asked;
    void install(MainWindow& w)
    {
        w.sessions()->setSaveQuestion([this](const QString& file) {
            asked << file;
            return answer;
        });
    }
};

} // namespace

class TestStudioSaveChanges : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // ~/.qttest: never the user's files
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio save-changes test"));
        QFile::remove(SessionController::autosavePath());
        QSettings().clear();
    }

    void theQuestionIsTheStandardOne()
    {
        const std::unique_ptr<QMessageBox> box(SessionController::makeSaveQuestion(
            nullptr, QStringLiteral("/projects/thor.acsel-session")));
        QVERIFY(box->standardButtons() ==
                (QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel));
        QVERIFY(box->defaultButton() == box->button(QMessageBox::Save));
        QVERIFY(box->escapeButton() == box->button(QMessageBox::Cancel));
        QVERIFY2(box->text().contains(QStringLiteral("thor.acsel-session")),
                 qPrintable(box->text()));
        QVERIFY(box->informativeText().contains(QStringLiteral("/projects/thor.acsel-session")));
        QVERIFY(!box->isVisible());
    }

    void notModifiedClosesWithoutAsking()
    {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("clean.acsel-session"));
        auto w = savedWindow(file);
        QVERIFY(w);
        Answerer a;
        a.install(*w);
        QVERIFY(!w->isWindowModified());
        QVERIFY(w->close());
        QVERIFY(a.asked.isEmpty());

        // Without a session file an edit is not "modified" (nothing to save it against).
        MainWindow fresh(false);
        QVERIFY(fresh.openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        fresh.show();
        Answerer b;
        b.install(fresh);
        auto* ed = fresh.findChild<BandEditor*>();
        QTRY_VERIFY_WITH_TIMEOUT(!fresh.isBusy() && ed->prediction(), kSlowMs);
        edit(fresh);
        QVERIFY(fresh.close());
        QVERIFY(b.asked.isEmpty());
    }

    void cancelKeepsTheWindowAndTheEdit()
    {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("c.acsel-session"));
        auto w = savedWindow(file);
        QVERIFY(w);
        const QByteArray before = bytesOf(file);
        const BandRecipe edited = edit(*w);
        QVERIFY(w->isWindowModified());
        Answerer a;
        a.install(*w);
        QVERIFY(!w->close()); // the close event was ignored
        QCOMPARE(a.asked, QStringList{file});
        QVERIFY(w->isVisible());
        QVERIFY(w->isWindowModified());
        QVERIFY(w->findChild<BandEditor*>()->config().recipe == edited);
        QCOMPARE(bytesOf(file), before);
        a.answer = SaveAnswer::Discard; // let the window go
        QVERIFY(w->close());
    }

    void discardClosesWithoutWritingAndTheAutosaveIsClean()
    {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("d.acsel-session"));
        auto w = savedWindow(file);
        QVERIFY(w);
        QCOMPARE(w->sessions()->startAutosave(), QString());
        QVERIFY(w->sessions()->autosaving());
        const QByteArray before = bytesOf(file);
        QVERIFY(!before.isEmpty());
        const BandRecipe edited = edit(*w);
        Answerer a;
        a.answer = SaveAnswer::Discard;
        a.install(*w);
        QVERIFY(w->close());
        QCOMPARE(a.asked.size(), 1);
        QVERIFY(!w->isVisible());
        QCOMPARE(bytesOf(file), before);
        // The autosave holds the discarded edit, marked as a normal quit: nothing to offer.
        const SessionDocument autosave =
            loadSessionFile(SessionController::autosavePath().toStdString());
        QVERIFY(autosave.cleanExit);
        QVERIFY(autosave.edited && autosave.edited->config.recipe == edited);
        w.reset(); // releases the autosave lock for the next test
        QString why;
        QVERIFY(!SessionController::uncleanAutosave(&why));
    }

    void saveWritesTheFileAndCloses()
    {
        QTemporaryDir tmp;
        const QString file = tmp.filePath(QStringLiteral("s.acsel-session"));
        auto w = savedWindow(file);
        QVERIFY(w);
        const QByteArray before = bytesOf(file);
        const BandRecipe edited = edit(*w);
        QVERIFY(!(loadSessionFile(file.toStdString()).edited->config.recipe == edited));
        Answerer a;
        a.answer = SaveAnswer::Save;
        a.install(*w);
        QVERIFY(w->close());
        QCOMPARE(a.asked, QStringList{file});
        QVERIFY(bytesOf(file) != before);
        const SessionDocument saved = loadSessionFile(file.toStdString());
        QVERIFY(saved.edited && saved.edited->config.recipe == edited);
        QVERIFY(!w->isWindowModified());
    }

    void aFailedSaveCancelsTheClose()
    {
        QTemporaryDir tmp;
        QVERIFY(QDir(tmp.path()).mkdir(QStringLiteral("gone")));
        const QString file = tmp.filePath(QStringLiteral("gone/f.acsel-session"));
        auto w = savedWindow(file);
        QVERIFY(w);
        QVERIFY(QDir(tmp.filePath(QStringLiteral("gone"))).removeRecursively());
        const BandRecipe edited = edit(*w);
        Answerer a;
        a.answer = SaveAnswer::Save;
        a.install(*w);
        QVERIFY(!w->close());
        QCOMPARE(a.asked.size(), 1);
        QVERIFY(w->isVisible());
        QVERIFY(w->isWindowModified());
        QVERIFY(w->findChild<BandEditor*>()->config().recipe == edited);
        QMessageBox* box = openBox(*w); // says why, without blocking
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("Cannot write")) && box->text().contains(file),
                 qPrintable(box->text()));
        box->close();
        a.answer = SaveAnswer::Discard;
        QVERIFY(w->close());
    }

    void openRecentAsksBeforeReplacingTheSession()
    {
        QTemporaryDir tmp;
        const QString first = tmp.filePath(QStringLiteral("first.acsel-session"));
        const QString second = tmp.filePath(QStringLiteral("second.acsel-session"));
        auto w = savedWindow(first);
        QVERIFY(w);
        QString error;
        QVERIFY2(w->sessions()->saveTo(second, &error), qPrintable(error));
        const BandRecipe edited = edit(*w);
        Answerer a;
        a.install(*w);
        auto* menu = w->findChild<QMenu*>(QStringLiteral("recentSessions"));
        QVERIFY(menu);
        auto actionFor = [menu](const QString& f) -> QAction* {
            for (QAction* act : menu->actions())
                if (act->data().toString() == f)
                    return act;
            return nullptr;
        };
        QAction* open = actionFor(first);
        QVERIFY(open);
        open->trigger(); // queued: the menu is refilled when a session opens
        QTRY_COMPARE(a.asked, QStringList{second});
        QCOMPARE(w->sessions()->currentFile(), second);
        QVERIFY(w->findChild<BandEditor*>()->config().recipe == edited);
        QVERIFY(w->isWindowModified());

        a.answer = SaveAnswer::Discard;
        open = actionFor(first);
        QVERIFY(open);
        open->trigger();
        QTRY_COMPARE(w->sessions()->currentFile(), first);
        QCOMPARE(a.asked.size(), 2);
        QVERIFY(!w->isWindowModified());
        QVERIFY(!(loadSessionFile(second.toStdString()).edited->config.recipe == edited));
        QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy(), kSlowMs);
        QVERIFY(w->close());
        QCOMPARE(a.asked.size(), 2); // just opened: nothing to ask
    }

    void cleanupTestCase()
    {
        QFile::remove(SessionController::autosavePath());
        QSettings().clear();
    }
};

ACSEL_TEST_MAIN(TestStudioSaveChanges)
#include "test_studio_savechanges.moc"
