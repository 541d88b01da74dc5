// Fitting a release's request overhead (requestoverheadfit.h, docs/SERVING.md "Request overhead
// measured per release"): the whole ms minimising the MdAPE of estimate + h, its bound and
// tie rule, and the leave-one-sweep-out figure, each worked out by hand in the comments.
#include "core/latency/requestoverheadfit.h"
#include "testmain.h"

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace acsel;

class TestRequestOverheadFit : public QObject
{
    Q_OBJECT
private slots:
    void fitsTheMedianAndLeavesSweepsOut()
    {
        // APE(h): A |h - 100| / 200, B |h - 100| / 300, C |h - 200| / 500. At h = 100 A and B
        // are 0, so the median of three is 0: h = 100, MdAPE 0. Without it: 0.5, 0.333, 0.4
        // -> 40 %.
        const std::vector<OverheadSample> rows = {
            {100, 200, "s1"}, {200, 300, "s1"}, {300, 500, "s2"}};
        QCOMPARE(fitOverheadMs(rows), 100);
        const OverheadFit f = fitRequestOverhead(rows);
        QCOMPARE(f.rows, 3);
        QCOMPARE(f.sweeps, 2);
        QCOMPARE(f.overheadMs, 100);
        QVERIFY(std::abs(f.mdapeWithout - 40.0) < 1e-9);
        QVERIFY(std::abs(f.mdapeWith) < 1e-9);
        // s1 left out: fitted on C alone, h = 200: A |300 - 200| / 200 = 0.5, B 100 / 300.
        // s2 left out: A and B, the mean of their APEs is least at h = 100: C 100 / 500 = 0.2.
        // Median of 0.5, 0.333, 0.2: 33.3 %.
        QVERIFY(std::abs(f.heldOutMdape - 100.0 / 3.0) < 1e-9);
        QVERIFY(!f.enoughRows()); // fewer than kMinOverheadRows
    }

    void boundAndTies()
    {
        // 5000 ms missing: the fit stops at its bound, 1000 ms.
        QCOMPARE(fitOverheadMs(std::vector<OverheadSample>{{0, 5000, "s"}}), kMaxRequestOverheadMs);
        // Measured above the estimate already: h = 0 (APE (e + h - m) / m rises with h).
        QCOMPARE(fitOverheadMs(std::vector<OverheadSample>{{150, 100, "s"}}), 0);
        // 100.5 ms missing: h = 100 and 101 both leave 0.5 ms; the smaller wins.
        QCOMPARE(fitOverheadMs(std::vector<OverheadSample>{{0, 100.5, "s"}}), 100);
        // Nothing to fit on: 0, and the summary refuses.
        QCOMPARE(fitOverheadMs({}), 0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitRequestOverhead({}));
    }

    void oneSweepHasNoHeldOutFigure()
    {
        std::vector<OverheadSample> rows;
        for (int i = 0; i < kMinOverheadRows; ++i)
            rows.push_back({100.0 + i, 150.0 + i, "only"});
        const OverheadFit f = fitRequestOverhead(rows);
        QCOMPARE(f.overheadMs, 50); // every row 50 ms short
        QVERIFY(f.enoughRows());
        QCOMPARE(f.sweeps, 1);
        QVERIFY(std::isnan(f.heldOutMdape));
    }
};

ACSEL_TEST_APPLESS_MAIN(TestRequestOverheadFit)
#include "test_requestoverheadfit.moc"
