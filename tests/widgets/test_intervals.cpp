// How sure: with an FMC file's intervals the card shows each latency with its interval under
// it and Compare draws it as a range under the value; without, the card says "no interval" and
// the typical error it is given.
#include "testmain.h"
#include "viewmodel/predictiontext.h"
#include "widgets/bandeditor.h"
#include "widgets/bardelegate.h"
#include "widgets/comparemodel.h"
#include "widgets/comparetable.h"
#include "widgets/elidedlabel.h"
#include "widgets/recipecard.h"

#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QScrollBar>
#include <QTableWidget>
#include <algorithm>
#include <cmath>

using namespace acsel;
using namespace acsel::gui;

namespace
{

PredictionView prediction(double ttft, double tpot)
{
    PredictionView p;
    p.ttftMs = ttft;
    p.tpotMs = tpot;
    p.memoryBytes = 10 * kGiB;
    p.rmqd = 0.03;
    p.admitted = true;
    p.verdict = "admitted";
    return p;
}

PredictionView withIntervals(PredictionView p)
{
    p.intervalLevel = 0.9;
    p.ttftInterval = LatencyInterval{146.12, 640.7};
    p.tpotInterval = LatencyInterval{9.876, 26.24};
    return p;
}

const QString kTypical =
    QStringLiteral("raw estimate, typical error TTFT 16 %, TPOT 4 % on the 85 measured rows of "
                   "this stack.");

} // namespace

class TestIntervals : public QObject
{
    Q_OBJECT
private slots:
    void formatInterval();
    void cardShowsTheIntervalUnderEachLatency();
    void cardSaysThereIsNoInterval();
    void compareDrawsTheIntervalUnderValueAndDelta();
    void editorLineShowsTheInterval();
};

void TestIntervals::formatInterval()
{
    // formatMs' digits without the unit: 0 decimals from 1 s, 1 from 10 ms, else 2.
    QCOMPARE(acsel::gui::formatInterval({146.12, 1640.7}), QStringLiteral("146.1\u20131641"));
    QCOMPARE(acsel::gui::formatInterval({9.876, 26.24}), QStringLiteral("9.88\u201326.2"));
}

void TestIntervals::cardShowsTheIntervalUnderEachLatency()
{
    RecipeCard card;
    CardContent c;
    c.title = QStringLiteral("Recommended");
    c.config.recipe = BandRecipe::uniform(36, Format::Fp8);
    c.prediction = withIntervals(prediction(221.4, 25.9));
    c.uniform = c.config;
    c.uniformPrediction = prediction(183.9, 20.0); // no interval of its own
    c.howSure = kTypical;
    card.setContent(c);
    QTableWidget* m = card.metricsTable();
    QCOMPARE(m->item(0, 0)->text(), QStringLiteral("TTFT\n(90 %)"));
    QCOMPARE(m->item(0, 1)->text(), QStringLiteral("221.4 ms\n146.1\u2013640.7"));
    QCOMPARE(m->item(0, 2)->text(), QStringLiteral("183.9 ms"));
    QCOMPARE(m->item(1, 1)->text(), QStringLiteral("25.9 ms\n9.88\u201326.2"));
    QCOMPARE(m->item(2, 0)->text(), QStringLiteral("Memory")); // no interval
    QCOMPARE(m->item(3, 0)->text(), QStringLiteral("RMQD"));
    // Two-line rows are twice as tall as the others, and the table shows them all.
    QCOMPARE_GE(m->rowHeight(0), 2 * m->fontMetrics().height());
    QCOMPARE_LT(m->rowHeight(2), 2 * m->fontMetrics().height());
    QCOMPARE(m->verticalScrollBar()->maximum(), 0);
    auto* howSure = card.findChild<QLabel*>(QStringLiteral("cardHowSure"));
    QCOMPARE(howSure->text(),
             QStringLiteral("How sure: under TTFT and TPOT, the interval holding 90 % of "
                            "measured latencies (FMC file, at this concurrency); ") +
                 kTypical);
}

void TestIntervals::cardSaysThereIsNoInterval()
{
    RecipeCard card;
    CardContent c;
    c.title = QStringLiteral("Recommended");
    c.config.recipe = BandRecipe::uniform(36, Format::Fp8);
    c.prediction = prediction(339.1, 25.9);
    c.howSure = kTypical;
    card.setContent(c);
    QCOMPARE(card.metricsTable()->item(0, 0)->text(), QStringLiteral("TTFT"));
    QCOMPARE(card.metricsTable()->item(0, 1)->text(), QStringLiteral("339.1 ms"));
    QCOMPARE(card.findChild<QLabel*>(QStringLiteral("cardHowSure"))->text(),
             QStringLiteral("How sure: no interval: ") + kTypical);
}

