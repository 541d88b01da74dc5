// FitQualityPlot: measured vs estimated points per series, the FMC line only for a calibrated
// series, the summary lines, and an empty plot that says there are no measured rows.
#include "testmain.h"
#include "widgets/fitqualityplot.h"

#include <QLabel>
#include <cmath>
#include <qcustomplot.h>

using acsel::gui::FitQualityPlot;
using acsel::gui::FitSeries;

class TestFitQualityPlot : public QObject
{
    Q_OBJECT
private slots:
    void calibratedSeriesDrawsItsLine();
    void rawSeriesHasNoLine();
    void noRowsIsSaidInThePlot();
};

namespace
{
FitSeries series(bool calibrated)
{
    FitSeries f;
    f.label = "gpu/backend TTFT";
    f.estimatedMs = {10, 100, 1000};
    f.measuredMs = {20, 150, 900};
    f.rawMdapePercent = 33.3;
    f.calibrated = calibrated;
    f.gamma = 0.9;
    f.delta = 0.5;
    f.mdapePercent = 7.5;
    return f;
}

QString summary(const FitQualityPlot& w)
{
    return w.findChild<QLabel*>()->text();
}
} // namespace

void TestFitQualityPlot::calibratedSeriesDrawsItsLine()
{
    FitQualityPlot w;
    w.setFits({series(true)}, 12.5, QStringLiteral("Measured rows: test."));
    QCustomPlot* plot = w.findChild<QCustomPlot*>();
    // points, the FMC line, the measured = estimated diagonal
    QCOMPARE(plot->graphCount(), 3);
    QCOMPARE(plot->graph(0)->dataCount(), 3);
    QCPGraph* line = plot->graph(1);
    QCOMPARE(line->dataCount(), 2);
    // T = exp(delta) * T_est^gamma at both ends of the data range (10 .. 1000 ms).
    QCOMPARE(line->data()->at(0)->key, 10.0);
    QVERIFY(qFuzzyCompare(line->data()->at(0)->value, std::exp(0.5) * std::pow(10.0, 0.9)));
    QVERIFY(qFuzzyCompare(line->data()->at(1)->value, std::exp(0.5) * std::pow(1000.0, 0.9)));
    const QString text = summary(w);
    QVERIFY2(text.contains(QStringLiteral("gpu/backend TTFT: 3 rows, raw MdAPE 33.3%; FMC "
                                          "(gamma 0.900, delta 0.500) MdAPE 7.5%")),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("Quality surrogate: MdAPE 12.5%")));
    QVERIFY(text.contains(QStringLiteral("Measured rows: test.")));
    QCOMPARE(plot->itemCount(), 0);
    QVERIFY(plot->legend->visible());
}

void TestFitQualityPlot::rawSeriesHasNoLine()
{
    FitQualityPlot w;
    w.setFits({series(false)}, std::nullopt);
    QCustomPlot* plot = w.findChild<QCustomPlot*>();
    QCOMPARE(plot->graphCount(), 2); // points and the diagonal
    QVERIFY(summary(w).contains(QStringLiteral("3 rows, raw MdAPE 33.3%; no FMC loaded")));
}

void TestFitQualityPlot::noRowsIsSaidInThePlot()
{
    FitQualityPlot w;
    w.setFits({series(true)}, std::nullopt);
    w.setFits({}, 4.0, QStringLiteral("No measured latency rows for x/y."));
    QCustomPlot* plot = w.findChild<QCustomPlot*>();
    QCOMPARE(plot->graphCount(), 0); // the previous stack's points are gone
    QVERIFY(!plot->legend->visible());
    QCOMPARE(plot->itemCount(), 1);
    const auto* text = qobject_cast<const QCPItemText*>(plot->item(0));
    QVERIFY(text);
    QCOMPARE(text->text(), QStringLiteral("No measured latency rows to show"));
    QVERIFY(summary(w).contains(QStringLiteral("No measured latency rows for x/y.")));
    QVERIFY(summary(w).contains(QStringLiteral("MdAPE 4.0%")));
}

ACSEL_TEST_MAIN(TestFitQualityPlot)
#include "test_fitqualityplot.moc"
