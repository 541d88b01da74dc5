// ParetoPlot and its scoring against brute force: feasibility, the frontier by the Pareto
// definition, the normalised axis, clicking a point, and saving in three formats.
#include "widgetfixtures.h"
#include "widgets/paretoplot.h"
#include "widgets/plotcolours.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
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

QTEST_MAIN(TestParetoPlot)
#include "test_paretoplot.moc"
