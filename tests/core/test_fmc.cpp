// FMC: exact pinball regression (recovers a known line through outliers where least squares
// does not; never beaten by a brute-force scan; tau > 0.5 lies above more points), the
// degenerate cases, stratified profile selection, MdAPE, and the LR baseline.
#include "core/latency/fmc.h"
#include "core/latency/linearbaseline.h"
#include "testmain.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

using namespace acsel;

namespace
{

double rho(double u, double tau)
{
    return u >= 0 ? tau * u : (tau - 1) * u;
}

// The best loss for a fixed gamma: delta at a tau-quantile of the residuals.
double bestLossAtGamma(double gamma, const std::vector<double>& x, const std::vector<double>& y,
                       double tau)
{
    std::vector<double> r;
    for (std::size_t i = 0; i < x.size(); ++i)
        r.push_back(std::log(y[i]) - gamma * std::log(x[i]));
    double best = 1e300;
    for (double delta : r) { // an optimal delta is one of the residuals
        double l = 0;
        for (double v : r)
            l += rho(v - delta, tau);
        best = std::min(best, l);
    }
    return best;
}

struct Data {
    std::vector<double> est, meas;
};

Data lineWithOutliers(double gamma, double delta, int n, int outliers, std::uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> logx(std::log(5.0), std::log(5000.0));
    Data d;
    for (int i = 0; i < n; ++i) {
        const double x = std::exp(logx(rng));
        double y = std::exp(gamma * std::log(x) + delta);
        if (i % (n / outliers) == 0)
            y *= 20.0; // queueing-like outliers, all on one side
        d.est.push_back(x);
        d.meas.push_back(y);
    }
    return d;
}

} // namespace

class TestFmc : public QObject
{
    Q_OBJECT
private slots:
    void recoversKnownLineDespiteOutliers();
    void equalsBruteForceOptimum();
    void descentEqualsEveryPairOnLargeInputs();
    void higherTauLiesAboveMorePoints();
    void degenerateInputs();
    void stratifiedSelection();
    void mdapeByHand();
    void linearBaselineFitsALinearLaw();
};

void TestFmc::recoversKnownLineDespiteOutliers()
{
    const Data d = lineWithOutliers(0.7, 1.3, 40, 10, 1); // 10 of 40 points are x20 outliers
    const FmcLine f = fitFmc(d.est, d.meas, 0.5);
    QVERIFY2(std::abs(f.gamma - 0.7) < 1e-9, std::to_string(f.gamma).c_str());
    QVERIFY(std::abs(f.delta - 1.3) < 1e-9);
    const FmcLine mse = fitFmcMse(d.est, d.meas);
    const double truth = std::exp(0.7 * std::log(100.0) + 1.3);
    QVERIFY2(mse.apply(100.0) > 1.5 * truth, ("least squares is pulled up by the outliers: " +
                                              std::to_string(mse.apply(100.0) / truth))
                                                 .c_str());
    // Calibrated prediction of a clean point is exact.
    QVERIFY(std::abs(f.apply(100.0) - truth) < 1e-9 * truth);
}

void TestFmc::equalsBruteForceOptimum()
{
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> noise(0.0, 0.4);
    std::uniform_real_distribution<double> logx(0.0, 6.0);
    for (int trial = 0; trial < 20; ++trial) {
        Data d;
        const int n = 3 + trial % 9;
        for (int i = 0; i < n; ++i) {
            const double x = std::exp(logx(rng));
            d.est.push_back(x);
            d.meas.push_back(std::pow(x, 0.8) * 3.0 * noise(rng));
        }
        for (double tau : {0.5, 0.8}) {
            const FmcLine f = fitFmc(d.est, d.meas, tau);
            const double exact = pinballLoss(f, d.est, d.meas, tau);
            double scanBest = 1e300;
            for (int g = -4000; g <= 4000; ++g) { // gamma in [-4, 4], step 0.001
                const double l = bestLossAtGamma(g * 0.001, d.est, d.meas, tau);
                QVERIFY2(exact <= l + 1e-9, "a scanned line beats the exact fit");
                scanBest = std::min(scanBest, l);
            }
            QVERIFY(scanBest - exact < 1e-2);
        }
    }
}

// Above kFmcPairwiseMax points fitFmc descends over vertices; its loss must equal the best
// line through any two points (the O(n^3) reference here), also with tied estimates and
// exactly collinear points.
void TestFmc::descentEqualsEveryPairOnLargeInputs()
{
    std::mt19937_64 rng(11);
    std::lognormal_distribution<double> noise(0.0, 0.5);
    std::uniform_real_distribution<double> logx(0.0, 7.0);
    for (int trial = 0; trial < 9; ++trial) {
        Data d;
        const int n = kFmcPairwiseMax + 1 + 11 * trial;
        for (int i = 0; i < n; ++i) {
            // Every third trial: estimates on a grid of 8 values (many ties), half the points
            // exactly on the line.
            const double x = trial % 3 == 2 ? std::exp(1.0 + i % 8) : std::exp(logx(rng));
            const double e = trial % 3 == 2 && i % 2 == 0 ? 1.0 : noise(rng);
            d.est.push_back(x);
            d.meas.push_back(std::pow(x, 0.6 + 0.05 * trial) * 2.0 * e * (i % 9 == 0 ? 15 : 1));
        }
        for (double tau : {0.5, 0.3, 0.8}) {
            const FmcLine f = fitFmc(d.est, d.meas, tau);
            double best = 1e300;
            for (std::size_t i = 0; i < d.est.size(); ++i)
                for (std::size_t j = i + 1; j < d.est.size(); ++j) {
                    const double xi = std::log(d.est[i]), xj = std::log(d.est[j]);
                    if (xi == xj)
                        continue;
                    const double g = (std::log(d.meas[j]) - std::log(d.meas[i])) / (xj - xi);
                    const FmcLine l{g, std::log(d.meas[i]) - g * xi};
                    best = std::min(best, pinballLoss(l, d.est, d.meas, tau));
                }
            const double got = pinballLoss(f, d.est, d.meas, tau);
            QVERIFY2(got <= best * (1 + 1e-10) + 1e-12,
                     (std::to_string(n) + " points, tau " + std::to_string(tau) + ": " +
                      std::to_string(got) + " vs best " + std::to_string(best))
                         .c_str());
        }
    }
    // The known line through 25 % outliers, recovered exactly by the descent too.
    const Data big = lineWithOutliers(0.7, 1.3, 400, 100, 5);
    const FmcLine f = fitFmc(big.est, big.meas, 0.5);
    QVERIFY2(std::abs(f.gamma - 0.7) < 1e-9, std::to_string(f.gamma).c_str());
    QVERIFY(std::abs(f.delta - 1.3) < 1e-9);
}

