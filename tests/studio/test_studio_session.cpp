// The window's sessions in process: a real band edit reaches the autosave (debounced), a normal
// close marks it clean, an unclean one is offered at the next start and Restore puts the edit
// back in the band editor (and the search it starts does not replace it), a saved session
// round trips through Save/Open, a newer or broken session opens a dialog with its one-line
// error and leaves the current session untouched, and Save after restoring a session that had
// come from a file writes back to that file.
#include "app/studio/mainwindow.h"
#include "core/session/sessionfile.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "widgets/bandeditor.h"
#include "widgets/bandstrip.h"
#include "widgets/comparemodel.h"
#include "widgets/paretoplot.h"
#include "widgets/slopanel.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QFile>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>

using namespace acsel;
using namespace acsel::gui;
using namespace acsel::studio::test;
using acsel::studio::SessionController;

namespace
{

std::unique_ptr<MainWindow> openWindow()
{
    auto w = std::make_unique<MainWindow>(false);
    if (!w->openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()))
        return nullptr;
    return w;
}

BandEditor* editorOf(MainWindow& w)
{
    return w.findChild<BandEditor*>();
}

// A recipe the search would not pick: bf16 head and tail around a middle in the first quantized
// format the stack offers (the band strip's menu offers only those).
BandRecipe handEdit(MainWindow& w)
{
    const std::vector<Format> formats = w.findChild<SloPanel*>()->filter().formats;
    const auto middle =
        std::find_if(formats.begin(), formats.end(), [](Format f) { return f != Format::Bf16; });
    const int layers = editorOf(w)->config().recipe.numLayers();
    BandRecipe r;
    r.push({0, 2, Format::Bf16, Scope::Full});
    r.push({2, layers - 2, middle == formats.end() ? Format::Bf16 : *middle,
            middle == formats.end() ? Scope::Full : Scope::Mlp});
    r.push({layers - 2, layers, Format::Bf16, Scope::Full});
    return r;
}

void click(QMessageBox* box, const QString& text)
{
    for (QAbstractButton* b : box->buttons())
        if (b->text() == text)
            b->click();
}

} // namespace

