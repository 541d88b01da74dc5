// CompareModel: QAbstractItemModelTester through pins and unpins, the four-pin limit, and the
// bar fractions (value / column maximum, worked out by hand), and the deltas against the
// reference row (worked out by hand).
#include "testmain.h"
#include "viewmodel/predictiontext.h"
#include "widgets/comparemodel.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QSignalSpy>
#include <cmath>

using namespace acsel;
using namespace acsel::gui;

namespace
{
PinnedConfig pinned(const char* label, int cut, double ttft, double rmqd)
{
    PinnedConfig p;
    p.label = QString::fromLatin1(label);
    p.modelName = QStringLiteral("Small");
    p.config.recipe =
        cut == 0 ? BandRecipe::uniform(28, Format::Fp8)
                 : BandRecipe::fromCuts(28, {cut},
                                        {{Format::Fp8, Scope::Full}, {Format::Bf16, Scope::Full}});
    p.prediction.ttftMs = ttft;
    p.prediction.tpotMs = 10;
    p.prediction.memoryBytes = 16 * acsel::kGiB;
    p.prediction.rmqd = rmqd;
    p.prediction.admitted = true;
    return p;
}
} // namespace

class TestCompareModel : public QObject
{
    Q_OBJECT
private slots:
    void passesModelTester();
    void barsAreFractionsOfColumnMax();
    void extrapolatedRmqdIsMarked();
    void repredictedAndFlaggedWhenNotRunnable();
    void deltasAreAgainstTheChosenReference();
    void deltaBarsAreScaledToTheLargestAndCsvHasEveryRow();
    void moeModelsNameTheExpertsScope();
};

void TestCompareModel::passesModelTester()
{
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(&model, &CompareModel::pinnedChanged);
    for (int cut = 0; cut < 6; ++cut)
        model.pin(pinned("p", cut, 100.0 + cut, 0.1));
    QCOMPARE(model.rowCount(), CompareModel::kMaxPinned);
    // The oldest two were dropped: rows now hold cuts 2..5.
    QCOMPARE(model.pinned().front().config.recipe[0].end, 2);
    model.pin(pinned("again", 3, 500, 0.2)); // same configuration: updated in place
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.data(model.index(1, CompareModel::Ttft), CompareModel::ValueRole).toDouble(),
             500.0);
    model.unpin(0);
    model.unpin(7); // out of range: ignored
    QCOMPARE(model.rowCount(), 3);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(changed.count(), 9);
    QVERIFY(!model.data(model.index(0, 0)).isValid());
}

void TestCompareModel::barsAreFractionsOfColumnMax()
{
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.pin(pinned("a", 0, 200, 0.05));
    model.pin(pinned("b", 10, 800, 0.20));
    QCOMPARE(model.data(model.index(0, CompareModel::Ttft), CompareModel::FractionRole).toDouble(),
             0.25);
    QCOMPARE(model.data(model.index(1, CompareModel::Ttft), CompareModel::FractionRole).toDouble(),
             1.0);
    QCOMPARE(model.data(model.index(0, CompareModel::Rmqd), CompareModel::FractionRole).toDouble(),
             0.25);
    QVERIFY(
        !model.data(model.index(0, CompareModel::Recipe), CompareModel::FractionRole).isValid());
    QCOMPARE(model.data(model.index(0, CompareModel::Ttft)).toString(),
             QStringLiteral("200.0 ms")); // fixed point, a tenth of a ms below a second
    model.unpin(1);                       // the remaining row becomes the maximum
    QCOMPARE(model.data(model.index(0, CompareModel::Ttft), CompareModel::FractionRole).toDouble(),
             1.0);
}

