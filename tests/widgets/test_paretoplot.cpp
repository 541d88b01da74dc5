// ParetoPlot and its scoring against brute force: feasibility, the frontier by the Pareto
// definition, the normalised axis, clicking a point, and saving in three formats.
#include "testmain.h"
#include "widgetfixtures.h"
#include "widgets/logticker.h"
#include "widgets/paretoplot.h"
#include "widgets/plotcolours.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <qcustomplot.h>

using namespace acsel::gui;

class TestParetoPlot : public QObject
{
    Q_OBJECT
private slots:
    void scoringMatchesBruteForce_data();
    void scoringMatchesBruteForce();
    void normalisedAxis();
    void formatFamilyIsLowestBits();
    void clickSelectsPoint();
    void budgetMoveChangesFeasibleCount();
    void savesPngSvgPdf();
    void pointsAreDrawnInTheirColours();
    void followsPaletteChanges();
    void hoverClearedOnLeaveAndNewData();
    void legendListsOnlyTheFormatsPresent();
    void logTicksBelowOneTenth();
    void savedPlotsCarryTheCaptionAndStayLight();
    void pinsStayApartWhenTheyCoincide();
};

void TestParetoPlot::scoringMatchesBruteForce_data()
{
    QTest::addColumn<int>("axis");
    QTest::addColumn<double>("memory");
    QTest::newRow("ttft") << 0 << 40.0;
    QTest::newRow("tpot") << 1 << 80.0;
    QTest::newRow("normalised") << 2 << 20.0;
    QTest::newRow("nothing fits") << 0 << 0.5;
}

void TestParetoPlot::scoringMatchesBruteForce()
{
    QFETCH(int, axis);
    QFETCH(double, memory);
    auto set = fixtures::randomPoints(2000);
    // Two exact copies of a point: equal in both objectives, so both or neither on the frontier.
    set->points[1].ttftMs = set->points[2].ttftMs = set->points[3].ttftMs = 15;
    set->points[1].tpotMs = set->points[2].tpotMs = set->points[3].tpotMs = 2;
    set->points[1].memoryGiB = set->points[2].memoryGiB = set->points[3].memoryGiB = 0.25;
    set->points[1].rmqd = set->points[2].rmqd = set->points[3].rmqd = 0.001;
    const Budgets b{200, 20, memory};
    ScoredView v;
    scorePoints(set->points, static_cast<LatencyAxis>(axis), b, v);
    std::int64_t feasible = 0;
    std::vector<std::uint32_t> front;
    const auto& pts = set->points;
    auto x = [&](const PlotPoint& p) {
        return axis == 0   ? p.ttftMs
               : axis == 1 ? p.tpotMs
                           : std::max(p.ttftMs / 200, p.tpotMs / 20);
    };
    for (std::uint32_t i = 0; i < pts.size(); ++i) {
        const PlotPoint& p = pts[i];
        const bool ok = p.ttftMs <= 200 && p.tpotMs <= 20 && p.memoryGiB <= memory;
        feasible += ok ? 1 : 0;
        QCOMPARE(v.x[i], x(p));
        if (!ok)
            continue;
        // Pareto: no other feasible point is at least as good in both and better in one.
        bool dominated = false;
        for (const PlotPoint& q : pts)
            if (q.ttftMs <= 200 && q.tpotMs <= 20 && q.memoryGiB <= memory && x(q) <= x(p) &&
                q.rmqd <= p.rmqd && (x(q) < x(p) || q.rmqd < p.rmqd))
                dominated = true;
        if (!dominated)
            front.push_back(i);
    }
    QCOMPARE(v.feasibleCount, feasible);
    std::stable_sort(front.begin(), front.end(),
                     [&](auto a, auto c) { return x(pts[a]) < x(pts[c]); });
    QCOMPARE(v.frontier.size(), front.size());
    QVERIFY(v.frontier == front);
    if (memory >= 0.25) // the copies fit and dominate everything at x = 15 or more
        QVERIFY(std::count(front.begin(), front.end(), 2u) == 1 &&
                std::count(front.begin(), front.end(), 3u) == 1);
    for (std::size_t k = 1; k < v.order.size(); ++k)
        QVERIFY(v.x[v.order[k - 1]] <= v.x[v.order[k]]);
}