class TestStudioSession : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // ~/.qttest: never the user's autosave
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio session test"));
        QFile::remove(SessionController::autosavePath());
    }

    void anEditIsAutosavedCleanedOnCloseAndRestored()
    {
        const QString autosave = SessionController::autosavePath();
        BandRecipe edit;
        {
            auto w = openWindow();
            QVERIFY(w);
            QCOMPARE(w->sessions()->startAutosave(), QString());
            QVERIFY(w->sessions()->autosaving());
            BandEditor* ed = editorOf(*w);
            QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy() && ed->prediction().has_value(), kSlowMs);
            edit = handEdit(*w);
            QVERIFY(!(edit == ed->config().recipe));
            ed->strip()->edit(edit, QStringLiteral("test edit"));
            QVERIFY(ed->config().recipe == edit);
            // Debounced: written about SessionController::kDebounceMs after the edit.
            std::optional<SessionDocument> saved;
            QTRY_VERIFY_WITH_TIMEOUT(
                (saved = QFile::exists(autosave)
                             ? std::optional(loadSessionFile(autosave.toStdString()))
                             : std::nullopt) &&
                    saved->edited && saved->edited->config.recipe == edit,
                SessionController::kDebounceMs + 5000);
            QVERIFY(!saved->cleanExit);
            QString why;
            QVERIFY(!SessionController::uncleanAutosave(&why)); // the window holds it
            QVERIFY2(why.contains(QStringLiteral("running")), qPrintable(why));
            w->close(); // a normal quit
            const SessionDocument closed = loadSessionFile(autosave.toStdString());
            QVERIFY(closed.cleanExit);
            QVERIFY(closed.edited->config.recipe == edit);
        }
        QString why;
        QVERIFY(!SessionController::uncleanAutosave(&why));
        QVERIFY2(why.contains(QStringLiteral("quit normally")), qPrintable(why));

        // As a killed window leaves it: the same autosave, not marked clean.
        SessionDocument crashed = loadSessionFile(autosave.toStdString());
        crashed.cleanExit = false;
        crashed.view.logY = !crashed.view.logY;
        {
            QFile f(autosave);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(
                writeSessionJson(crashed, autosave.toStdString(), SessionPaths::Absolute)));
        }
        QVERIFY(SessionController::uncleanAutosave(&why));
        auto w = openWindow();
        QVERIFY(w);
        w->show();
        QCOMPARE(w->sessions()->startAutosave(), QString());
        QVERIFY(!w->sessions()->autosaving()); // not before the offer is answered
        QMessageBox* box = openBox(*w);
        QVERIFY(box);
        QVERIFY(box->informativeText().contains(QStringLiteral("Qwen3")));
        click(box, QStringLiteral("Restore"));
        BandEditor* ed = editorOf(*w);
        QVERIFY(ed->config().recipe == edit);
        QCOMPARE(w->findChild<ParetoPlot*>()->logY(), crashed.view.logY);
        QVERIFY(w->sessions()->autosaving());
        QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy(), kSlowMs);
        QTest::qWait(200);
        QVERIFY(ed->config().recipe == edit); // the search outcome did not replace it
        w->close();
    }

    void saveOpenAndRefuseBadSessions()
    {
        QTemporaryDir tmp;
        auto w = openWindow();
        QVERIFY(w);
        w->show();
        BandEditor* ed = editorOf(*w);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy() && ed->prediction().has_value(), kSlowMs);
        const BandRecipe edit = handEdit(*w);
        ed->strip()->edit(edit, QStringLiteral("test edit"));
        auto* compare = w->findChild<CompareModel*>();
        compare->pin(
            {QStringLiteral("Edited"), QStringLiteral("m"), ed->config(), *ed->prediction()});
        w->findChild<ParetoPlot*>()->setAxis(LatencyAxis::Normalised);
        auto* panel = w->findChild<SloPanel*>();
        w->state()->setAlgorithm(SearchAlgorithm("rand")); // the panel follows the state
        QVERIFY(panel->algorithm() == SearchAlgorithm("rand"));
        panel->marginBox()->setValue(7.5); // as the user sets it
        QCOMPARE(w->state()->margin().percent, 7.5);
        const QString file = tmp.path() + QStringLiteral("/a.acsel-session");
        QString error;
        QVERIFY2(w->sessions()->saveTo(file, &error), qPrintable(error));
        const SessionDocument saved = loadSessionFile(file.toStdString());
        QCOMPARE(saved.view.latencyAxis, std::string("normalised"));
        QVERIFY(saved.searchAlgorithm == acsel::SearchAlgorithm("rand"));
        QCOMPARE(saved.pinned.size(), std::size_t(1));
        QVERIFY(saved.pinned[0].document.config.recipe == ed->config().recipe);
        QCOMPARE(saved.pinned[0].document.config.batch, ed->config().batch);
        QCOMPARE(saved.margin.percent, 7.5);
        QVERIFY(!w->sessions()->isModified());
        panel->marginBox()->setValue(2); // a margin edit is a change of the session
        QVERIFY(w->sessions()->isModified());

        // A newer schema: a dialog says so, nothing changes.
        const QString newer = tmp.path() + QStringLiteral("/newer.acsel-session");
        {
            QFile f(newer);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"schema_version": 7, "tabs": []})");
        }
        compare->clear();
        w->findChild<ParetoPlot*>()->setAxis(LatencyAxis::Ttft);
        QVERIFY(!w->sessions()->open(newer));
        QMessageBox* box = openBox(*w);
        QVERIFY(box);
        QVERIFY2(box->text().contains(
                     QStringLiteral("written by a newer ACSeL Studio (schema 7, this build "
                                    "reads up to 2)")),
                 qPrintable(box->text()));
        QVERIFY(box->text().contains(newer));
        box->close();
        QCOMPARE(w->sessions()->currentFile(), file);
        QVERIFY(ed->config().recipe == edit);

        // A session naming a model the workspace lacks fails before the window changes.
        SessionDocument bad = saved;
        bad.edited->modelName = "NoSuchModel";
        bad.edited->modelHfId = "none/NoSuchModel";
        const QString badFile = tmp.path() + QStringLiteral("/bad.acsel-session");
        {
            QFile f(badFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(
                writeSessionJson(bad, badFile.toStdString(), SessionPaths::RelativeToFile)));
        }
        QVERIFY(!w->sessions()->open(badFile));
        box = openBox(*w);
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("/edited/model")), qPrintable(box->text()));
        box->close();
        QCOMPARE(compare->rowCount(), 0);
        QVERIFY(w->findChild<ParetoPlot*>()->axis() == LatencyAxis::Ttft);

        // The good one restores the pin, the view, the algorithm, the margin and the edit.
        w->state()->setAlgorithm(SearchAlgorithm("bp"));
        QVERIFY(w->sessions()->open(file));
        QVERIFY(panel->algorithm() == SearchAlgorithm("rand"));
        QCOMPARE(panel->margin().percent, 7.5);
        QCOMPARE(w->state()->margin().percent, 7.5);
        QVERIFY(!w->sessions()->isModified());
        QCOMPARE(compare->rowCount(), 1);
        QVERIFY(w->findChild<ParetoPlot*>()->axis() == LatencyAxis::Normalised);
        QVERIFY(ed->config().recipe == edit);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy(), kSlowMs);
        QTest::qWait(200);
        QVERIFY(ed->config().recipe == edit);

        // A session saved before margins (schema 1, no margin_percent) opens at 0 %.
        const QString old = tmp.path() + QStringLiteral("/old.acsel-session");
        {
            Json j =
                Json::parse(writeSessionJson(saved, old.toStdString(), SessionPaths::Absolute));
            j["schema_version"] = 1;
            j.erase("margin_percent");
            QFile f(old);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(j.dump()));
        }
        QVERIFY(w->sessions()->open(old));
        QCOMPARE(panel->margin().percent, 0.0);
        QCOMPARE(w->state()->margin().percent, 0.0);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy(), kSlowMs);
    }

    void saveAfterRestoreWritesBackToTheSessionFile()
    {
        QTemporaryDir tmp;
        const QString file = tmp.path() + QStringLiteral("/mine.acsel-session");
        const QString autosave = SessionController::autosavePath();
        {
            auto w = openWindow();
            QVERIFY(w);
            QCOMPARE(w->sessions()->startAutosave(), QString());
            QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy() && editorOf(*w)->prediction(), kSlowMs);
            QString error;
            QVERIFY2(w->sessions()->saveTo(file, &error), qPrintable(error));
            QVERIFY(!loadSessionFile(file.toStdString()).pinned.size());
            QVERIFY(w->sessions()->writeAutosave(false));
            // The autosave records the session's own file; the session file does not.
            QCOMPARE(QString::fromStdString(loadSessionFile(autosave.toStdString()).sessionFile),
                     file);
            QVERIFY(loadSessionFile(file.toStdString()).sessionFile.empty());
        } // destroyed without a normal close: the autosave stays unclean, as after a crash
        QString why;
        QVERIFY2(SessionController::uncleanAutosave(&why), qPrintable(why));

        auto w = openWindow();
        QVERIFY(w);
        w->show();
        QCOMPARE(w->sessions()->startAutosave(), QString());
        QMessageBox* box = openBox(*w);
        QVERIFY(box);
        QVERIFY2(box->informativeText().contains(QStringLiteral("Session file: ") + file),
                 qPrintable(box->informativeText()));
        click(box, QStringLiteral("Restore"));
        QCOMPARE(w->sessions()->currentFile(), file);
        QVERIFY(w->windowTitle().contains(QStringLiteral("mine.acsel-session")));
        QVERIFY(w->isWindowModified()); // the restored state is not what the file holds

        // A change, then File > Save: written back to mine.acsel-session, no file dialog.
        BandEditor* ed = editorOf(*w);
        QTRY_VERIFY_WITH_TIMEOUT(!w->isBusy() && ed->prediction(), kSlowMs);
        w->findChild<CompareModel*>()->pin(
            {QStringLiteral("Edited"), QStringLiteral("m"), ed->config(), *ed->prediction()});
        QAction* save = nullptr;
        for (QAction* a : w->findChildren<QAction*>())
            if (a->text() == QStringLiteral("&Save session"))
                save = a;
        QVERIFY(save);
        if (w->sessions()->currentFile().isEmpty())
            QFAIL("Save would ask for a file name"); // and block the test in a dialog
        save->trigger();
        const SessionDocument back = loadSessionFile(file.toStdString());
        QCOMPARE(back.pinned.size(), std::size_t(1));
        QVERIFY(back.pinned[0].document.config.recipe == ed->config().recipe);
        QVERIFY(!w->isWindowModified());
        w->close();
    }

    void cleanupTestCase() { QFile::remove(SessionController::autosavePath()); }
};

ACSEL_TEST_MAIN(TestStudioSession)
#include "test_studio_session.moc"
