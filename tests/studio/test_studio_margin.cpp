// The window's margin (Margin % of the Request panel): the gate sees the budgets less the
// margin, as acsel search --margin (core BudgetMargin::apply), in the state's budgets, the
// search, the budget index and the nearest miss; the panel, the card and the settings carry it.
#include "app/studio/explorerstate.h"
#include "app/studio/studiosettings.h"
#include "testmain.h"
#include "toyhooks.h"
#include "viewmodel/predictiontext.h"
#include "widgets/checkedentry.h"
#include "widgets/recipecard.h"
#include "widgets/slopanel.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <random>

using namespace acsel;

namespace
{

Request toyRequest()
{
    return acsel::test::ToyHooks::request();
}

} // namespace

class TestStudioMargin : public QObject
{
    Q_OBJECT
private slots:
    void stateBudgetsLessTheMargin();
    void searchGatesAtTheShrunkBudgets();
    void indexAnswersTheGatedRequest();
    void adviceWithAMarginFedBackAnswers();
    void panelCardAndSettings();
    void typedMarginOutsideTheRangeIsMarked();
};

void TestStudioMargin::stateBudgetsLessTheMargin()
{
    const acsel::test::ToyEngine engine({Format::Int8, Format::Bf16});
    studio::ExplorerState state;
    state.setWorkspace(&engine.workspace());
    Request q = toyRequest();
    q.ttftBudgetMs = 40;
    q.tpotBudgetMs = 2;
    q.memBudgetGiB = 100; // above the toy GPU's 64 GiB: the gate caps it first
    state.setRequest(q);
    QSignalSpy key(&state, &studio::ExplorerState::keyChanged);
    state.setMargin({10});
    QCOMPARE(key.count(), 1);
    state.setMargin({10}); // unchanged: no signal
    QCOMPARE(key.count(), 1);
    // By hand: 40 x 0.9 = 36 ms, 2 x 0.9 = 1.8 ms, min(100, 64) x 0.9 = 57.6 GiB.
    const gui::Budgets b = state.budgets();
    QCOMPARE(b.ttftMs, 36.0);
    QCOMPARE(b.tpotMs, 1.8);
    QCOMPARE(b.memoryGiB, 57.6);
    QCOMPARE(state.request().ttftBudgetMs, 40.0); // the request keeps the budgets given
    QCOMPARE(state.key().margin.percent, 10.0);
    // An unknown stack: nothing to cap or shrink against.
    Request other = q;
    other.stack = "nogpu/none";
    QCOMPARE(studio::gatedRequest(&engine.workspace(), other, {10}).ttftBudgetMs, 40.0);
}

void TestStudioMargin::searchGatesAtTheShrunkBudgets()
{
    const acsel::test::ToyHooks toy({Format::Int4Wo, Format::Int8, Format::Fp8, Format::Bf16});
    std::mt19937_64 rng(7);
    int answered = 0, moved = 0;
    for (int i = 0; i < 30; ++i) {
        Request q = toyRequest();
        q.concurrency = 1 + static_cast<int>(rng() % 4);
        q.ttftBudgetMs = std::uniform_real_distribution<double>(10, 80)(rng);
        q.tpotBudgetMs = std::uniform_real_distribution<double>(1, 4)(rng);
        q.memBudgetGiB = std::uniform_real_distribution<double>(2, 6)(rng);
        // The budgets shrunk by hand (all below the 64 GiB device): 20 % off each.
        Request byHand = q;
        byHand.ttftBudgetMs = q.ttftBudgetMs * 0.8;
        byHand.tpotBudgetMs = q.tpotBudgetMs * 0.8;
        byHand.memBudgetGiB = q.memBudgetGiB * 0.8;
        const gui::SearchOutcome withMargin = toy.search(q, {20});
        const gui::SearchOutcome shrunk = toy.search(byHand);
        const gui::SearchOutcome plain = toy.search(q);
        QCOMPARE(withMargin.best.has_value(), shrunk.best.has_value());
        if (!withMargin.best)
            continue;
        ++answered;
        QVERIFY(*withMargin.best == *shrunk.best);
        const gui::PredictionView& p = withMargin.bestPrediction;
        QVERIFY(p.ttftMs <= 0.8 * q.ttftBudgetMs);
        QVERIFY(p.tpotMs <= 0.8 * q.tpotBudgetMs);
        if (plain.best && !(*plain.best == *withMargin.best))
            ++moved;
    }
    qInfo("%d of 30 requests answered with a 20 %% margin, %d of them otherwise than without",
          answered, moved);
    QVERIFY(answered >= 5);
    QVERIFY(moved >= 1); // the margin changes answers (else this test could not fail)
}

