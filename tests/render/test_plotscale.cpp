// PlotScale by hand: linear and log mappings onto pixels (y drawn upwards), tick choices and
// labels (no exponent, no locale), and padded ranges.
#include "render/plotscale.h"
#include "testmain.h"

#include <clocale>
#include <stdexcept>

using namespace acsel::render;

class TestPlotScale : public QObject
{
    Q_OBJECT
private slots:
    void linearMapsEndsAndMiddle()
    {
        const PlotScale x(0, 10, 100, 600, false);
        QCOMPARE(x.pixel(0), 100.0);
        QCOMPARE(x.pixel(10), 600.0);
        QCOMPARE(x.pixel(2.5), 225.0);
        const PlotScale y(0, 0.2, 500, 100, false); // upwards
        QCOMPARE(y.pixel(0.1), 300.0);
    }

    void logMapsDecadesEvenly()
    {
        const PlotScale x(0.1, 10, 0, 200, true);
        QCOMPARE(x.pixel(1), 100.0);
        QCOMPARE(x.pixel(10), 200.0);
        QVERIFY(qAbs(x.pixel(std::sqrt(10.0)) - 150.0) < 1e-9);
    }

    void rejectsImpossibleRanges()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PlotScale(0, 1, 0, 1, true));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, PlotScale(2, 1, 0, 1, false));
    }

    void linearTicksAreRoundSteps()
    {
        const std::vector<double> want{0, 0.02, 0.04, 0.06, 0.08, 0.1};
        const std::vector<double> got = PlotScale(-0.004, 0.104, 0, 1, false).ticks();
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            QVERIFY(qAbs(got[i] - want[i]) < 1e-12);
        QCOMPARE(PlotScale(0, 7, 0, 1, false).ticks(),
                 (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
        QCOMPARE(PlotScale(0, 35, 0, 1, false).ticks(),
                 (std::vector<double>{0, 5, 10, 15, 20, 25, 30, 35}));
    }

    void logTicksAreOneTwoFive()
    {
        const std::vector<double> got = PlotScale(0.15, 3, 0, 1, true).ticks();
        const std::vector<double> want{0.2, 0.5, 1, 2};
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i)
            QVERIFY(qAbs(got[i] - want[i]) < 1e-12);
        // Beyond three decades only the powers of ten.
        QCOMPARE(PlotScale(0.001, 50, 0, 1, true).ticks().size(), std::size_t{5});
    }

    void labelsHaveNoExponentAndNoLocale()
    {
        std::setlocale(LC_ALL, "de_DE.UTF-8"); // a decimal comma, where installed
        QCOMPARE(tickLabel(0.05), std::string("0.05"));
        QCOMPARE(tickLabel(2500), std::string("2500"));
        QCOMPARE(tickLabel(0.00002), std::string("0.00002"));
        QCOMPARE(tickLabel(0), std::string("0"));
        std::setlocale(LC_ALL, "C");
    }

    void paddedRanges()
    {
        const Range lin = paddedRange({1, 3}, 0.25, false);
        QCOMPARE(lin.lo, 0.5);
        QCOMPARE(lin.hi, 3.5);
        const Range log = paddedRange({1, 100}, 0.25, true); // half a decade each side
        QVERIFY(qAbs(log.lo - std::pow(10.0, -0.5)) < 1e-12);
        QVERIFY(qAbs(log.hi - std::pow(10.0, 2.5)) < 1e-9);
        const Range one = paddedRange({4}, 0.25, false);
        QVERIFY(one.lo < 4 && one.hi > 4);
    }
};

ACSEL_TEST_GUILESS_MAIN(TestPlotScale)
#include "test_plotscale.moc"
