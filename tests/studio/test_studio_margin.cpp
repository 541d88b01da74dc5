// The window's margin (Margin % of the Request panel): the gate sees the budgets less the
// margin, as acsel search --margin (core BudgetMargin::apply), in the state's budgets, the
// search, the budget index and the nearest miss; the panel, the card and the settings carry it.
#include "../core/toyengine.h"
#include "app/studio/enginehooks.h"
#include "app/studio/explorerstate.h"
#include "app/studio/studiosettings.h"
#include "viewmodel/predictiontext.h"
#include "widgets/recipecard.h"
#include "widgets/slopanel.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <random>

using namespace acsel;

namespace
{

const std::atomic<bool> kNever{false};

gui::SearchOutcome searchOf(const studio::ExplorerHooks& h, const Request& q,
                            const gui::SpaceFilter& f, const BudgetMargin& m)
{
    return h.search(
        q, f, gui::SearchAlgorithm("exact"), m, [](double) {}, kNever);
}

Request toyRequest()
{
    Request q;
    q.stack = "toygpu/toy";
    q.isl = 512;
    q.osl = 64;
    return q;
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
};

void TestStudioMargin::stateBudgetsLessTheMargin()
{
    const test::ToyEngine engine({Format::Int8, Format::Bf16});
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
    const auto engine = std::make_shared<test::ToyEngine>(
        std::vector<Format>{Format::Int4Wo, Format::Int8, Format::Fp8, Format::Bf16});
    const studio::ExplorerHooks hooks = studio::makeEngineHooks(engine);
    const gui::SpaceFilter f{{0, 1},
                             {Format::Int4Wo, Format::Int8, Format::Fp8, Format::Bf16},
                             {kAllScopes.begin(), kAllScopes.end()}};
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
        const gui::SearchOutcome withMargin = searchOf(hooks, q, f, {20});
        const gui::SearchOutcome shrunk = searchOf(hooks, byHand, f, {});
        const gui::SearchOutcome plain = searchOf(hooks, q, f, {});
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
    const auto engine =
        std::make_shared<test::ToyEngine>(std::vector<Format>{Format::Int8, Format::Bf16});
    const studio::ExplorerHooks hooks = studio::makeEngineHooks(engine);
    const gui::SpaceFilter f{{0, 1}, {Format::Int8, Format::Bf16}, {Scope::Full}};
    Request q = toyRequest();
    q.ttftBudgetMs = 40;
    q.tpotBudgetMs = 2.5;
    q.memBudgetGiB = 4;
    const studio::ExplorerHooks::BudgetAnswerer answer =
        hooks.indexBudgets(q, f, gui::SearchAlgorithm("exact"), kNever);
    QVERIFY(answer);
    for (const double percent : {0.0, 5.0, 15.0, 30.0}) {
        const BudgetMargin m{percent};
        const auto fromIndex = answer(studio::gatedRequest(&engine->workspace(), q, m));
        const gui::SearchOutcome searched = searchOf(hooks, q, f, m);
        QCOMPARE(fromIndex && fromIndex->best, searched.best.has_value());
        if (searched.best)
            QVERIFY(*fromIndex->best == *searched.best);
    }
}

void TestStudioMargin::adviceWithAMarginFedBackAnswers()
{
    // The nearest miss names budgets as the user gives them: set as typed, with the same
    // margin, each gives an answer.
    const auto engine = std::make_shared<test::ToyEngine>(
        std::vector<Format>{Format::Int4Wo, Format::Int8, Format::Bf16});
    const studio::ExplorerHooks hooks = studio::makeEngineHooks(engine);
    const gui::SpaceFilter f{{0, 1},
                             {Format::Int4Wo, Format::Int8, Format::Bf16},
                             {kAllScopes.begin(), kAllScopes.end()}};
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
        const gui::SearchOutcome out = searchOf(hooks, q, f, margin);
        if (out.best)
            continue;
        ++empty;
        QVERIFY(out.nearestMiss);
        const QString text = gui::nearestMissText(*out.nearestMiss, q, engine->workspace(), margin);
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
            QVERIFY2(searchOf(hooks, fed, f, margin).best.has_value(), qPrintable(line));
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
    QCOMPARE(panel.marginBox()->maximum(), 99.0);

    QCOMPARE(gui::marginText({}), QString());
    QCOMPARE(gui::marginText({5}), QStringLiteral("margin 5 % inside every budget"));
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
}

QTEST_MAIN(TestStudioMargin)
#include "test_studio_margin.moc"