// A model the caveat names gets a '*' on its RMQD and the reason as the tooltip; others do not.
void TestCompareModel::extrapolatedRmqdIsMarked()
{
    CompareModel model;
    PinnedConfig other = pinned("other", 1, 100, 0.25);
    other.modelName = QStringLiteral("Big");
    model.pin(pinned("small", 0, 100, 0.125));
    model.pin(other);
    const auto rmqd = [&](int row, int role) {
        return model.data(model.index(row, CompareModel::Rmqd), role).toString();
    };
    QVERIFY(!rmqd(0, Qt::DisplayRole).endsWith(QLatin1Char('*')));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setRmqdCaveat([](const QString& m) {
        return m == QLatin1String("Small") ? QStringLiteral("no quality rows") : QString();
    });
    QCOMPARE(changed.count(), 1); // the views show the mark at once
    QVERIFY2(rmqd(0, Qt::DisplayRole).endsWith(QLatin1Char('*')), qPrintable(rmqd(0, 0)));
    QCOMPARE(rmqd(0, Qt::ToolTipRole), QStringLiteral("no quality rows"));
    QVERIFY(!rmqd(1, Qt::DisplayRole).contains(QLatin1Char('*')));
    // Row 1's tooltip has only its delta to the reference (row 0), no caveat.
    QCOMPARE(rmqd(1, Qt::ToolTipRole), QStringLiteral("+100.0 % against row 1 (small)"));
    // The numbers the bars use are unchanged.
    QCOMPARE(model.data(model.index(0, CompareModel::Rmqd), CompareModel::ValueRole).toDouble(),
             0.125);
}

void TestCompareModel::repredictedAndFlaggedWhenNotRunnable()
{
    // Every pin takes the predictor's new numbers; one it cannot run shows none (NaN, no bar)
    // and "cannot run: <why>" in red; the other bars are fractions of the runnable maximum.
    CompareModel model;
    model.pin(pinned("a", 0, 100, 0.1));
    model.pin(pinned("b", 4, 200, 0.2));
    QSignalSpy changed(&model, &CompareModel::pinnedChanged);
    model.repredict([](const Config& c) {
        PredictionView p;
        if (c.recipe.size() == 1) { // "a" (uniform fp8): not on this stack
            p.ttftMs = p.tpotMs = p.memoryBytes = p.rmqd = std::nan("");
            p.runnable = false;
            p.verdict = "stack x has no fp8";
            return p;
        }
        p.ttftMs = 300;
        p.tpotMs = 10;
        p.memoryBytes = 5 * acsel::kGiB;
        p.rmqd = 0.3;
        p.admitted = true;
        return p;
    });
    QCOMPARE(changed.count(), 1);
    QVERIFY(!model.pinned()[0].prediction.runnable);
    QCOMPARE(model.pinned()[1].prediction.ttftMs, 300.0);
    const QModelIndex verdict = model.index(0, CompareModel::Verdict);
    QCOMPARE(model.data(verdict).toString(), QStringLiteral("cannot run: stack x has no fp8"));
    QCOMPARE(model.data(verdict, Qt::ForegroundRole).value<QColor>(), QColor(0xb0, 0x00, 0x20));
    QCOMPARE(model.data(model.index(0, CompareModel::Ttft)).toString(), QStringLiteral("- ms"));
    QCOMPARE(model.data(model.index(0, CompareModel::Ttft), CompareModel::FractionRole).toDouble(),
             0.0);
    QCOMPARE(model.data(model.index(1, CompareModel::Ttft), CompareModel::FractionRole).toDouble(),
             1.0);
    QCOMPARE(model.data(model.index(1, CompareModel::Verdict)).toString(),
             QStringLiteral("admitted"));

    // A request whose budgets reject a pin (the best uniform of an earlier request): its
    // numbers stay, its Gate cell says it no longer passes, in amber.
    model.repredict([](const Config&) {
        PredictionView p;
        p.ttftMs = 300;
        p.tpotMs = 10;
        p.memoryBytes = 5 * acsel::kGiB;
        p.rmqd = 0.3;
        p.admitted = false;
        p.verdict = "TTFT 300 ms exceeds the budget 250 ms";
        return p;
    });
    const QModelIndex rejected = model.index(1, CompareModel::Verdict);
    QCOMPARE(model.data(rejected).toString(),
             QStringLiteral("no longer passes: TTFT 300 ms exceeds the budget 250 ms"));
    QCOMPARE(model.data(rejected, Qt::ForegroundRole).value<QColor>(), QColor(0xa0, 0x60, 0x00));
    QCOMPARE(model.pinned()[1].prediction.ttftMs, 300.0);
}

