// The card's advice when nothing fits never loops: on 20 random empty requests of the toy
// engine, every budget the card names with a value to set ("at a TTFT budget of 56.8 ms"), set
// to that value as typed, gives an answer through the same hooks; and the budget index answers
// an empty request with nothing, so that the search (which finds the nearest miss) runs.
#include "testmain.h"
#include "toyhooks.h"
#include "viewmodel/predictiontext.h"

#include <QRegularExpression>
#include <random>

using namespace acsel;

class TestStudioAdvice : public QObject
{
    Q_OBJECT
private slots:
    void adviceFedBackAnswers();
    void indexLeavesAnEmptyAnswerToTheSearch();
};

void TestStudioAdvice::adviceFedBackAnswers()
{
    const test::ToyHooks toy({Format::Int4Wo, Format::Int8, Format::Fp8, Format::Bf16});
    const QRegularExpression advice(
        QStringLiteral("(TTFT|TPOT|Memory) binds: .*; at a \\1 budget of ([0-9.]+) (ms|GiB) "));
    std::mt19937_64 rng(56);
    int empty = 0, advised = 0;
    while (empty < 20) {
        Request q = test::ToyHooks::request();
        q.concurrency = 1 + static_cast<int>(rng() % 4);
        q.ttftBudgetMs = std::uniform_real_distribution<double>(5, 60)(rng);
        q.tpotBudgetMs = std::uniform_real_distribution<double>(0.5, 3)(rng);
        q.memBudgetGiB = std::uniform_real_distribution<double>(1.9, 4)(rng);
        const gui::SearchOutcome out = toy.search(q);
        if (out.best)
            continue;
        ++empty;
        QVERIFY(out.nearestMiss);
        const QString text = gui::nearestMissText(*out.nearestMiss, q, toy.engine->workspace());
        for (const QString& line : text.split(QLatin1Char('\n'))) {
            const QRegularExpressionMatch m = advice.match(line);
            if (!m.hasMatch())
                continue;
            ++advised;
            const double value = m.captured(2).toDouble(); // as the user types it
            Request fed = q;
            if (m.captured(1) == QStringLiteral("TTFT"))
                fed.ttftBudgetMs = value;
            else if (m.captured(1) == QStringLiteral("TPOT"))
                fed.tpotBudgetMs = value;
            else
                fed.memBudgetGiB = value;
            const gui::SearchOutcome again = toy.search(fed);
            QVERIFY2(again.best.has_value(), qPrintable(line));
        }
        if (!out.nearestMiss->anyBudgetAlone())
            QVERIFY2(text.contains(QStringLiteral("No single budget binds")), qPrintable(text));
    }
    qInfo("%d suggestions in 20 empty requests", advised);
    QVERIFY(advised >= 20);
}

void TestStudioAdvice::indexLeavesAnEmptyAnswerToTheSearch()
{
    const test::ToyHooks toy({Format::Int8, Format::Bf16}, {Scope::Full});
    Request q = test::ToyHooks::request();
    q.ttftBudgetMs = 1000;
    q.tpotBudgetMs = 50;
    q.memBudgetGiB = 32;
    const studio::ExplorerHooks::BudgetAnswerer answer =
        toy.hooks.indexBudgets(q, toy.filter, gui::SearchAlgorithm("exact"), test::kNeverStop);
    QVERIFY(answer);
    QVERIFY(answer(q) && answer(q)->best); // loose budgets: answered at once
    q.ttftBudgetMs = 0.01;
    QVERIFY(!answer(q)); // nothing fits: left to the search
    QVERIFY(toy.search(q).nearestMiss);
}

ACSEL_TEST_MAIN(TestStudioAdvice)
#include "test_studio_advice.moc"
