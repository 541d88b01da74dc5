// The window's state handling on the default workspace (spec-only stacks), one window for all
// steps: it fits a 1280x720 laptop with every dock on screen; an answer computed for an
// earlier request is shown stale (greyed, not pinnable); a hand edit in the band editor
// survives a finished search (offered, Undo kept); Pin pins the recommendation; pins are
// predicted again on every change and flagged when the stack cannot run them; Ctrl+Y redoes;
// and marking the window modified without a session file warns nothing. Automatic searches
// with acsel search's searcher for the serving mode, through the same recommend use case. The
// budget gauges show the answer against each budget; with no answer the card says what binds.
// Budget moves are answered at once from the workload's budget index.
#include "app/studio/engineloading.h"
#include "app/studio/explorersession.h"
#include "app/studio/explorerstate.h"
#include "app/studio/mainwindow.h"
#include "app/studio/sessiondefaults.h"
#include "core/search/recommend.h"
#include "studiofixtures.h"
#include "testmain.h"
#include "viewmodel/predictiontext.h"
#include "widgets/bandeditor.h"
#include "widgets/bandstrip.h"
#include "widgets/budgetgauges.h"
#include "widgets/budgetslider.h"
#include "widgets/comparemodel.h"
#include "widgets/comparetable.h"
#include "widgets/elidedlabel.h"
#include "widgets/paretoplot.h"
#include "widgets/recipecard.h"
#include "widgets/slopanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QToolButton>
#include <QUndoStack>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <memory>
#include <qcustomplot.h>

using namespace acsel;
using namespace acsel::gui;
using namespace acsel::studio::test;

class TestStudioState : public QObject
{
    Q_OBJECT

    std::unique_ptr<MainWindow> w_;