void TestCompareModel::deltasAreAgainstTheChosenReference()
{
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.referenceRow(), -1);
    model.pin(pinned("A", 0, 100, 0.2));
    model.pin(pinned("B", 4, 80, 0.1));
    model.pin(pinned("C", 8, 120, 0.25));
    const auto delta = [&](int row, int column) {
        return model.data(model.index(row, column), CompareModel::DeltaRole);
    };
    // The first pin is the reference until another is chosen: no delta in its own row.
    QCOMPARE(model.referenceRow(), 0);
    QVERIFY(!delta(0, CompareModel::Ttft).isValid());
    QCOMPARE(delta(1, CompareModel::Ttft).toDouble(), -0.2); // (80 - 100) / 100
    QCOMPARE(delta(1, CompareModel::Rmqd).toDouble(), -0.5); // (0.1 - 0.2) / 0.2
    QCOMPARE(delta(2, CompareModel::Ttft).toDouble(), 0.2);  // (120 - 100) / 100
    QCOMPARE(delta(1, CompareModel::Tpot).toDouble(), 0.0);  // both 10 ms
    QVERIFY(!delta(1, CompareModel::Recipe).isValid());
    const auto text = [&](int row, int column) {
        return model.data(model.index(row, column)).toString();
    };
    QVERIFY2(text(1, CompareModel::Ttft).endsWith(QStringLiteral("\n\u221220.0 %")),
             qPrintable(text(1, CompareModel::Ttft)));
    QVERIFY2(text(2, CompareModel::Ttft).endsWith(QStringLiteral("\n+20.0 %")),
             qPrintable(text(2, CompareModel::Ttft)));
    QVERIFY(text(1, CompareModel::Tpot).endsWith(QStringLiteral("\n+0.0 %")));
    QVERIFY(!text(0, CompareModel::Ttft).contains(QLatin1Char('%')));
    QCOMPARE(model.headerData(0, Qt::Vertical).toString(), QStringLiteral("1 (ref)"));
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("2"));
    QVERIFY(model.data(model.index(1, CompareModel::Ttft), Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("against row 1 (A)")));

    // B as the reference: A is 25 % slower than B, C 50 %.
    model.setReferenceRow(1);
    QCOMPARE(model.referenceRow(), 1);
    QCOMPARE(delta(0, CompareModel::Ttft).toDouble(), 0.25);
    QCOMPARE(delta(2, CompareModel::Ttft).toDouble(), 0.5);
    QCOMPARE(delta(0, CompareModel::Rmqd).toDouble(), 1.0);
    QVERIFY(!delta(1, CompareModel::Ttft).isValid());
    QCOMPARE(model.headerData(1, Qt::Vertical).toString(), QStringLiteral("2 (ref)"));
    // The reference follows its configuration when rows move.
    model.unpin(0);
    QCOMPARE(model.referenceRow(), 0); // B, now the first row
    QCOMPARE(model.pinned()[0].label, QStringLiteral("B"));
    QCOMPARE(delta(1, CompareModel::Ttft).toDouble(), 0.5);
    // Unpinned, the first row takes over.
    model.unpin(0);
    QCOMPARE(model.referenceRow(), 0);
    QCOMPARE(model.pinned()[0].label, QStringLiteral("C"));
    QCOMPARE(model.headerData(0, Qt::Vertical).toString(), QStringLiteral("1")); // alone
    // A pin its stack cannot run has no numbers, so no delta.
    PinnedConfig nan = pinned("D", 12, std::nan(""), 0.3);
    model.pin(nan);
    QVERIFY(!delta(1, CompareModel::Ttft).isValid());
    QCOMPARE(delta(1, CompareModel::Rmqd).toDouble(), (0.3 - 0.25) / 0.25);
}