void TestIntervals::compareDrawsTheIntervalUnderValueAndDelta()
{
    CompareModel model;
    CompareTable table(&model);
    const int twoLines = 2 * table.fontMetrics().height() + 8;
    PinnedConfig a{QStringLiteral("A"), QStringLiteral("Small"), Config{}, prediction(100, 10)};
    a.config.recipe = BandRecipe::uniform(28, Format::Fp8);
    model.pin(a);
    QCOMPARE(table.rowHeight(0), twoLines); // value over delta, no interval
    PinnedConfig b{QStringLiteral("B"), QStringLiteral("Small"), Config{},
                   withIntervals(prediction(200, 20))};
    b.config.recipe = BandRecipe::uniform(28, Format::Bf16);
    model.pin(b);
    // Row 2 against row 1: +100 % on both latencies; the interval is not a line of text.
    QCOMPARE(model.data(model.index(1, CompareModel::Ttft)).toString(),
             QStringLiteral("200.0 ms\n+100.0 %"));
    QCOMPARE(model.data(model.index(1, CompareModel::Tpot)).toString(),
             QStringLiteral("20.0 ms\n+100.0 %"));
    QCOMPARE(model.data(model.index(0, CompareModel::Ttft)).toString(), QStringLiteral("100.0 ms"));
    QVERIFY(model.data(model.index(1, CompareModel::Ttft), Qt::ToolTipRole)
                .toString()
                .startsWith(QStringLiteral("90 % interval: 146.1\u2013640.7 ms")));
    // Its range on the column's log scale. TTFT: from the lowest end or value, row 1's 100 ms,
    // to the highest, 640.7 ms: low ln(146.12/100)/ln(6.407) = 0.204189, the value
    // ln(2)/ln(6.407) = 0.373183, high 1. TPOT: from 9.876 to 26.24 ms (row 1's 10 ms inside):
    // 0, ln(20/9.876)/ln(26.24/9.876) = 0.722105, 1. Row 1 has none; nor have Memory and RMQD.
    const auto range = [&model](int row, int column) {
        QList<double> out;
        for (const QVariant& v :
             model.data(model.index(row, column), CompareModel::IntervalRole).toList())
            out << v.toDouble();
        return out;
    };
    const auto near = [](const QList<double>& got, const QList<double>& want) {
        if (got.size() != want.size())
            return false;
        for (int i = 0; i < got.size(); ++i)
            if (std::abs(got[i] - want[i]) > 1e-6)
                return false;
        return true;
    };
    QVERIFY(near(range(1, CompareModel::Ttft), {0.204189, 0.373183, 1.0}));
    QVERIFY(near(range(1, CompareModel::Tpot), {0.0, 0.722105, 1.0}));
    QVERIFY(range(0, CompareModel::Ttft).isEmpty());
    QVERIFY(range(1, CompareModel::Memory).isEmpty());
    QVERIFY(range(1, CompareModel::Rmqd).isEmpty());
    // Rows no taller with the range's strip (it lies in their padding); drawn: in row 2's TTFT
    // cell the strip's ink spans from the low end to the high end (the cell less 4 px each
    // side).
    QCOMPARE(table.rowHeight(0), twoLines);
    QCOMPARE(table.rowHeight(1), twoLines);
    table.resize(900, 300);
    table.show();
    QVERIFY(QTest::qWaitForWindowExposed(&table));
    const QImage shot = table.viewport()->grab().toImage();
    const QRect cell = table.visualRect(model.index(1, CompareModel::Ttft));
    const QColor base = shot.pixelColor(cell.left(), cell.bottom());
    int first = cell.right() + 1;
    int last = -1;
    for (int y = cell.bottom() - BarDelegate::kIntervalHeight + 1; y <= cell.bottom(); ++y)
        for (int x = cell.left(); x <= cell.right(); ++x)
            if (shot.pixelColor(x, y) != base) {
                first = std::min(first, x);
                last = std::max(last, x);
            }
    const int left = cell.left() + 4;
    const int width = cell.width() - 8;
    QCOMPARE(first, left + static_cast<int>(std::lround(0.204189 * (width - 1))));
    QCOMPARE(last, left + width - 1);
    // The CSV has the interval's ends in full precision, empty without one.
    const QStringList lines = model.toCsv().split(QLatin1Char('\n'));
    QVERIFY(lines[0].endsWith(
        QStringLiteral("ttft_low_ms,ttft_high_ms,tpot_low_ms,tpot_high_ms,gate")));
    QVERIFY(lines[1].endsWith(QStringLiteral(",,,,,admitted")));
    QVERIFY(lines[2].endsWith(QStringLiteral(",146.12,640.7,9.876,26.24,admitted")));
    model.unpin(1);
    QCOMPARE(table.rowHeight(0), twoLines);
}

void TestIntervals::editorLineShowsTheInterval()
{
    // The band editor's prediction line shows each latency's interval as the card does (its
    // level, formatInterval's digits); without one, the value alone.
    BandEditor editor;
    PredictionView shown = withIntervals(prediction(221.4, 25.9));
    editor.setPredictor([&shown](const Config&) { return shown; });
    Config c;
    c.recipe = BandRecipe::uniform(28, Format::Fp8);
    c.batch = 4;
    editor.setConfig(c, QStringLiteral("Small"), {Format::Bf16, Format::Fp8});
    auto* line = editor.findChild<ElidedLabel*>(QStringLiteral("editorPrediction"));
    QVERIFY(line);
    // 10 GiB: "10.0 GiB"; RMQD 0.03 to three significant digits; fp8 takes max calibration.
    QCOMPARE(line->text(),
             QStringLiteral("TTFT 221.4 ms (90 %: 146.1\u2013640.7) · TPOT 25.9 ms (90 %: "
                            "9.88\u201326.2) · 10.0 GiB · RMQD 0.0300 · admitted · max"));
    shown = prediction(339.1, 25.9);
    editor.repredict();
    QCOMPARE(line->text(),
             QStringLiteral("TTFT 339.1 ms · TPOT 25.9 ms · 10.0 GiB · RMQD 0.0300 · admitted · "
                            "max"));
}

ACSEL_TEST_MAIN(TestIntervals)
#include "test_intervals.moc"