void TestParetoPlot::normalisedAxis()
{
    PlotPoint p;
    p.ttftMs = 300;
    p.tpotMs = 10;
    QCOMPARE(latencyX(p, LatencyAxis::Normalised, {200, 20, 1}), 1.5); // TTFT binds: 300/200
    p.tpotMs = 40;
    QCOMPARE(latencyX(p, LatencyAxis::Normalised, {200, 20, 1}), 2.0); // TPOT binds: 40/20
    QCOMPARE(budgetX(LatencyAxis::Normalised, {200, 20, 1}), 1.0);
    QCOMPARE(budgetX(LatencyAxis::Tpot, {200, 20, 1}), 20.0);
}

void TestParetoPlot::formatFamilyIsLowestBits()
{
    using acsel::BandRecipe;
    using acsel::Format;
    using acsel::Scope;
    QVERIFY(formatFamily(BandRecipe::uniform(10, Format::Bf16)) == Format::Bf16);
    QVERIFY(formatFamily(BandRecipe::fromCuts(
                10, {4}, {{Format::Bf16, Scope::Full}, {Format::Fp8, Scope::Mlp}})) == Format::Fp8);
    QVERIFY(formatFamily(BandRecipe::fromCuts(10, {3, 6},
                                              {{Format::Fp8, Scope::Full},
                                               {Format::Nvfp4, Scope::Attn},
                                               {Format::Bf16, Scope::Full}})) == Format::Nvfp4);
    // int8_wo and int8 both have 8 bits: the ladder order decides.
    QVERIFY(formatFamily(BandRecipe::fromCuts(
                10, {5}, {{Format::Int8, Scope::Full}, {Format::Int8Wo, Scope::Full}})) ==
            Format::Int8Wo);
}

void TestParetoPlot::clickSelectsPoint()
{
    ParetoPlot plot;
    plot.resize(900, 600);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    auto set = fixtures::randomPoints(50);
    // Point 17 far from the cloud so no neighbour competes for the click.
    set->points[17].ttftMs = 5000;
    set->points[17].rmqd = 2;
    plot.setPoints(set);
    plot.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
    QSignalSpy spy(&plot, &ParetoPlot::pointClicked);
    const QPoint at = plot.pixelOf(17);
    QVERIFY(plot.rect().contains(at));
    QWidget* canvas = plot.customPlot();
    QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->mapFrom(&plot, at));
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).value<std::uint32_t>(), 17u);
    // A click on empty space selects nothing.
    QTest::mouseClick(canvas, Qt::LeftButton, {}, canvas->mapFrom(&plot, at) + QPoint(-60, 60));
    QCOMPARE(spy.count(), 1);
    QVERIFY(plot.describe(17).contains(QStringLiteral("5000.0 ms")));
}

void TestParetoPlot::budgetMoveChangesFeasibleCount()
{
    ParetoPlot plot;
    const auto set = fixtures::randomPoints(5000, 11);
    plot.setPoints(set);
    QSignalSpy spy(&plot, &ParetoPlot::rescored);
    for (double ttft : {50.0, 150.0, 800.0}) {
        plot.setBudgets({ttft, 30, 60});
        std::int64_t expected = 0;
        for (const PlotPoint& p : set->points)
            expected += p.ttftMs <= ttft && p.tpotMs <= 30 && p.memoryGiB <= 60;
        QCOMPARE(plot.scored().feasibleCount, expected);
        QCOMPARE(spy.last().at(1).toLongLong(), expected);
    }
    QCOMPARE(spy.count(), 3);
}