void TestStudioMargin::indexAnswersTheGatedRequest()
{
    const acsel::test::ToyHooks toy({Format::Int8, Format::Bf16}, {Scope::Full});
    Request q = toyRequest();
    q.ttftBudgetMs = 40;
    q.tpotBudgetMs = 2.5;
    q.memBudgetGiB = 4;
    const studio::ExplorerHooks::BudgetAnswerer answer = toy.hooks.indexBudgets(
        q, toy.filter, gui::SearchAlgorithm("exact"), acsel::test::kNeverStop);
    QVERIFY(answer);
    for (const double percent : {0.0, 5.0, 15.0, 30.0}) {
        const BudgetMargin m{percent};
        const auto fromIndex = answer(studio::gatedRequest(&toy.engine->workspace(), q, m));
        const gui::SearchOutcome searched = toy.search(q, m);
        QCOMPARE(fromIndex && fromIndex->best, searched.best.has_value());
        if (searched.best)
            QVERIFY(*fromIndex->best == *searched.best);
    }
}

void TestStudioMargin::adviceWithAMarginFedBackAnswers()
{
    // The nearest miss names budgets as the user gives them: set as typed, with the same
    // margin, each gives an answer.
    const acsel::test::ToyHooks toy({Format::Int4Wo, Format::Int8, Format::Bf16});
    const BudgetMargin margin{12.5};
    const QRegularExpression advice(QStringLiteral(
        "(TTFT|TPOT|Memory) binds: .*; at a \\1 budget of ([0-9.]+) (ms|GiB) \\(with the "
        "12.5 % margin\\) "));
    std::mt19937_64 rng(3);
    int empty = 0, advised = 0;
    while (empty < 20) {
        Request q = toyRequest();
        q.ttftBudgetMs = std::uniform_real_distribution<double>(5, 60)(rng);
        q.tpotBudgetMs = std::uniform_real_distribution<double>(0.5, 3)(rng);
        q.memBudgetGiB = std::uniform_real_distribution<double>(1.9, 4)(rng);
        const gui::SearchOutcome out = toy.search(q, margin);
        if (out.best)
            continue;
        ++empty;
        QVERIFY(out.nearestMiss);
        const QString text =
            gui::nearestMissText(*out.nearestMiss, q, toy.engine->workspace(), margin);
        for (const QString& line : text.split(QLatin1Char('\n'))) {
            const QRegularExpressionMatch m = advice.match(line);
            if (!m.hasMatch())
                continue;
            ++advised;
            Request fed = q;
            const double value = m.captured(2).toDouble();
            if (m.captured(1) == QStringLiteral("TTFT"))
                fed.ttftBudgetMs = value;
            else if (m.captured(1) == QStringLiteral("TPOT"))
                fed.tpotBudgetMs = value;
            else
                fed.memBudgetGiB = value;
            QVERIFY2(toy.search(fed, margin).best.has_value(), qPrintable(line));
        }
    }
    qInfo("%d suggestions in 20 empty requests", advised);
    QVERIFY(advised >= 15);
}