void TestFmc::higherTauLiesAboveMorePoints()
{
    std::mt19937_64 rng(3);
    std::lognormal_distribution<double> noise(0.0, 0.5);
    Data d;
    for (int i = 1; i <= 30; ++i) {
        d.est.push_back(10.0 * i);
        d.meas.push_back(10.0 * i * noise(rng));
    }
    auto below = [&](const FmcLine& f) {
        int n = 0;
        for (std::size_t i = 0; i < d.est.size(); ++i)
            n += d.meas[i] <= f.apply(d.est[i]) * (1 + 1e-12);
        return n;
    };
    const int median = below(fitFmc(d.est, d.meas, 0.5));
    const int conservative = below(fitFmc(d.est, d.meas, 0.8));
    QVERIFY2(conservative > median,
             (std::to_string(conservative) + " vs " + std::to_string(median)).c_str());
    QVERIFY(conservative >= 24); // at least 80% of 30 points under the 0.8-quantile line
    QVERIFY(median >= 15);
}

void TestFmc::degenerateInputs()
{
    const std::vector<double> one{100.0}, oneMeas{50.0};
    const FmcLine f = fitFmc(one, oneMeas);
    QCOMPARE(f.gamma, 1.0);
    QVERIFY(std::abs(f.apply(100.0) - 50.0) < 1e-9);
    // All estimates equal: gamma 1, delta the median of log(meas / est) (lower median).
    const std::vector<double> same{10, 10, 10}, meas{20, 40, 80};
    const FmcLine g = fitFmc(same, meas);
    QCOMPARE(g.gamma, 1.0);
    QVERIFY(std::abs(g.apply(10.0) - 40.0) < 1e-9);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             fitFmc(std::vector<double>{}, std::vector<double>{}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitFmc(same, std::vector<double>{1, 2}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitFmc(same, std::vector<double>{1, -2, 3}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitFmc(same, meas, 1.0));
}

void TestFmc::stratifiedSelection()
{
    std::vector<double> est;
    for (int i = 0; i < 50; ++i)
        est.push_back(std::exp(0.1 * ((i * 37) % 50))); // a permutation of increasing values
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
        const std::vector<int> pick = selectStratified(est, 5, seed);
        QCOMPARE(pick.size(), std::size_t{5});
        QVERIFY(std::is_sorted(pick.begin(), pick.end()));
        // One pick per stratum of 10 ranks: rank of est[i] is (i * 37) % 50.
        std::vector<int> strata;
        for (int i : pick)
            strata.push_back(((i * 37) % 50) / 10);
        std::sort(strata.begin(), strata.end());
        QVERIFY(strata == (std::vector<int>{0, 1, 2, 3, 4}));
        QVERIFY(selectStratified(est, 5, seed) == pick); // deterministic
    }
    QVERIFY(selectStratified(est, 5, 0) != selectStratified(est, 5, 1));
    QCOMPARE(selectStratified(est, 60, 0).size(), std::size_t{50});
}

void TestFmc::mdapeByHand()
{
    // Errors 10%, 50%, 20%, 0%: median of {0, 10, 20, 50} = 15.
    const std::vector<double> p{110, 150, 80, 7}, m{100, 100, 100, 7};
    QCOMPARE(mdape(p, m), 15.0);
    const std::vector<double> p3{110, 150, 80}, m3{100, 100, 100};
    QCOMPARE(mdape(p3, m3), 20.0);
}

void TestFmc::linearBaselineFitsALinearLaw()
{
    // T = 5 + 2 roofline + 0.1 batch + 0.01 isl; osl and weights constant (dropped).
    std::vector<LrFeatures> f;
    std::vector<double> y;
    for (int i = 0; i < 12; ++i) {
        const LrFeatures x{1.0 + i, double(1 << (i % 4)), 128.0 * (1 + i % 3), 64, 16};
        f.push_back(x);
        y.push_back(5 + 2 * x[0] + 0.1 * x[1] + 0.01 * x[2]);
    }
    const LinearBaseline lr = LinearBaseline::fit(f, y);
    const LrFeatures q{20, 16, 1000, 64, 16};
    QVERIFY(std::abs(lr.predict(q) - (5 + 40 + 1.6 + 10)) < 1e-8);
    // Fewer rows than features: still defined (minimum norm), exact on the rows it saw.
    const LinearBaseline few = LinearBaseline::fit(std::span(f).first(3), std::span(y).first(3));
    for (int i = 0; i < 3; ++i)
        QVERIFY(std::abs(few.predict(f[static_cast<std::size_t>(i)]) -
                         y[static_cast<std::size_t>(i)]) < 1e-8);
}

ACSEL_TEST_APPLESS_MAIN(TestFmc)
#include "test_fmc.moc"