void TestParetoPlot::savesPngSvgPdf()
{
    ParetoPlot plot;
    plot.resize(800, 500);
    plot.setPoints(fixtures::randomPoints(300));
    QTemporaryDir dir;
    for (const char* suffix : {"png", "svg", "pdf"}) {
        const QString f = dir.filePath(QStringLiteral("plot.") + QLatin1String(suffix));
        QVERIFY2(plot.saveImage(f, 800, 500), qPrintable(f));
        QVERIFY(QFileInfo(f).size() > 1000);
    }
    QFile svg(dir.filePath(QStringLiteral("plot.svg")));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    QVERIFY(svg.readAll().contains("<svg"));
    QVERIFY(!plot.saveImage(dir.filePath(QStringLiteral("plot.bmpx"))));
}

// The point cloud is rasterised by our own code: check the pixels under two points.
void TestParetoPlot::pointsAreDrawnInTheirColours()
{
    ParetoPlot plot;
    plot.resize(800, 500);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    auto set = std::make_shared<PointSet>();
    set->modelNames = {"only"};
    set->configs.resize(3);
    PlotPoint ok;
    ok.ttftMs = 100;
    ok.tpotMs = 10;
    ok.rmqd = 0.5;
    ok.memoryGiB = 1;
    ok.uniform = false;
    PlotPoint out = ok; // over the TTFT budget: faded
    out.ttftMs = 300;
    out.rmqd = 0.2;
    out.configId = 1;
    PlotPoint best = ok; // dominates both, so the frontier line (one point) crosses neither
    best.ttftMs = 20;
    best.rmqd = 0.05;
    best.configId = 2;
    set->points = {ok, out, best};
    plot.setPoints(set);
    plot.setBudgets({200, 50, 10});
    plot.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
    const QImage img = plot.grab().toImage();
    const QColor colour = categoryColour(0, plot.palette());
    const QColor atOk = img.pixelColor(plot.pixelOf(0));
    QVERIFY2(std::abs(atOk.red() - colour.red()) <= 2 && std::abs(atOk.blue() - colour.blue()) <= 2,
             qPrintable(atOk.name()));
    // Faded: the colour at alpha 45/255 over the light background and the shaded region.
    const QColor atOut = img.pixelColor(plot.pixelOf(1));
    QVERIFY2(atOut.lightness() > colour.lightness() + 60, qPrintable(atOut.name()));
    QVERIFY(atOut.blue() > atOut.red()); // still recognisably the blue category
}

void TestParetoPlot::followsPaletteChanges()
{
    ParetoPlot plot;
    plot.resize(400, 300);
    QPalette dark;
    dark.setColor(QPalette::Base, QColor(20, 20, 24));
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
    plot.setPalette(dark);
    QCOMPARE(plot.customPlot()->xAxis->tickLabelColor(), QColor(230, 230, 230));
    plot.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
    const QImage img = plot.customPlot()->toPixmap(400, 300).toImage();
    QCOMPARE(img.pixelColor(2, 2), QColor(20, 20, 24));
}

void TestParetoPlot::hoverClearedOnLeaveAndNewData()
{
    ParetoPlot plot;
    plot.resize(900, 600);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    auto set = fixtures::randomPoints(50);
    set->points[17].ttftMs = 5000; // alone, far right
    set->points[17].rmqd = 2;
    plot.setPoints(set);
    plot.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
    QWidget* canvas = plot.customPlot();
    auto hoverAt17 = [&] {
        QTest::mouseMove(canvas, canvas->mapFrom(&plot, plot.pixelOf(17)));
        return plot.hovered() == std::optional<std::uint32_t>(17u);
    };
    QVERIFY(hoverAt17());
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(canvas, &leave);
    QVERIFY(!plot.hovered());
    QTest::mouseMove(canvas, QPoint(3, 3)); // away and back: a move to the same place is none
    QVERIFY(hoverAt17());
    auto other = fixtures::randomPoints(50, 9);
    other->points[17].ttftMs = 4000;
    other->points[17].rmqd = 1.5;
    plot.setPoints(other); // the data change under a still mouse
    QVERIFY(!plot.hovered());
    plot.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
    QTest::mouseMove(canvas, QPoint(3, 3)); // 17 is again the top right corner: move away first
    QVERIFY(hoverAt17());
    plot.setAxis(LatencyAxis::Tpot); // the points move
    QVERIFY(!plot.hovered());
}

