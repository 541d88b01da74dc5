// BudgetGauges: each gauge is the prediction's share of its budget (per mille, worked out by
// hand), says the value and the budget, is full and says by how much when over, and shows the
// budgets alone without a prediction. nearestMissText names the binding budgets.
#include "testmain.h"
#include "viewmodel/predictiontext.h"
#include "widgets/budgetgauges.h"

#include <QApplication>
#include <QProgressBar>

using namespace acsel;
using namespace acsel::gui;

class TestBudgetGauges : public QObject
{
    Q_OBJECT
private slots:
    void sharesOfTheBudgets()
    {
        BudgetGauges g;
        const Budgets b{400, 20, 48};
        PredictionView p;
        p.ttftMs = 300;                   // 750 per mille
        p.tpotMs = 21;                    // over by 5 %
        p.memoryBytes = 12 * acsel::kGiB; // 250 per mille
        g.setValues(b, p);
        QCOMPARE(g.permille(BudgetGauges::Ttft), 750);
        QCOMPARE(g.permille(BudgetGauges::Tpot), 1000);
        QCOMPARE(g.permille(BudgetGauges::Memory), 250);
        QCOMPARE(g.text(BudgetGauges::Ttft), QStringLiteral("TTFT 300.0 ms of 400.0 ms"));
        QCOMPARE(g.text(BudgetGauges::Tpot),
                 QStringLiteral("TPOT 21.0 ms of 20.0 ms (over by 5.0 %)"));
        QCOMPARE(g.text(BudgetGauges::Memory), QStringLiteral("Memory 12.0 GiB of 48.0 GiB"));
        g.setValues(b, std::nullopt);
        QCOMPARE(g.permille(BudgetGauges::Ttft), 0);
        QCOMPARE(g.text(BudgetGauges::Tpot), QStringLiteral("TPOT budget 20.0 ms"));
        p.ttftMs = std::nan(""); // a configuration the stack cannot run
        g.setValues(b, p);
        QCOMPARE(g.permille(BudgetGauges::Ttft), 0);
        QCOMPARE(g.text(BudgetGauges::Ttft), QStringLiteral("TTFT budget 400.0 ms"));
    }

    void aNarrowGaugeShowsAShorterFormOnOneLine()
    {
        // At 1280x720 a gauge is about 200 px wide: the over-budget sentence (about 40
        // characters) was cut. The gauge shows the longest form that fits, the sentence in
        // its tooltip; wide, the whole sentence.
        BudgetGauges g;
        PredictionView p;
        p.ttftMs = 300;
        p.tpotMs = 21; // over by 5 %
        p.memoryBytes = 12 * acsel::kGiB;
        g.resize(3 * 1000, 30);
        g.show();
        QVERIFY(QTest::qWaitForWindowExposed(&g));
        g.setValues({400, 20, 48}, p);
        QCOMPARE(g.shownText(BudgetGauges::Tpot), g.text(BudgetGauges::Tpot));
        for (const int width : {600, 450, 300}) {
            g.resize(width, 30);
            for (const auto gauge :
                 {BudgetGauges::Ttft, BudgetGauges::Tpot, BudgetGauges::Memory}) {
                auto* bar = g.findChildren<QProgressBar*>()[gauge];
                const QString shown = g.shownText(gauge);
                QVERIFY2(bar->fontMetrics().horizontalAdvance(shown) < bar->width(),
                         qPrintable(QStringLiteral("%1 px: %2").arg(width).arg(shown)));
                QCOMPARE(bar->toolTip(), g.text(gauge));
            }
        }
        // At its narrowest the over-budget gauge still says by how much.
        QVERIFY2(g.shownText(BudgetGauges::Tpot).endsWith(QStringLiteral("+5.0 %")),
                 qPrintable(g.shownText(BudgetGauges::Tpot)));
    }

    // The nearest miss in words: TTFT binds at 512.34 ms (set 512.4 ms), the answer there; TPOT
    // and memory cannot bind alone.
    void nearestMissNamesTheBindingBudget()
    {
        Workspace ws;
        ModelArch m;
        m.name = "Toy-1B";
        m.layers = 4;
        ws.models.push_back(m);
        Platform gpu;
        gpu.id = "gpu";
        gpu.memCapacityBytes = 64 * kGiB;
        ws.platforms.push_back(gpu);
        Stack s;
        s.id = "gpu/toy";
        ws.stacks.push_back(s);
        Request q;
        q.stack = s.id;
        q.ttftBudgetMs = 400;
        q.tpotBudgetMs = 20;
        q.memBudgetGiB = 48;
        NearestMiss miss;
        for (std::size_t i = 0; i < kBudgetKinds.size(); ++i)
            miss.budgets[i].budget = kBudgetKinds[i];
        BudgetMiss& ttft = miss.budgets[0];
        ttft.lowest = 512.34;
        ttft.suggested = 512.4;
        Config c;
        c.batch = 4;
        c.recipe = BandRecipe::uniform(4, Format::Fp8);
        ttft.answer.config = c;
        ttft.answer.gate.prediction.ttftMs = 512.34;
        ttft.answer.gate.prediction.tpotMs = 9.5;
        ttft.answer.gate.prediction.memoryBytes = 12 * kGiB;
        ttft.answer.gate.prediction.rmqd = 0.0123;
        const QStringList lines = nearestMissText(miss, q, ws).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[0],
                 QStringLiteral("TTFT binds: within the TPOT and memory budgets the lowest is "
                                "512.3 ms; at a TTFT budget of 512.4 ms the answer is ") +
                     configSummary(c, QStringLiteral("Toy-1B")) +
                     QStringLiteral(" (TTFT 512.3 ms · TPOT 9.50 ms · 12.0 GiB · RMQD 0.0123)."));
        QCOMPARE(lines[1], QStringLiteral("TPOT: loosening it alone admits nothing: no "
                                          "configuration meets the TTFT and memory budgets at "
                                          "any TPOT."));
        QCOMPARE(lines[2], QStringLiteral("Memory: loosening it alone admits nothing: no "
                                          "configuration meets the TTFT and TPOT budgets even "
                                          "with the whole device (64.0 GiB)."));
        // Nothing binds alone; a lowest within its budget: Exact would answer.
        ttft.lowest.reset();
        QVERIFY(nearestMissText(miss, q, ws)
                    .endsWith(QStringLiteral("loosen two or more, or tick more under Space.")));
        miss.budgets[2].lowest = 30 * kGiB;
        miss.budgets[2].suggested = 30;
        QVERIFY(nearestMissText(miss, q, ws).startsWith(QStringLiteral("Exact finds")));
    }

    // Nothing plotted: no budget is to blame, the Space filters leave nothing on the stack.
    void anEmptySpaceSaysSo()
    {
        const QString t = emptySpaceText();
        QVERIFY2(t.contains(QStringLiteral("ticked under Space")), qPrintable(t));
        QVERIFY(!t.contains(QLatin1Char('\n')));
    }
};

ACSEL_TEST_MAIN(TestBudgetGauges)
#include "test_budgetgauges.moc"
