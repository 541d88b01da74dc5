// CompareModel: QAbstractItemModelTester through pins and unpins, the four-pin limit, and the
// bar fractions (value / column maximum, worked out by hand).
#include "widgets/comparemodel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

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
    QCOMPARE(model.data(model.index(0, CompareModel::Ttft)).toString(), QStringLiteral("200 ms"));
    model.unpin(1); // the remaining row becomes the maximum
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

QTEST_MAIN(TestCompareModel)
#include "test_comparemodel.moc"