void TestParetoPlot::legendListsOnlyTheFormatsPresent()
{
    // Points of two families (fp8 and int8, fixtures::randomPoints): coloured by format, the
    // legend names those two and none of the other five formats.
    ParetoPlot plot;
    plot.setPoints(fixtures::randomPoints(200));
    plot.setColourBy(ColourBy::FormatFamily);
    QStringList names;
    QCPLegend* legend = plot.customPlot()->legend;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i)))
            names << item->plottable()->name();
    QVERIFY2(names.contains(QStringLiteral("fp8")) && names.contains(QStringLiteral("int8")),
             qPrintable(names.join(',')));
    for (acsel::Format f : acsel::kAllFormats)
        if (f != acsel::Format::Fp8 && f != acsel::Format::Int8)
            QVERIFY2(!names.contains(QString::fromUtf8(acsel::toString(f).data())),
                     qPrintable(names.join(',')));
}

void TestParetoPlot::logTicksBelowOneTenth()
{
    // An RMQD range of 0.004 to 0.3 (where the answers are): labels at 0.005, 0.01, 0.02,
    // 0.05, 0.1, 0.2 (1-2-5), not only at 0.1.
    ParetoPlot plot;
    plot.resize(800, 500);
    plot.setLogY(true);
    plot.customPlot()->yAxis->setRange(0.004, 0.3);
    plot.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
    QVector<double> ticks = plot.customPlot()->yAxis->tickVector();
    QVector<double> expected = {0.005, 0.01, 0.02, 0.05, 0.1, 0.2};
    QCOMPARE(ticks.size(), expected.size());
    for (qsizetype i = 0; i < ticks.size(); ++i)
        QVERIFY2(std::abs(ticks[i] / expected[i] - 1) < 1e-9,
                 qPrintable(QString::number(ticks[i])));
    // Within one decade every mantissa: 0.02 (one below), 0.03 .. 0.08, 0.09 (one above).
    QCOMPARE(LogTicker::ticksFor({0.025, 0.085}).size(), 8);
    // Over many decades the powers of ten as before.
    plot.customPlot()->yAxis->setRange(1e-6, 1);
    plot.customPlot()->replot(QCustomPlot::rpImmediateRefresh);
    for (const double t : plot.customPlot()->yAxis->tickVector())
        QVERIFY2(std::abs(std::log10(t) - std::round(std::log10(t))) < 1e-9,
                 qPrintable(QString::number(t)));
}

void TestParetoPlot::savedPlotsCarryTheCaptionAndStayLight()
{
    // 30,000 points: the SVG and PDF keep the cloud as one image (well under 1.5 MB; one
    // vector marker each made them 11 MB and 3.3 MB for 50k), and every format carries the
    // red provenance line of synthetic data under the plot.
    ParetoPlot plot;
    plot.resize(900, 560);
    auto set = fixtures::randomPoints(30000);
    set->synthetic = true;
    set->provenance = "Test points fitted on SYNTHETIC quality data";
    plot.setPoints(set);
    QTemporaryDir dir;
    for (const char* suffix : {"svg", "pdf"}) {
        const QString f = dir.filePath(QStringLiteral("light.") + QLatin1String(suffix));
        QVERIFY(plot.saveImage(f, 900, 500));
        QVERIFY2(QFileInfo(f).size() < 1500 * 1024,
                 qPrintable(QStringLiteral("%1: %2 bytes").arg(f).arg(QFileInfo(f).size())));
    }
    QFile svg(dir.filePath(QStringLiteral("light.svg")));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray text = svg.readAll();
    QVERIFY(text.contains("SYNTHETIC"));
    QVERIFY(text.contains("<image"));                              // the cloud
    QVERIFY(text.contains("<path") || text.contains("<polyline")); // frontier and axes: vector
    const QString png = dir.filePath(QStringLiteral("light.png"));
    QVERIFY(plot.saveImage(png, 900, 500));
    const QImage img(png);
    QCOMPARE(img.width(), 900);
    QVERIFY(img.height() > 500); // the caption under the 500-pixel plot
    int red = 0;
    for (int y = 500; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            red += c.red() > 120 && c.green() < 60 && c.blue() < 80;
        }
    QVERIFY2(red > 50, qPrintable(QString::number(red))); // the bold red caption text
}