void TestCompareModel::deltaBarsAreScaledToTheLargestAndCsvHasEveryRow()
{
    // Diverging delta bars: a bar's full length is the column's largest |delta|, so close
    // configurations are told apart (bars of value / column maximum were all nearly full).
    CompareModel model;
    const auto scale = [&](int row, int column) {
        return model.data(model.index(row, column), CompareModel::DeltaScaleRole);
    };
    model.pin(pinned("A", 0, 100, 0.2));
    QVERIFY(!scale(0, CompareModel::Ttft).isValid()); // alone: nothing to compare with
    model.pin(pinned("B", 4, 80, 0.1));
    model.pin(pinned("C", 8, 120, 0.25));
    for (int row = 0; row < 3; ++row) { // the reference row too (its centre line)
        QCOMPARE(scale(row, CompareModel::Ttft).toDouble(), 0.2); // |-20 %|, |+20 %|
        QCOMPARE(scale(row, CompareModel::Rmqd).toDouble(), 0.5); // |-50 %| > |+25 %|
        QVERIFY(!scale(row, CompareModel::Tpot).isValid());       // no difference at all
    }

    // CSV: every row with full-precision values and the deltas in percent, by hand.
    const auto quoted = [](const QString& f) {
        return f.contains(QLatin1Char(',')) ? QLatin1Char('"') + f + QLatin1Char('"') : f;
    };
    const auto recipe = [&](int row) {
        return quoted(configSummary(model.pinned()[static_cast<std::size_t>(row)].config,
                                    QStringLiteral("Small")));
    };
    const QString expected =
        QStringLiteral("row,pinned,configuration,ttft_ms,tpot_ms,memory_gib,rmqd,"
                       "ttft_delta_pct,tpot_delta_pct,memory_delta_pct,rmqd_delta_pct,"
                       "ttft_low_ms,ttft_high_ms,tpot_low_ms,tpot_high_ms,gate\n") +
        QStringLiteral("1,A,%1,100,10,16,0.2,,,,,,,,,admitted\n").arg(recipe(0)) +
        QStringLiteral("2,B,%1,80,10,16,0.1,-20.00,0.00,0.00,-50.00,,,,,admitted\n")
            .arg(recipe(1)) +
        QStringLiteral("3,C,%1,120,10,16,0.25,20.00,0.00,0.00,25.00,,,,,admitted\n").arg(recipe(2));
    QCOMPARE(model.toCsv(), expected);
}

void TestCompareModel::moeModelsNameTheExpertsScope()
{
    // Model 1 is a mixture of experts: its MLP scope reads "experts" (as in the band editor),
    // model 0's stays "mlp".
    CompareModel model;
    model.setMoeModels({false, true});
    PinnedConfig dense = pinned("dense", 0, 100, 0.1);
    dense.config.recipe = BandRecipe::uniform(28, Format::Fp8, Scope::Mlp);
    PinnedConfig moe = dense;
    moe.label = QStringLiteral("moe");
    moe.config.model = 1;
    model.pin(dense);
    model.pin(moe);
    QVERIFY(!model.isMoe(model.pinned()[0]));
    QVERIFY(model.isMoe(model.pinned()[1]));
    const auto tip = [&](int row) {
        return model.data(model.index(row, CompareModel::Recipe), Qt::ToolTipRole).toString();
    };
    QVERIFY2(tip(0).endsWith(QStringLiteral("0-27 fp8/mlp")), qPrintable(tip(0)));
    QVERIFY2(tip(1).endsWith(QStringLiteral("0-27 fp8/experts")), qPrintable(tip(1)));
    QVERIFY(model.toCsv().contains(QStringLiteral("0-27 fp8/experts")));
    // A model index past the list (another workspace's pin) is dense.
    moe.config.model = 7;
    QVERIFY(!model.isMoe(moe));
}

ACSEL_TEST_MAIN(TestCompareModel)
#include "test_comparemodel.moc"
