// BudgetGauges: each gauge is the prediction's share of its budget (per mille, worked out by
// hand), says the value and the budget, is full and says by how much when over, and shows the
// budgets alone without a prediction. infeasibilityText names the binding budgets.
#include "viewmodel/predictiontext.h"
#include "widgets/budgetgauges.h"

#include <QApplication>
#include <QTest>

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

    void infeasibilityNamesTheBindingBudget()
    {
        BudgetReach r;
        r.ttftMs = 512.34;
        const QString t = infeasibilityText(r, 400, 20, 48, 12345);
        const QStringList lines = t.split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4);
        QVERIFY2(lines[0].contains(QStringLiteral("Among the ")), qPrintable(lines[0]));
        QVERIFY2(lines[1].startsWith(QStringLiteral("TTFT binds: within the TPOT and memory "
                                                    "budgets the best reaches 512.3 ms (budget "
                                                    "400.0 ms)")),
                 qPrintable(lines[1]));
        QVERIFY(lines[2].startsWith(QStringLiteral("TPOT: nothing meets the TTFT and memory")));
        QVERIFY(lines[3].startsWith(QStringLiteral("Memory: nothing meets the TTFT and TPOT")));
        r.anyFeasible = true; // the screened estimates admit some, the full gate none
        QVERIFY(infeasibilityText(r, 400, 20, 48, 10).contains(QStringLiteral("full gate")));
    }

    // Nothing plotted: no budget is to blame, the Space filters leave nothing on the stack.
    void anEmptySpaceSaysSo()
    {
        const QString t = infeasibilityText(BudgetReach{}, 400, 20, 48, 0);
        QVERIFY2(t.contains(QStringLiteral("ticked under Space")), qPrintable(t));
        QVERIFY(!t.contains(QStringLiteral("binds")));
        QVERIFY(!t.contains(QLatin1Char('\n')));
    }
};

QTEST_MAIN(TestBudgetGauges)
#include "test_budgetgauges.moc"