void TestStudioMargin::panelCardAndSettings()
{
    gui::SloPanel panel;
    QSignalSpy changed(&panel, &gui::SloPanel::marginChanged);
    QSignalSpy settled(&panel, &gui::SloPanel::requestSettled);
    panel.setMargin({5});
    QCOMPARE(changed.count(), 0); // programmatic
    QCOMPARE(panel.margin().percent, 5.0);
    panel.marginBox()->setValue(7.5); // as the user commits it
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).value<BudgetMargin>().percent, 7.5);
    QCOMPARE(settled.count(), 1); // searched at once

    QCOMPARE(gui::marginText({}), QString());
    QCOMPARE(gui::marginText({5}), QStringLiteral("margin 5 % inside every budget"));
    QCOMPARE(gui::gateText({}, 0.5), QString());
    QCOMPARE(gui::gateText({5}, 0.5), QStringLiteral("margin 5 % inside every budget"));
    QCOMPARE(gui::gateText({5}, 0.9),
             QStringLiteral("margin 5 % inside every budget; TTFT and TPOT met with p >= 0.9 "
                            "(upper end of the FMC interval)"));
    gui::RecipeCard card;
    gui::CardContent c;
    c.title = QStringLiteral("Recommended");
    c.margin = gui::marginText({2.5});
    card.setContent(c);
    const auto* line = card.findChild<QLabel*>(QStringLiteral("cardMargin"));
    QVERIFY(line);
    QCOMPARE(line->text(), QStringLiteral("margin 2.5 % inside every budget"));
    QVERIFY(!line->isHidden());
    card.showMessage(QStringLiteral("No configuration meets this request."));
    QVERIFY(line->isHidden());

    QTemporaryDir dir;
    QSettings s(dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    studio::StudioSettings v;
    v.request = toyRequest();
    v.margin = {7.5};
    studio::saveStudioSettings(s, v);
    QCOMPARE(studio::loadStudioSettings(s).margin.percent, 7.5);
    s.setValue(QStringLiteral("request/margin_percent"), 100); // not below 100: the default
    QCOMPARE(studio::loadStudioSettings(s).margin.percent, 0.0);
    // The confidence gate beside it: kept as acsel search --confidence takes it, else off.
    v.confidence = 0.9;
    studio::saveStudioSettings(s, v);
    QCOMPARE(studio::loadStudioSettings(s).confidence, 0.9);
    s.setValue(QStringLiteral("request/confidence"), 1.5);
    QCOMPARE(studio::loadStudioSettings(s).confidence, 0.5);
}

void TestStudioMargin::typedMarginOutsideTheRangeIsMarked()
{
    // Typed as a user types (focused box, keys, Enter): 150 and -5 stay as typed, marked red
    // with the core's reason, and start no search; the margin kept is the last valid one.
    gui::SloPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.setMargin({5});
    QSignalSpy changed(&panel, &gui::SloPanel::marginChanged);
    QSignalSpy settled(&panel, &gui::SloPanel::requestSettled);
    QDoubleSpinBox* box = panel.marginBox();
    box->setFocus();
    QTRY_VERIFY(box->hasFocus());
    const auto type = [box](const QString& keys) {
        box->selectAll();
        QTest::keyClicks(box, keys);
        QTest::keyClick(box, Qt::Key_Return);
    };
    struct Case {
        QString keys;
        double shown;
        QString why;
    };
    for (const Case& c :
         {Case{QStringLiteral("150"), 150, QStringLiteral("margin 150 % is not below 100")},
          Case{QStringLiteral("100"), 100, QStringLiteral("margin 100 % is not below 100")},
          Case{QStringLiteral("-5"), -5,
               QStringLiteral("margin -5 % is below the smallest accepted, 0")}}) {
        type(c.keys);
        QCOMPARE(box->value(), c.shown); // not clamped to 99
        QVERIFY(box->property("invalid").toBool());
        QVERIFY2(box->styleSheet().contains(QStringLiteral("background-color")),
                 qPrintable(box->styleSheet()));
        QVERIFY2(box->toolTip().startsWith(c.why + QStringLiteral(" (not used")),
                 qPrintable(box->toolTip()));
        QCOMPARE(panel.margin().percent, 5.0);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(settled.count(), 0);
    }
    type(box->locale().toString(12.5)); // valid (in the box's locale): used and searched at once
    QVERIFY(!box->property("invalid").toBool());
    QCOMPARE(box->styleSheet(), QString());
    QCOMPARE(panel.margin().percent, 12.5);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(settled.count(), 1);
}

ACSEL_TEST_MAIN(TestStudioMargin)
#include "test_studio_margin.moc"