void TestParetoPlot::pinsStayApartWhenTheyCoincide()
{
    // A recommendation pinned beside its uniform twin sits on the same pixel: the numbered
    // squares are moved apart on screen; a pin with room stays on its point.
    ParetoPlot plot;
    plot.resize(900, 600);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.setPoints(fixtures::randomPoints(200));
    plot.setAxis(LatencyAxis::Ttft);
    QCustomPlot* qcp = plot.customPlot();
    qcp->replot(QCustomPlot::rpImmediateRefresh);
    // Three pins on one point in the middle of the plot, one on its own.
    const double midX = (qcp->xAxis->range().lower + qcp->xAxis->range().upper) / 2;
    const double midY = (qcp->yAxis->range().lower + qcp->yAxis->range().upper) / 2;
    const double farX = qcp->xAxis->range().lower + 0.9 * qcp->xAxis->range().size();
    const double farY = qcp->yAxis->range().lower + 0.9 * qcp->yAxis->range().size();
    const MarkedPoint same{midX, 1, midY};
    plot.setPinned({same, same, {farX, 1, farY}, same});
    qcp->replot(QCustomPlot::rpImmediateRefresh);
    const std::vector<std::optional<QPointF>> at = plot.pinnedPixels();
    QCOMPARE(at.size(), std::size_t{4});
    const QPointF middle(qcp->xAxis->coordToPixel(midX), qcp->yAxis->coordToPixel(midY));
    const QPointF far(qcp->xAxis->coordToPixel(farX), qcp->yAxis->coordToPixel(farY));
    for (std::size_t i = 0; i < at.size(); ++i) {
        QVERIFY(at[i]);
        const QPointF point = i == 2 ? far : middle;
        // Within one ring of its point: three marks fit on the first ring.
        QVERIFY(std::hypot(at[i]->x() - point.x(), at[i]->y() - point.y()) <=
                ParetoPlot::kPinGap + 0.5);
        for (std::size_t j = i + 1; j < at.size(); ++j)
            QVERIFY2(std::hypot(at[i]->x() - at[j]->x(), at[i]->y() - at[j]->y()) >=
                         ParetoPlot::kPinGap - 0.5,
                     qPrintable(QStringLiteral("pins %1 and %2 overlap").arg(i + 1).arg(j + 1)));
    }
    QVERIFY(std::hypot(at[0]->x() - middle.x(), at[0]->y() - middle.y()) < 0.5);
    QVERIFY(std::hypot(at[2]->x() - far.x(), at[2]->y() - far.y()) < 0.5);
    // A resize moves the points: the squares follow at the next replot.
    plot.resize(700, 500);
    QApplication::processEvents();
    qcp->replot(QCustomPlot::rpImmediateRefresh);
    const QPointF moved(qcp->xAxis->coordToPixel(midX), qcp->yAxis->coordToPixel(midY));
    QVERIFY(std::hypot(plot.pinnedPixels()[0]->x() - moved.x(),
                       plot.pinnedPixels()[0]->y() - moved.y()) < 0.5);
}

ACSEL_TEST_MAIN(TestParetoPlot)
#include "test_paretoplot.moc"