    studio::ExplorerState* state() const { return w_->state(); }
    RecipeCard* card() const { return w_->findChild<RecipeCard*>(); }
    BandEditor* editor() const { return w_->findChild<BandEditor*>(); }
    CompareModel* compare() const { return w_->findChild<CompareModel*>(); }
    QAction* action(const char* name) const { return w_->findChild<QAction*>(QLatin1String(name)); }
    // The card shows the answer for the current request.
    bool current() const { return !w_->isBusy() && card()->content() && !card()->isStale(); }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("ACSeL"));
        QApplication::setApplicationName(QStringLiteral("ACSeL Studio state test"));
        w_ = std::make_unique<MainWindow>(false);
        QVERIFY(w_->openWorkspace(QStringLiteral(ACSEL_DATASETS "/workspace.json"), QString()));
        w_->resize(1280, 720); // a laptop's window from its first show
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
    }

    // Empty when the window is still 1280x720 with its four docks and status bar inside it
    // and at least 80x50 each; otherwise what is wrong, after `step`.
    QString fitsAt1280x720(const QString& step) const
    {
        QApplication::processEvents();
        const QString where = step + QStringLiteral(": ");
        if (w_->size() != QSize(1280, 720))
            return where + QStringLiteral("the window is %1x%2").arg(w_->width()).arg(w_->height());
        const QSize min = w_->minimumSizeHint();
        if (min.width() > 1280 || min.height() > 720)
            return where +
                   QStringLiteral("the minimum size is %1x%2").arg(min.width()).arg(min.height());
        const QRect inside = w_->rect();
        int shown = 0;
        for (QDockWidget* d : w_->findChildren<QDockWidget*>()) {
            if (!d->isVisible() || d->visibleRegion().isEmpty())
                continue; // a tab behind another (the surrogate fit): one click away
            ++shown;
            const QRect g(d->mapTo(w_.get(), QPoint(0, 0)), d->size());
            if (!inside.contains(g) || g.height() < 80 || g.width() < 50)
                return where + QStringLiteral("%1 at %2,%3 %4x%5")
                                   .arg(d->objectName())
                                   .arg(g.x())
                                   .arg(g.y())
                                   .arg(g.width())
                                   .arg(g.height());
        }
        if (shown != 4) // Request, Recommendation, Band editor, Compare
            return where + QStringLiteral("%1 docks shown").arg(shown);
        const QRect status(w_->statusBar()->mapTo(w_.get(), QPoint(0, 0)), w_->statusBar()->size());
        if (!w_->statusBar()->isVisible() || !inside.contains(status))
            return where + QStringLiteral("the status bar is off the window");
        return {};
    }

    void fitsALaptopScreen()
    {
        w_->resize(1280, 720);
        QApplication::processEvents();
        QCOMPARE(w_->size(), QSize(1280, 720)); // no minimum size above it (it was 860 high)
        QCOMPARE(fitsAt1280x720(QStringLiteral("start")), QString());
        // The Request panel and the card scroll instead of forcing the window taller.
        for (QWidget* w : std::initializer_list<QWidget*>{w_->findChild<SloPanel*>(), card()})
            QVERIFY(qobject_cast<QScrollArea*>(w->parentWidget()->parentWidget()));
        // The info bar is one line until expanded.
        auto* banner = w_->findChild<QLabel*>(QStringLiteral("banner"));
        QVERIFY(banner && !banner->text().isEmpty());
        QVERIFY2(!banner->text().contains(QLatin1Char('\n')), qPrintable(banner->text()));
        auto* toggle = w_->findChild<QToolButton*>(QStringLiteral("bannerToggle"));
        QVERIFY(toggle);
        toggle->click();
        QVERIFY(banner->text().contains(QLatin1Char('\n')));
        toggle->click();
        QVERIFY(!banner->text().contains(QLatin1Char('\n')));
    }

    void staysOnALaptopScreenThroughEdits()
    {
        // Every edit changes labels (Undo's names the edit, the prediction line, the pins):
        // none may widen the window past the laptop's screen or push a dock off it.
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        w_->resize(1280, 720);
        QCOMPARE(fitsAt1280x720(QStringLiteral("start")), QString());
        BandEditor* ed = editor();
        BandStrip* strip = ed->strip();
        if (ed->config().recipe.size() == 1) // a boundary to drag
            strip->edit(nudged(ed->config().recipe), QStringLiteral("split"));
        // A drag of the first boundary by the mouse, as far right as the strip goes.
        const BandRecipe before = strip->recipe();
        const int y = strip->stripRect().center().y();
        QTest::mousePress(strip, Qt::LeftButton, {}, QPoint(strip->layerX(before[0].end), y));
        QTest::mouseMove(strip, QPoint(strip->layerX(before.numLayers()) - 1, y));
        QTest::mouseRelease(strip, Qt::LeftButton, {},
                            QPoint(strip->layerX(before.numLayers()) - 1, y));
        QVERIFY(!(strip->recipe() == before));
        QVERIFY2(strip->undoStack()->undoText().startsWith(QStringLiteral("move boundary 1")),
                 qPrintable(strip->undoStack()->undoText()));
        QCOMPARE(fitsAt1280x720(QStringLiteral("a drag")), QString());
        // A format change from the band's menu.
        QMenu* menu = strip->bandMenu(0, strip->recipe()[0].begin, w_.get());
        QAction* format = nullptr;
        for (QAction* a : menu->actions()[0]->menu()->actions())
            if (a->isEnabled() && !format)
                format = a;
        QVERIFY(format);
        format->trigger();
        delete menu;
        QCOMPARE(fitsAt1280x720(QStringLiteral("a format change")), QString());
        // The longest label an edit may have.
        strip->edit(nudged(strip->recipe()),
                    QStringLiteral("Move boundary 1 to layer 37 and every other boundary too, "
                                   "with a name far longer than any the editor gives"));
        QCOMPARE(fitsAt1280x720(QStringLiteral("a long undo label")), QString());
        // Three pins: the recommendation, the editor's configuration, the best uniform.
        compare()->clear();
        action("pinRecommendationAction")->trigger();
        action("pinEditorAction")->trigger();
        for (QPushButton* b : card()->findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Pin best uniform"))
                b->click();
        QCOMPARE(compare()->rowCount(), 3);
        QCOMPARE(fitsAt1280x720(QStringLiteral("three pins")), QString());
        // Compare compares at a glance: every column and row in view without scrolling, the
        // configuration's bands drawn wide enough to read.
        auto* table = w_->findChild<CompareTable*>();
        QVERIFY(table);
        QString widths;
        for (int c = 0; c < CompareModel::ColumnCount; ++c)
            widths += QStringLiteral(" %1").arg(table->columnWidth(c));
        QVERIFY2(table->horizontalScrollBar()->maximum() == 0,
                 qPrintable(QStringLiteral("viewport %1, columns%2")
                                .arg(table->viewport()->width())
                                .arg(widths)));
        QCOMPARE(table->verticalScrollBar()->maximum(), 0);
        QVERIFY2(table->columnWidth(CompareModel::Recipe) >= 150,
                 qPrintable(QString::number(table->columnWidth(CompareModel::Recipe))));
        for (int c = 0; c < CompareModel::ColumnCount; ++c)
            QVERIFY(table->columnViewportPosition(c) + table->columnWidth(c) <=
                    table->viewport()->width());
        // The Compare dock closed and opened again from the View menu.
        auto* compareDock = w_->findChild<QDockWidget*>(QStringLiteral("compare"));
        compareDock->toggleViewAction()->trigger();
        QApplication::processEvents();
        QVERIFY(!compareDock->isVisible());
        compareDock->toggleViewAction()->trigger();
        QCOMPARE(fitsAt1280x720(QStringLiteral("Compare open")), QString());
        compare()->clear();
        strip->undoStack()->setIndex(0);
    }

    void automaticSearchesAsTheCliDoes()
    {
        // A new window searches with Automatic: the default searcher, Exact (acsel search
        // without --algo), through core's recommend use case: the same answer, found here by
        // calling it directly on an engine of the same workspace.
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        auto* panel = w_->findChild<SloPanel*>();
        QVERIFY(!state()->algorithmChoice() && !panel->algorithm());
        const Request initial = state()->request();
        QVERIFY(initial.mode == ServingMode::Static);
        const auto engine = studio::loadEngine(ACSEL_DATASETS "/workspace.json", {}, {}).engine;
        const std::atomic<bool> never{false};
        for (const ServingMode mode : {ServingMode::Static, ServingMode::Continuous}) {
            Request r = state()->request();
            r.mode = mode;
            if (mode == ServingMode::Continuous) { // the serving reserve: room for an answer
                r.ttftBudgetMs *= 2;
                r.tpotBudgetMs *= 2;
            }
            state()->setRequest(r);
            QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
            const SearchAlgorithm expected = SearchAlgorithm("exact"); // in both modes
            QVERIFY(state()->algorithm() == expected);
            QVERIFY(card()->content()->stats->algorithm == expected);
            // The status line says how long the answer took (the search's wall time).
            const QString status =
                w_->findChild<ElidedLabel*>(QStringLiteral("statusCounts"))->text();
            const QRegularExpressionMatch shown =
                QRegularExpression(QStringLiteral(" · answer ([0-9.]+) ms")).match(status);
            QVERIFY2(shown.hasMatch(), qPrintable(status));
            const double ms = card()->content()->stats->seconds * 1000;
            QVERIFY2(std::abs(shown.captured(1).toDouble() - ms) <= std::max(0.5, 0.05 * ms),
                     qPrintable(status));
            SearchOptions o;
            o.models = state()->filter().models;
            o.formats = state()->filter().formats;
            o.scopes = state()->filter().scopes;
            const Recommendation direct = recommend(*engine, {r, o, expected, 0, false}, {}, never);
            QVERIFY(direct.answer.config);
            QVERIFY(card()->content()->config == *direct.answer.config);
            QVERIFY(direct.bestUniform && card()->content()->uniform &&
                    *card()->content()->uniform == direct.bestUniform->config);
        }
        // A searcher chosen in the panel stays whatever the mode; Automatic is Exact again.
        auto* combo = panel->findChild<QComboBox*>(QStringLiteral("searchAlgorithm"));
        QVERIFY(combo);
        combo->setCurrentIndex(combo->findData(static_cast<int>(SearchAlgorithm("bp").index())));
        QVERIFY(state()->algorithmChoice() == SearchAlgorithm("bp"));
        QVERIFY(state()->algorithm() == SearchAlgorithm("bp")); // continuous, chosen
        combo->setCurrentIndex(0);
        QVERIFY(!state()->algorithmChoice());
        QVERIFY(state()->algorithm() == SearchAlgorithm("exact"));
        state()->setRequest(initial);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
    }

    void budgetMovesAreAnsweredAtOnceFromTheIndex_data()
    {
        QTest::addColumn<bool>("continuousBatching");
        QTest::newRow("static") << false;
        QTest::newRow("continuous") << true;
    }
    void budgetMovesAreAnsweredAtOnceFromTheIndex()
    {
        // Once the searched workload's budget index is built (after the search and the
        // scoring), a budget move is answered before control returns to the event loop: what
        // the card shows while a slider is dragged. The same answer as recommend() run directly.
        QFETCH(bool, continuousBatching);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        const Request start = state()->request();
        if (continuousBatching) {
            Request r = start;
            r.mode = ServingMode::Continuous;
            r.ttftBudgetMs *= 2; // the serving reserve: room for an answer
            r.tpotBudgetMs *= 2;
            state()->setRequest(r);
            QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        }
        auto* session = w_->findChild<studio::ExplorerSession*>();
        QVERIFY(session);
        QVERIFY(state()->algorithm() == SearchAlgorithm("exact")); // Automatic is Exact
        QTRY_VERIFY_WITH_TIMEOUT(session->answersBudgetsAtOnce(), kSlowMs);
        const studio::LoadedEngine loaded =
            studio::loadEngine(ACSEL_DATASETS "/workspace.json", {}, {});
        const auto& engine = loaded.engine;
        SearchOptions o;
        o.models = state()->filter().models;
        o.formats = state()->filter().formats;
        o.scopes = state()->filter().scopes;
        const std::atomic<bool> never{false};
        const Request initial = state()->request();
        int answered = 0;
        for (const double share : {1.5, 1.25, 1.1, 0.95, 0.9}) {
            Request r = initial;
            r.tpotBudgetMs = initial.tpotBudgetMs * share;
            r.memBudgetGiB = initial.memBudgetGiB * (2 - share);
            state()->setRequest(r);
            const Recommendation direct =
                recommend(*engine, {r, o, SearchAlgorithm("exact"), 0, false}, {}, never);
            if (!direct.answer.config)
                continue;
            ++answered;
            QVERIFY(current());                           // no event-loop turn in between
            QCOMPARE(card()->content()->stats->gated, 0); // from the index: no full gate
            QVERIFY(card()->content()->config == *direct.answer.config);
            // The same card as a search: the operator and memory breakdowns of the full
            // prediction (no FMC file is loaded: no "calibrated" row), and the stats line says
            // where the answer came from rather than "0 full gate evaluations".
            const PredictionView full = loaded.hooks.predict(*direct.answer.config, r);
            const PredictionView& shown = card()->content()->prediction;
            QVERIFY(shown.ttftBreakdownMs == full.ttftBreakdownMs);
            QVERIFY(shown.tpotBreakdownMs == full.tpotBreakdownMs);
            QVERIFY(shown.memoryBreakdownGiB == full.memoryBreakdownGiB);
            QVERIFY(shown.ttftBreakdownMs.size() > 2 && shown.memoryBreakdownGiB.size() > 1);
            for (const auto& [name, ms] : shown.ttftBreakdownMs)
                QVERIFY2(name.find("calibrated") == std::string::npos, name.c_str());
            const QString stats = card()->findChild<QLabel*>(QStringLiteral("cardStats"))->text();
            QVERIFY2(stats.contains(QStringLiteral("answered from the budget index")) &&
                         !stats.contains(QStringLiteral("0 full gate")),
                     qPrintable(stats));
            QVERIFY(direct.bestUniform && card()->content()->uniform &&
                    *card()->content()->uniform == direct.bestUniform->config);
        }
        QVERIFY(answered >= 3);
        // Another workload (here the concurrency) drops the index: searched again.
        Request other = initial;
        other.concurrency *= 2;
        state()->setRequest(other);
        QVERIFY(!session->answersBudgetsAtOnce());
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        QVERIFY(card()->content()->stats->gated > 0);
        state()->setRequest(start);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
    }

    void gaugesShowTheBudgetsAndNoAnswerSaysWhatBinds()
    {
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        auto* gauges = w_->findChild<BudgetGauges*>();
        QVERIFY(gauges && gauges->isVisible());
        // The answer against each budget, whatever the x axis.
        const gui::PredictionView& p = card()->content()->prediction;
        const Budgets b = state()->budgets();
        QCOMPARE(gauges->permille(BudgetGauges::Ttft),
                 static_cast<int>(std::lround(p.ttftMs / b.ttftMs * 1000)));
        QCOMPARE(gauges->permille(BudgetGauges::Memory),
                 static_cast<int>(std::lround(p.memoryGiB() / b.memoryGiB * 1000)));
        // A TTFT budget nothing meets: the card says that TTFT binds and the budget to set;
        // set to it, the window answers (the advice never loops).
        const Request initial = state()->request();
        Request r = initial;
        r.ttftBudgetMs = 1;
        state()->setRequest(r);
        QVERIFY(!gauges->isEnabled()); // greyed with the stale card
        QTRY_VERIFY_WITH_TIMEOUT(!w_->isBusy() && !card()->content(), kSlowMs);
        const QString detail = card()->findChild<QLabel*>(QStringLiteral("cardVerdict"))->text();
        const QRegularExpression advice(
            QStringLiteral("TTFT binds: within the TPOT and memory budgets the lowest is [0-9.]+ "
                           "ms; at a TTFT budget of ([0-9.]+) ms the answer is "));
        const QRegularExpressionMatch m = advice.match(detail);
        QVERIFY2(m.hasMatch(), qPrintable(detail));
        QVERIFY(gauges->isEnabled());
        QCOMPARE(gauges->text(BudgetGauges::Ttft), QStringLiteral("TTFT budget 1.00 ms"));
        r.ttftBudgetMs = m.captured(1).toDouble();
        state()->setRequest(r);
        QTRY_VERIFY_WITH_TIMEOUT(current() && card()->content(), kSlowMs);
        QVERIFY(card()->content()->prediction.ttftMs <= r.ttftBudgetMs);
        state()->setRequest(initial);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
    }

    void aStaleAnswerIsGreyedAndNotPinnable()
    {
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        compare()->clear();
        const Request initial = state()->request();
        Request r = initial;
        r.osl *= 2; // a new workload: searched (a budget move may be answered at once)
        state()->setRequest(r);
        // At once, before the new search answers: the old answer is marked, not current, and
        // no star is drawn for it (it may sit in the new request's shaded area).
        auto* plot = w_->findChild<ParetoPlot*>();
        QVERIFY(card()->isStale());
        QVERIFY(!plot->recommended() && !plot->bestUniform());
        QVERIFY(card()->findChild<QLabel*>(QStringLiteral("staleNote"))->isVisibleTo(card()));
        for (QPushButton* b : card()->findChildren<QPushButton*>())
            QVERIFY2(!b->isEnabled(), qPrintable(b->text()));
        action("pinRecommendationAction")->trigger();
        QCOMPARE(compare()->rowCount(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        QVERIFY(state()->isCurrent(state()->key()));
        QVERIFY(plot->recommended() && plot->bestUniform());
        QCOMPARE(plot->recommended()->rmqd, card()->content()->prediction.rmqd);
        action("pinRecommendationAction")->trigger();
        QCOMPARE(compare()->rowCount(), 1);
        compare()->clear();
        state()->setRequest(initial);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
    }

    void aHandEditSurvivesASearch()
    {
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        BandEditor* ed = editor();
        QVERIFY(ed->config() == card()->content()->config); // it follows the recommendation
        const BandRecipe edit = nudged(ed->config().recipe);
        ed->strip()->edit(edit, QStringLiteral("test edit"));
        QVERIFY(ed->config().recipe == edit);
        Request r = state()->request();
        r.tpotBudgetMs *= 1.5;
        state()->setRequest(r);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        // The edit and its undo step are still there; the new answer is offered.
        QVERIFY(ed->config().recipe == edit);
        QCOMPARE(ed->strip()->undoStack()->count(), 1);
        QVERIFY(ed->offered() && *ed->offered() == card()->content()->config);
        auto* offer = ed->findChild<QWidget*>(QStringLiteral("recommendationOffer"));
        QVERIFY(offer && offer->isVisibleTo(ed));
        const bool sameModel = card()->content()->config.model == ed->config().model &&
                               card()->content()->config.batch == ed->config().batch;
        ed->findChild<QToolButton*>(QStringLiteral("loadRecommendation"))->click();
        QVERIFY(ed->config().recipe == card()->content()->config.recipe);
        QVERIFY(!offer->isVisibleTo(ed));
        if (sameModel) { // one undo step: the edit comes back
            ed->strip()->undoStack()->undo();
            QVERIFY(ed->config().recipe == edit);
        }
    }

    void noAnswerWithdrawsTheOffer()
    {
        // An edit, then a new answer: offered. Then a request nothing meets: the card says so,
        // and the editor no longer offers the earlier request's answer.
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        BandEditor* ed = editor();
        ed->strip()->edit(nudged(ed->config().recipe), QStringLiteral("offer test"));
        const Request initial = state()->request();
        Request r = initial;
        r.tpotBudgetMs *= 1.5;
        state()->setRequest(r);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        auto* offer = ed->findChild<QWidget*>(QStringLiteral("recommendationOffer"));
        if (!ed->offered()) // the edit happened to be the new answer: edit again
            ed->strip()->edit(nudged(ed->config().recipe), QStringLiteral("offer test"));
        r.tpotBudgetMs = initial.tpotBudgetMs * 1.25;
        state()->setRequest(r);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        QVERIFY(ed->offered() && offer->isVisibleTo(ed));
        const BandRecipe edit = ed->config().recipe;
        r.ttftBudgetMs = 1; // nothing meets it
        state()->setRequest(r);
        QTRY_VERIFY_WITH_TIMEOUT(!w_->isBusy() && !card()->content(), kSlowMs);
        QVERIFY(!ed->offered());
        QVERIFY(!offer->isVisibleTo(ed));
        QVERIFY(ed->config().recipe == edit); // the edit stays, with its undo steps
        QVERIFY(ed->strip()->undoStack()->count() >= 1);
        ed->strip()->undoStack()->setIndex(0);
        state()->setRequest(initial);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
    }

    void pinPinsTheRecommendationAndFollowsTheRequest()
    {
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        BandEditor* ed = editor();
        BandRecipe other = nudged(ed->config().recipe);
        if (other == card()->content()->config.recipe)
            other = nudged(other);
        ed->strip()->edit(other, QStringLiteral("another edit"));
        QVERIFY(!(ed->config() == card()->content()->config));
        compare()->clear();
        action("pinRecommendationAction")->trigger(); // the card's answer, not the editor's
        QCOMPARE(compare()->rowCount(), 1);
        const Config pinned = compare()->pinned()[0].config;
        QVERIFY(pinned == card()->content()->config);
        action("pinEditorAction")->trigger();
        QCOMPARE(compare()->rowCount(), 2);
        QVERIFY(compare()->pinned()[1].config == ed->config());

        // A longer prompt: the pin's numbers are the new request's, as predicted directly.
        auto* session = w_->findChild<studio::ExplorerSession*>();
        const double before = compare()->pinned()[0].prediction.ttftMs;
        Request r = state()->request();
        r.isl *= 2;
        state()->setRequest(r);
        const auto now = session->predict(pinned);
        QVERIFY(now);
        QCOMPARE(compare()->pinned()[0].prediction.ttftMs, now->ttftMs);
        QVERIFY(now->ttftMs > before);
        QCOMPARE(compare()->pinned()[0].prediction.verdict, now->verdict);

        // A stack without one of the pin's formats: flagged, no numbers.
        const Workspace& ws = *session->workspace();
        const Stack* lacking = nullptr;
        for (const Stack& s : ws.stacks)
            for (const Band& b : pinned.recipe)
                if (!lacking && !s.hasFormat(b.format))
                    lacking = &s;
        if (lacking) {
            const std::string stack = r.stack;
            r.stack = lacking->id;
            state()->setRequest(r);
            const PinnedConfig& p = compare()->pinned()[0];
            QVERIFY(!p.prediction.runnable);
            QVERIFY(std::isnan(p.prediction.ttftMs));
            const QString verdict =
                compare()->data(compare()->index(0, CompareModel::Verdict)).toString();
            QVERIFY2(verdict.startsWith(QStringLiteral("cannot run")), qPrintable(verdict));
            r.stack = stack;
            state()->setRequest(r);
            QVERIFY(compare()->pinned()[0].prediction.runnable);
        }
        r.isl /= 2;
        state()->setRequest(r);
        compare()->clear();
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
    }

    void ctrlYRedoes()
    {
        QAction* redo = action("redoAction");
        QVERIFY(redo);
        QVERIFY(redo->shortcuts().contains(QKeySequence(QStringLiteral("Ctrl+Y"))));
        BandEditor* ed = editor();
        const BandRecipe start = ed->config().recipe;
        const BandRecipe edit = nudged(start);
        ed->strip()->edit(edit, QStringLiteral("redo test"));
        ed->strip()->undoStack()->undo();
        QVERIFY(ed->config().recipe == start);
        w_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w_.get()));
        QTest::keySequence(w_.get(), QKeySequence(QStringLiteral("Ctrl+Y")));
        QVERIFY(ed->config().recipe == edit);
    }

    void undoKeysWorkWhileASpinBoxHasFocus()
    {
        // Right after typing a value the spin box has focus; it used to take Ctrl+Z and
        // Ctrl+Y for its own text, so the keys did nothing. The Edit menu names the step.
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        w_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w_.get()));
        BandEditor* ed = editor();
        auto* batch = ed->findChild<QSpinBox*>(QStringLiteral("editorBatch"));
        QVERIFY(batch);
        const int start = ed->config().batch;
        batch->setFocus();
        QVERIFY(batch->hasFocus());
        QTest::keyClick(batch, Qt::Key_Up);
        QCOMPARE(ed->config().batch, start + 1);
        QCOMPARE(action("undoAction")->text(), QStringLiteral("&Undo: batch %1").arg(start + 1));
        QTest::keySequence(batch, QKeySequence(QStringLiteral("Ctrl+Z")));
        QCOMPARE(ed->config().batch, start);
        QCOMPARE(batch->value(), start);
        QTest::keySequence(batch, QKeySequence(QStringLiteral("Ctrl+Y")));
        QCOMPARE(ed->config().batch, start + 1);
        // The request panel's spin boxes too: the keys undo the band editor's last step.
        auto* panelBox = w_->findChild<SloPanel*>()->findChild<QAbstractSpinBox*>();
        QVERIFY(panelBox);
        panelBox->setFocus();
        QTest::keySequence(panelBox, QKeySequence(QStringLiteral("Ctrl+Z")));
        QCOMPARE(ed->config().batch, start);
        ed->strip()->undoStack()->clear();
    }

    void undoKeysWorkWhereverTheFocusIs()
    {
        // Ctrl+Z and Ctrl+Y undo and redo the window's last edit with the focus in any of its
        // widgets, not only in the spin boxes: every focusable widget is tried.
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        w_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w_.get()));
        BandEditor* ed = editor();
        int tried = 0;
        for (QWidget* x : w_->findChildren<QWidget*>()) {
            if (x->focusPolicy() == Qt::NoFocus || !x->isVisible() || !x->isEnabled() ||
                x->focusProxy())
                continue;
            x->setFocus();
            if (QApplication::focusWidget() != x)
                continue;
            const BandRecipe start = ed->config().recipe;
            const BandRecipe edit = nudged(start);
            ed->strip()->edit(edit, QStringLiteral("focus test"));
            const QString name = QStringLiteral("%1 %2").arg(
                QString::fromLatin1(x->metaObject()->className()), x->objectName());
            QTest::keySequence(x, QKeySequence(QStringLiteral("Ctrl+Z")));
            QVERIFY2(ed->config().recipe == start, qPrintable(name + QStringLiteral(": Ctrl+Z")));
            QTest::keySequence(x, QKeySequence(QStringLiteral("Ctrl+Y")));
            QVERIFY2(ed->config().recipe == edit, qPrintable(name + QStringLiteral(": Ctrl+Y")));
            ed->strip()->undoStack()->undo();
            ++tried;
        }
        QVERIFY2(tried >= 15, qPrintable(QString::number(tried)));
        ed->strip()->undoStack()->clear();
    }

    void theWheelScrollsTheRequestPanel()
    {
        // Scrolling the Request panel with the wheel over a budget slider or spin box used to
        // change the budget (TPOT 60 -> 52.88 ms at 1280x720); it takes the wheel once focused.
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        auto* panel = w_->findChild<SloPanel*>();
        card()->setFocus();
        const Request before = state()->request();
        auto wheel = [](QWidget* x) {
            const QPointF at = QRectF(x->rect()).center();
            QWheelEvent e(at, x->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(x, &e);
            return e.isAccepted();
        };
        for (BudgetSlider* b : {panel->ttftSlider(), panel->tpotSlider(), panel->memorySlider()}) {
            QVERIFY(!wheel(b->slider())); // left to the scroll area
            QVERIFY(!wheel(b->spinBox()));
        }
        QVERIFY(!wheel(panel->stackBox()));
        QApplication::processEvents();
        QCOMPARE(budgetsOf(state()->request()), budgetsOf(before));
        QCOMPARE(state()->request().stack, before.stack);
    }

    void budgetsFollowTheStackOnRequest()
    {
        // Another stack in the panel: the budgets of the first start's rule for it are
        // offered, used in one click, and the previous ones are one click back.
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
        const Request initial = state()->request();
        auto* panel = w_->findChild<SloPanel*>();
        auto* offer = w_->findChild<QWidget*>(QStringLiteral("budgetOffer"));
        QVERIFY(offer && !offer->isVisible());
        QComboBox* stacks = panel->stackBox();
        int other = -1;
        for (int i = 0; i < stacks->count() && other < 0; ++i) {
            stacks->setCurrentIndex(i);
            QTest::qWait(50); // the panel may settle a change before saying it
            if (state()->request().stack != initial.stack && offer->isVisible())
                other = i;
        }
        QVERIFY2(other >= 0, "no stack of the workspace offered other budgets");
        const Request moved = state()->request();
        QCOMPARE(budgetsOf(moved), budgetsOf(initial)); // kept until the user says
        const auto loaded = studio::loadEngine(ACSEL_DATASETS "/workspace.json", {}, {});
        const Request derived =
            studio::withDerivedBudgets(*loaded.workspace, loaded.hooks, state()->filter(), moved);
        auto* button = offer->findChild<QPushButton*>();
        QVERIFY(offer->findChild<QLabel*>()->text().contains(formatMs(derived.ttftBudgetMs)));
        QCOMPARE(button->text(), QStringLiteral("Use them"));
        button->click();
        QCOMPARE(budgetsOf(state()->request()), budgetsOf(derived));
        QCOMPARE(button->text(), QStringLiteral("Back to the previous budgets"));
        QCOMPARE(fitsAt1280x720(QStringLiteral("the budget offer")), QString());
        button->click();
        QCOMPARE(budgetsOf(state()->request()), budgetsOf(initial));
        QVERIFY(!offer->isVisible());
        state()->setRequest(initial);
        QTRY_VERIFY_WITH_TIMEOUT(current(), kSlowMs);
    }

    void markingModifiedWithoutAFileWarnsNothing()
    {
        // Restoring an autosave marks the window modified before its title names a file.
        QTest::failOnWarning(QRegularExpression(QStringLiteral("setWindowModified")));
        w_->setWindowModified(true);
        QVERIFY(w_->isWindowModified());
        w_->setWindowModified(false);
    }

    void themeAndShortcutsFromTheMenus()
    {
        // View > Theme > Dark: the plot follows the palette; System restores it.
        auto* plot = w_->findChild<ParetoPlot*>();
        auto corner = [plot] {
            plot->customPlot()->replot(QCustomPlot::rpImmediateRefresh);
            return plot->customPlot()->toPixmap(60, 40).toImage().pixelColor(2, 2);
        };
        const QColor before = corner();
        action("theme_dark")->trigger();
        QApplication::processEvents();
        QVERIFY2(corner().lightness() < 60, qPrintable(corner().name()));
        action("theme_system")->trigger();
        QApplication::processEvents();
        QCOMPARE(corner(), before);
        // Help > Keyboard shortcuts lists the menus' own keys, Ctrl+Y among them.
        action("shortcutsAction")->trigger();
        auto* box = w_->findChild<QMessageBox*>(QStringLiteral("shortcutsBox"));
        QVERIFY(box);
        QVERIFY2(box->text().contains(QStringLiteral("Ctrl+Y")), qPrintable(box->text()));
        QVERIFY(box->text().contains(QStringLiteral("Pin the recommendation")));
        box->close();
    }

    void cleanupTestCase()
    {
        w_.reset();
        QSettings().clear();
    }
};

ACSEL_TEST_MAIN(TestStudioState)
#include "test_studio_state.moc"
