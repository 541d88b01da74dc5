// CompareModel: QAbstractItemModelTester through pins and unpins, the four-pin limit, and the
// bar fractions (value / column maximum, worked out by hand).
#include "widgets/comparemodel.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QSignalSpy>
#include <QTest>
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
    p.prediction.memoryGiB = 16;
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
    QVERIFY(!rmqd(1, Qt::DisplayRole).endsWith(QLatin1Char('*')));
    QVERIFY(rmqd(1, Qt::ToolTipRole).isEmpty());
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
        Prediction p;
        if (c.recipe.size() == 1) { // "a" (uniform fp8): not on this stack
            p.ttftMs = p.tpotMs = p.memoryGiB = p.rmqd = std::nan("");
            p.runnable = false;
            p.verdict = "stack x has no fp8";
            return p;
        }
        p.ttftMs = 300;
        p.tpotMs = 10;
        p.memoryGiB = 5;
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
}

QTEST_MAIN(TestCompareModel)
#include "test_comparemodel.moc"
