// FMC that never hurts: the form chosen by cross-validated loss (cases worked out by hand),
// Student t quantiles against printed tables, the predictive spread recomputed by brute-force
// leave-one-out, the confidence-shifted line, and the coverage of the 90 % interval on data
// drawn from a known law.
#include "core/latency/fmcchoice.h"
#include "core/latency/studentt.h"
#include "testmain.h"

#include <cmath>
#include <numbers>
#include <random>

using namespace acsel;

namespace
{

std::vector<double> timesPow(const std::vector<double>& x, double a, double g)
{
    std::vector<double> y;
    for (double v : x)
        y.push_back(a * std::pow(v, g));
    return y;
}

constexpr std::size_t idx(FmcForm f)
{
    return static_cast<std::size_t>(f);
}

} // namespace

class TestFmcChoice : public QObject
{
    Q_OBJECT
private slots:
    void studentTMatchesTables();
    void exactDataPicksTheSimplestExactForm();
    void anOutlierDoesNotMoveARawEstimateThatIsRight();
    void fewProfilesAndRefusedLines();
    void spreadIsTheLeaveOneOutResidualScale();
    void confidenceShiftsDeltaByTheTQuantile();
    void ninetyPercentIntervalsCoverNinetyPercent();
    void foldsAboveTheLeaveOneOutLimit();
    void aLineBridgingTwoSweepsIsNotTrusted();
    void aFactorSharedBySweepsIsStillFound();
    void independentProfilesAreAMatching();
    void aConcurrencyIsLeftOutWithItsProfile();
    void theCautiousOffsetIsASignTestBound();
    void selectionAvoidsSharedSweepsAndLoads();
    void loadSpreadsByHand();
    void loadSpreadsOnlyWhenTheyDiffer();
    void aRowGetsItsLoadsInterval();
};

void TestFmcChoice::studentTMatchesTables()
{
    // Two-sided tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
    QVERIFY(std::abs(studentTQuantile(0.975, 1) - 12.706204736) < 1e-6);
    QVERIFY(std::abs(studentTQuantile(0.95, 5) - 2.015048373) < 1e-8);
    QVERIFY(std::abs(studentTQuantile(0.90, 10) - 1.372183641) < 1e-8);
    QVERIFY(std::abs(studentTQuantile(0.995, 30) - 2.749995654) < 1e-8);
    QVERIFY(std::abs(studentTQuantile(0.05, 5) + 2.015048373) < 1e-8);
    QCOMPARE(studentTQuantile(0.5, 3), 0.0);
    QVERIFY(std::abs(studentTQuantile(0.95, 1000000) - 1.644853627) < 1e-5); // the normal's
    QVERIFY(std::abs(studentTCdf(2.015048373, 5) - 0.95) < 1e-9);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, studentTQuantile(1.0, 3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, studentTQuantile(0.9, 0));
}

void TestFmcChoice::exactDataPicksTheSimplestExactForm()
{
    const std::vector<double> x{3, 10, 40, 200, 900};
    // measured = estimate: every form has loss 0, identity wins the tie.
    FmcChoice c = chooseFmc(x, x);
    QVERIFY(c.form == FmcForm::Identity && c.line.gamma == 1 && c.line.delta == 0);
    QCOMPARE(c.cvLoss[idx(FmcForm::Identity)], 0.0);
    // measured = 2 x estimate: identity loses 0.5 log 2 per point, offset and line are exact.
    c = chooseFmc(x, timesPow(x, 2, 1));
    QVERIFY(c.form == FmcForm::Offset);
    QVERIFY(std::abs(c.cvLoss[idx(FmcForm::Identity)] - 0.5 * std::log(2.0)) < 1e-12);
    QVERIFY(std::abs(c.line.delta - std::log(2.0)) < 1e-12 && c.line.gamma == 1);
    QCOMPARE(c.spread.scale, 0.0);
    // measured = 3 x estimate^0.5: only the line is exact out of sample, and on 10 profiles
    // its gain is significant (on these 5 it is not: t_4(0.975) = 2.78 standard errors).
    QVERIFY(chooseFmc(x, timesPow(x, 3, 0.5)).form != FmcForm::Line);
    const std::vector<double> x10{3, 6, 10, 20, 40, 90, 200, 400, 900, 2000};
    c = chooseFmc(x10, timesPow(x10, 3, 0.5));
    QVERIFY(c.form == FmcForm::Line);
    QVERIFY(std::abs(c.line.gamma - 0.5) < 1e-12 && std::abs(c.line.delta - std::log(3.0)) < 1e-12);
    QVERIFY(c.cvLoss[idx(FmcForm::Offset)] > 0 && c.cvLoss[idx(FmcForm::Line)] < 1e-12);
    QVERIFY(c.validation == FmcValidation::LeaveOneOut);
}

void TestFmcChoice::anOutlierDoesNotMoveARawEstimateThatIsRight()
{
    // Five rows the raw estimate gets right and one 10x off. Identity: loss 0.5 log 10 / 6.
    // Offset, leaving a clean row out: the median of the other ratios is 0 (exact); leaving the
    // outlier out: 0 again, error log 10. The same loss: identity wins the tie.
    const std::vector<double> x{5, 12, 30, 80, 300, 1000};
    std::vector<double> y = x;
    y[3] *= 10;
    const FmcChoice c = chooseFmc(x, y);
    QVERIFY(c.form == FmcForm::Identity);
    QVERIFY(std::abs(c.cvLoss[idx(FmcForm::Identity)] - 0.5 * std::log(10.0) / 6) < 1e-12);
    QVERIFY(std::abs(c.cvLoss[idx(FmcForm::Offset)] - c.cvLoss[idx(FmcForm::Identity)]) < 1e-12);
}

void TestFmcChoice::fewProfilesAndRefusedLines()
{
    const std::vector<double> one{100}, oneMeas{300};
    FmcChoice c = chooseFmc(one, oneMeas); // nothing can be validated on one profile
    QVERIFY(c.form == FmcForm::Identity && !c.spread.known());
    QVERIFY(std::isinf(c.cvLoss[idx(FmcForm::Offset)]) && std::isinf(c.cvLoss[idx(FmcForm::Line)]));
    // Two profiles 3x under: each left out, the other alone supports no shift at confidence 0.8
    // (P(Binomial(1, 0.5) >= 1) = 0.5), so the offset's leave-out loss is identity's: kept.
    const std::vector<double> two{100, 10}, twoMeas{300, 30};
    c = chooseFmc(two, twoMeas);
    QVERIFY(c.form == FmcForm::Identity && std::isinf(c.cvLoss[idx(FmcForm::Line)]));
    QCOMPARE(c.cvLoss[idx(FmcForm::Offset)], c.cvLoss[idx(FmcForm::Identity)]);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, c.spread.quantileOffset(0.9));
    // measured = 8 / estimate: the exact line has gamma -1, refused; offset or identity remain.
    const std::vector<double> x{1, 2, 4, 8}, y{8, 4, 2, 1};
    c = chooseFmc(x, y);
    QVERIFY(std::isinf(c.cvLoss[idx(FmcForm::Line)]));
    QVERIFY(c.form != FmcForm::Line && c.line.gamma == 1);
    // A line needing |delta| > kFmcMaxAbsDelta is refused too.
    const std::vector<double> big = timesPow(x, std::exp(kFmcMaxAbsDelta + 1), 0.5);
    c = chooseFmc(x, big);
    QVERIFY(std::isinf(c.cvLoss[idx(FmcForm::Line)]));
}

void TestFmcChoice::spreadIsTheLeaveOneOutResidualScale()
{
    std::mt19937_64 rng(2);
    std::lognormal_distribution<double> noise(0.0, 0.3);
    for (int trial = 0; trial < 30; ++trial) {
        std::vector<double> x, y;
        for (int i = 0; i < 7; ++i) {
            x.push_back(std::exp(0.8 * i + 0.1 * trial));
            y.push_back((trial % 3 == 0 ? 1.0 : 1.7) *
                        std::pow(x.back(), trial % 3 == 2 ? 0.8 : 1) * noise(rng));
        }
        const FmcChoice c = chooseFmc(x, y);
        double ss = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            std::vector<double> tx, ty;
            for (std::size_t j = 0; j < x.size(); ++j)
                if (j != i) {
                    tx.push_back(x[j]);
                    ty.push_back(y[j]);
                }
            const FmcLine l = c.form == FmcForm::Identity ? FmcLine{}
                              : c.form == FmcForm::Offset ? fitFmcCautiousOffset(tx, ty, 0.5, 0.8)
                                                          : fitFmc(tx, ty);
            const double r = std::log(y[i] / l.apply(x[i]));
            ss += r * r;
        }
        QCOMPARE(c.spread.profiles, 7);
        QCOMPARE(c.spread.dof, c.form == FmcForm::Line ? 5 : 6);
        QVERIFY(std::abs(c.spread.scale - std::sqrt(ss / 7)) < 1e-12);
    }
}

void TestFmcChoice::confidenceShiftsDeltaByTheTQuantile()
{
    const FmcLine line{0.9, 0.3};
    const FmcSpread spread{6, 5, 0.2};
    const double grow = std::sqrt(1.0 + 1.0 / 6);           // a new row's error beyond the fit's
    QCOMPARE(confidenceLine(line, spread, 0.5).delta, 0.3); // today's median gate
    const FmcLine p90 = confidenceLine(line, spread, 0.9);
    QCOMPARE(p90.gamma, 0.9);
    QVERIFY(std::abs(p90.delta - (0.3 + 1.475884049 * 0.2 * grow)) < 1e-8); // t_5(0.9)
    const LatencyInterval iv = predictiveInterval(line, spread, 100.0, 0.9);
    const double centre = line.apply(100.0), f = std::exp(2.015048373 * 0.2 * grow);
    QVERIFY(std::abs(iv.lowMs - centre / f) < 1e-9 * centre);
    QVERIFY(std::abs(iv.highMs - centre * f) < 1e-9 * centre);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             confidenceLine(line, FmcSpread{3, 1, 0.1}, 0.9));
}

// Measured = 1.5 estimate^0.9 x lognormal(0, 0.3): 6 profiles, the interval judged on 50 rows
// it never saw, 400 draws. The t factor makes it small-sample correct: without it (the normal
// 1.645) the same draws cover clearly less.
void TestFmcChoice::ninetyPercentIntervalsCoverNinetyPercent()
{
    std::mt19937_64 rng(17);
    std::lognormal_distribution<double> noise(0.0, 0.3);
    std::uniform_real_distribution<double> logx(0.0, 6.0);
    auto draw = [&](int n, std::vector<double>& x, std::vector<double>& y) {
        x.clear();
        y.clear();
        for (int i = 0; i < n; ++i) {
            x.push_back(std::exp(logx(rng)));
            y.push_back(1.5 * std::pow(x.back(), 0.9) * noise(rng));
        }
    };
    int inside = 0, insideNormal = 0, total = 0;
    std::vector<double> px, py, tx, ty;
    for (int rep = 0; rep < 400; ++rep) {
        draw(6, px, py);
        const FmcChoice c = chooseFmc(px, py);
        draw(50, tx, ty);
        for (std::size_t i = 0; i < tx.size(); ++i) {
            const LatencyInterval iv = predictiveInterval(c.line, c.spread, tx[i], 0.9);
            inside += ty[i] >= iv.lowMs && ty[i] <= iv.highMs;
            const double r = std::abs(std::log(ty[i] / c.line.apply(tx[i])));
            insideNormal += r <= 1.644853627 * c.spread.scale;
            ++total;
        }
    }
    const double coverage = static_cast<double>(inside) / total;
    const double normal = static_cast<double>(insideNormal) / total;
    QVERIFY2(coverage >= 0.85 && coverage <= 0.95, std::to_string(coverage).c_str());
    QVERIFY2(normal < coverage - 0.03,
             (std::to_string(normal) + " vs " + std::to_string(coverage)).c_str());
}

void TestFmcChoice::foldsAboveTheLeaveOneOutLimit()
{
    std::vector<double> x, y;
    for (int i = 0; i < kFmcLeaveOneOutMax + 36; ++i) {
        x.push_back(1.0 + i);
        y.push_back(2.0 * (1.0 + i));
    }
    const FmcChoice c = chooseFmc(x, y);
    QVERIFY(c.validation == FmcValidation::Folds);
    QVERIFY(c.form == FmcForm::Offset && std::abs(c.line.delta - std::log(2.0)) < 1e-12);
}

void TestFmcChoice::aLineBridgingTwoSweepsIsNotTrusted()
{
    // Two concurrency sweeps of five profiles: sweep a estimates 100 ms and measures 300 (3x
    // under), sweep b estimates 1000 and measures 1000. The line through both is exact: gamma
    // = log(10/3) / log 10, and leaving one profile out keeps it exact (its four sweep mates
    // stay in), so plain leave-one-out picks it: identity's loss is 0.5 log 3 on half the
    // profiles, the line's 0, t_9(0.975) = 2.26 standard errors are beaten.
    std::vector<double> x, y;
    std::vector<FmcProfileKey> sweep; // loads unknown (empty): shared with no other profile
    for (int i = 0; i < 5; ++i) {
        x.insert(x.end(), {100.0, 1000.0});
        y.insert(y.end(), {300.0, 1000.0});
        sweep.insert(sweep.end(), {{"a", ""}, {"b", ""}});
    }
    const double log3 = std::log(3.0);
    FmcChoice c = chooseFmc(x, y);
    QVERIFY(c.form == FmcForm::Line && c.validation == FmcValidation::LeaveOneOut);
    QVERIFY(std::abs(c.line.gamma - std::log(10.0 / 3.0) / std::log(10.0)) < 1e-12);
    // Leaving a profile out with its sweep, the other sweep alone gives the offset its own
    // ratio: every profile is then off by a factor 3 (loss 0.5 log 3), worse than identity
    // (0.25 log 3). Two sweeps are 2 independent profiles: no line (it needs 6).
    c = chooseFmc(x, y, 0.5, sweep);
    QVERIFY(c.form == FmcForm::Identity && c.validation == FmcValidation::LeaveOneSweepOut);
    QCOMPARE(c.independent, 2);
    QVERIFY(std::abs(c.cvLoss[idx(FmcForm::Identity)] - 0.25 * log3) < 1e-12);
    QVERIFY(std::abs(c.cvLoss[idx(FmcForm::Offset)] - 0.5 * log3) < 1e-12);
    QVERIFY(std::isinf(c.cvLoss[idx(FmcForm::Line)]));
    // The interval is judged on the raw residuals: half log 3, half 0.
    QVERIFY(std::abs(c.spread.scale - log3 / std::sqrt(2.0)) < 1e-12 && c.spread.dof == 9);
    // One sweep for all profiles: none can be predicted from another sweep, nothing validated.
    c = chooseFmc(x, y, 0.5, std::vector<FmcProfileKey>(x.size(), {"a", ""}));
    QVERIFY(c.form == FmcForm::Identity && c.validated == 0 && c.independent == 1);
    QVERIFY(std::isinf(c.cvLoss[idx(FmcForm::Offset)]));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        chooseFmc(x, y, 0.5, std::vector<FmcProfileKey>{{"a", ""}, {"b", ""}}));
}

void TestFmcChoice::aFactorSharedBySweepsIsStillFound()
{
    // Three sweeps of three profiles, every one measured at twice its estimate: leaving a sweep
    // out, the cautious offset on the other six is still log 2 (its 2nd smallest ratio:
    // P(Binomial(6, 0.5) >= 2) = 0.89 >= 0.8), exact on the held-out sweep (loss 0 against
    // identity's 0.5 log 2 on every profile: a gain with zero spread). Three independent
    // profiles: no line.
    std::vector<double> x, y;
    std::vector<FmcProfileKey> sweep;
    for (const char* s : {"a", "b", "c"})
        for (double est : {50.0, 120.0, 400.0}) {
            x.push_back(est * (s[0] - 'a' + 1));
            y.push_back(2 * x.back());
            sweep.push_back({s, ""});
        }
    const FmcChoice c = chooseFmc(x, y, 0.5, sweep);
    QVERIFY(c.validation == FmcValidation::LeaveOneSweepOut && c.form == FmcForm::Offset);
    QVERIFY(std::abs(c.line.delta - std::log(2.0)) < 1e-12);
    QVERIFY(std::abs(c.cvLoss[idx(FmcForm::Identity)] - 0.5 * std::log(2.0)) < 1e-12);
    QVERIFY(std::abs(c.cvLoss[idx(FmcForm::Offset)]) < 1e-12);
    QVERIFY(std::isinf(c.cvLoss[idx(FmcForm::Line)]) && c.independent == 3);
}

void TestFmcChoice::independentProfilesAreAMatching()
{
    // Sweeps a, b, c and loads 1, 2: profiles a1, a2, b1, c1. No three are pairwise apart (two
    // loads), a2 + b1 are: 2. Without keys every profile counts.
    const std::vector<FmcProfileKey> k{{"a", "1"}, {"a", "2"}, {"b", "1"}, {"c", "1"}};
    QCOMPARE(independentProfiles(k, k.size()), 2);
    QCOMPARE(independentProfiles({}, 4), 4);
    // Greedy a1 first would block both a2-less choices; the matching still finds a2 + b1 + c3.
    const std::vector<FmcProfileKey> k3{{"a", "1"}, {"a", "2"}, {"b", "1"}, {"c", "3"}};
    QCOMPARE(independentProfiles(k3, k3.size()), 3);
    // Empty fields are shared with nobody.
    const std::vector<FmcProfileKey> unknown{{"", "1"}, {"", "1"}, {"x", ""}};
    QCOMPARE(independentProfiles(unknown, unknown.size()), 2);
}

void TestFmcChoice::aConcurrencyIsLeftOutWithItsProfile()
{
    // Six sweeps at two concurrencies: at c8 measured 3x the estimate, at c64 1x. Leaving a
    // profile out with its sweep and concurrency leaves the three of the other concurrency:
    // the offset predicts c8 from c64 (shift 0) and c64 from c8 (log 3, the smallest of three
    // equal ratios: P(Binomial(3, .5) >= 1) = 0.875): each off by log 3, loss 0.5 log 3,
    // worse than identity (0.25 log 3). Left out by sweep only it would look exact.
    const std::vector<double> x{100, 200, 300, 400, 500, 600};
    const std::vector<double> y{300, 600, 900, 400, 500, 600};
    const std::vector<FmcProfileKey> k{{"a", "c8"},  {"b", "c8"},  {"c", "c8"},
                                       {"d", "c64"}, {"e", "c64"}, {"f", "c64"}};
    const FmcChoice c = chooseFmc(x, y, 0.5, k);
    QCOMPARE(c.independent, 2);
    QCOMPARE(c.validated, 6);
    QVERIFY(c.form == FmcForm::Identity);
    const double log3 = std::log(3.0);
    QVERIFY(std::abs(c.cvLoss[idx(FmcForm::Identity)] - 0.25 * log3) < 1e-12);
    QVERIFY(std::abs(c.cvLoss[idx(FmcForm::Offset)] - 0.5 * log3) < 1e-12);
    QVERIFY(c.why.rfind("identity kept", 0) == 0);
    QVERIFY(c.why.find("offset 0.549 >= identity 0.275") != std::string::npos);
}

void TestFmcChoice::theCautiousOffsetIsASignTestBound()
{
    // Ratios log(y/x) = 0.1, 0.2, 0.3, 0.4, 0.5: at 0.8, P(Bin(5, .5) >= 2) = 0.8125 and
    // P(>= 3) = 0.5: the 2nd smallest, 0.2. At 0.95: P(>= 1) = 0.969, the smallest.
    std::vector<double> x(5, 100.0), y;
    for (double r : {0.3, 0.1, 0.5, 0.2, 0.4})
        y.push_back(100.0 * std::exp(r));
    QVERIFY(std::abs(fitFmcCautiousOffset(x, y, 0.5, 0.8).delta - 0.2) < 1e-12);
    QVERIFY(std::abs(fitFmcCautiousOffset(x, y, 0.5, 0.95).delta - 0.1) < 1e-12);
    // Mirrored: -0.2. Both bounds (2nd smallest -0.1, 2nd largest 0.4) across 0: no shift.
    std::vector<double> below, mixed;
    for (double v : y)
        below.push_back(100.0 * 100.0 / v);
    QVERIFY(std::abs(fitFmcCautiousOffset(x, below, 0.5, 0.8).delta + 0.2) < 1e-12);
    for (double r : {-0.3, -0.1, 0.5, 0.2, 0.4})
        mixed.push_back(100.0 * std::exp(r));
    QCOMPARE(fitFmcCautiousOffset(x, mixed, 0.5, 0.8).delta, 0.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fitFmcCautiousOffset(x, y, 0.5, 1.0));
}

void TestFmcChoice::selectionAvoidsSharedSweepsAndLoads()
{
    // Six candidates in two strata of three (by estimate): the first stratum all at load c1,
    // the second c1, c1, c8. Whatever the first pick (a c1 run), the second stratum has one run
    // at another load and sweep: c8's. Every seed gives 2 independent profiles.
    const std::vector<double> est{1, 2, 3, 4, 5, 6};
    const std::vector<FmcProfileKey> k{{"a", "c1"}, {"b", "c1"}, {"c", "c1"},
                                       {"d", "c1"}, {"e", "c1"}, {"f", "c8"}};
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const std::vector<int> p = selectIndependent(est, k, 2, seed);
        QCOMPARE(p.size(), std::size_t{2});
        QVERIFY(p[0] <= 2 && p[1] == 5);
    }
    QCOMPARE(selectIndependent(est, k, 9, 1).size(), std::size_t{6}); // k >= n: all
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             selectIndependent(est, std::vector<FmcProfileKey>(2), 2, 1));
}

namespace
{

// Residuals centre + k x {-2, -1, 0, 1, 2} at one load: median `centre`, variance around it
// 10 k^2 / 4 (4 dof), k chosen to give `variance`.
void addLoad(std::vector<double>& r, std::vector<FmcProfileKey>& keys, const std::string& load,
             double centre, double variance)
{
    const double k = std::sqrt(variance / 2.5);
    for (int i = -2; i <= 2; ++i) {
        r.push_back(centre + k * i);
        keys.push_back({load + "s" + std::to_string(i), load});
    }
}

// Three loads of 5 residuals, variances e^-a, 1, e^a with a^2 = pi^2/3 - 1 (4 dof each):
// e_g = log s^2 - psi(2) + log 2 has sample variance a^2, less the sampling variance
// trigamma(2) = pi^2/6 - 1 leaves pi^2/6 = trigamma(1): d0 = 2; s0^2 = exp(mean e_g + psi(1) -
// log 1) = exp(-(1 - gamma) + log 2 - gamma) = 2 / e (psi(2) = 1 - gamma, psi(1) = -gamma).
const double kSpreadA = std::sqrt(std::numbers::pi * std::numbers::pi / 3 - 1);

} // namespace

void TestFmcChoice::loadSpreadsByHand()
{
    std::vector<double> r;
    std::vector<FmcProfileKey> keys;
    addLoad(r, keys, "c1", 0.5, std::exp(-kSpreadA));
    addLoad(r, keys, "c2", 0.0, 1.0);
    addLoad(r, keys, "c4", -0.3, std::exp(kSpreadA));
    // Not counted in any load: a NaN residual (not validated) and one without a load.
    r.push_back(std::nan(""));
    keys.push_back({"u", "c1"});
    r.push_back(7);
    keys.push_back({"v", ""});
    const std::vector<FmcLoadSpread> l = loadSpreads(r, keys);
    QCOMPARE(l.size(), std::size_t{3});
    const double s0sq = 2 / std::exp(1.0);
    const double variance[] = {std::exp(-kSpreadA), 1.0, std::exp(kSpreadA)};
    const double centre[] = {0.5, 0.0, -0.3};
    for (std::size_t g = 0; g < 3; ++g) {
        QVERIFY(std::abs(l[g].centre - centre[g]) < 1e-12);
        QCOMPARE(l[g].spread.profiles, 5);
        QCOMPARE(l[g].spread.dof, 6); // d0 + d = 2 + 4, below the 16 - 1 residuals
        // Posterior (d0 s0^2 + d s^2) / (d0 + d).
        const double want = std::sqrt((2 * s0sq + 4 * variance[g]) / 6);
        QVERIFY(std::abs(l[g].spread.scale - want) < 1e-9);
    }
    QCOMPARE(l[0].load, std::string("c1"));
    QVERIFY(loadSpreads(r, {}).empty());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, loadSpreads(r, std::span(keys).first(3)));
}

void TestFmcChoice::loadSpreadsOnlyWhenTheyDiffer()
{
    // Equal variances 0.025 (4 dof) at three loads: their log-variances vary less than
    // sampling alone would, d0 infinite (fmcprior.h), s0^2 = exp(log 0.025 - psi(2) + log 2) =
    // 0.025 x 2 e^(gamma - 1) = 0.032761 (psi(2) = 1 - gamma). Centres all 0: the loads agree in
    // centre too, so none gets a spread of its own (the stack's interval).
    std::vector<double> r;
    std::vector<FmcProfileKey> keys;
    for (const char* load : {"c1", "c2", "c4"})
        addLoad(r, keys, load, 0.0, 0.025);
    QVERIFY(loadSpreads(r, keys).empty());
    // Centres 0.5, 0, -0.3: mean square 0.34 / 3 = 0.113 above the median's sampling variance
    // pi/2 x 0.032761 / 5 = 0.0103: each load its centre, s0 and the stack's 15 - 1 dof.
    r.clear();
    keys.clear();
    const double centre[] = {0.5, 0.0, -0.3};
    addLoad(r, keys, "c1", centre[0], 0.025);
    addLoad(r, keys, "c2", centre[1], 0.025);
    addLoad(r, keys, "c4", centre[2], 0.025);
    const std::vector<FmcLoadSpread> l = loadSpreads(r, keys);
    QCOMPARE(l.size(), std::size_t{3});
    const double s0 = std::sqrt(0.025 * 2 * std::exp(0.57721566490153286 - 1));
    for (std::size_t g = 0; g < 3; ++g) {
        QVERIFY(std::abs(l[g].centre - centre[g]) < 1e-12);
        QCOMPARE(l[g].spread.dof, 14);
        QVERIFY(std::abs(l[g].spread.scale - s0) < 1e-9);
    }
    // Two loads, however different: too few to estimate the prior, the stack's interval.
    std::vector<double> r2;
    std::vector<FmcProfileKey> keys2;
    addLoad(r2, keys2, "c1", 0.5, 0.01);
    addLoad(r2, keys2, "c2", 0.0, 1.0);
    QVERIFY(loadSpreads(r2, keys2).empty());
}

void TestFmcChoice::aRowGetsItsLoadsInterval()
{
    const FmcSpread stack{20, 19, 0.5};
    const std::vector<FmcLoadSpread> loads{{"c8", 0.3, {5, 4, 0.1}}};
    const FmcRowSpread at8 = rowSpread(loads, stack, "c8");
    const FmcRowSpread at64 = rowSpread(loads, stack, "c64");
    QCOMPARE(at8.centre, 0.3);
    QCOMPARE(at8.spread.scale, 0.1);
    QCOMPARE(at64.centre, 0.0);
    QCOMPARE(at64.spread.scale, 0.5);
    // At c8 the 90 % interval of estimate 100 on the identity line: 100 e^0.3 x/ e^(t_4(0.95)
    // 0.1 sqrt(1 + 1/5)), t_4(0.95) = 2.1318 (printed tables).
    const double half = 2.1318 * 0.1 * std::sqrt(1.2);
    const LatencyInterval iv = predictiveInterval(FmcLine{}, at8, 100.0, 0.9);
    QVERIFY(std::abs(iv.lowMs - 100 * std::exp(0.3 - half)) < 1e-3);
    QVERIFY(std::abs(iv.highMs - 100 * std::exp(0.3 + half)) < 1e-3);
    // The gate's 0.9-quantile line: t_4(0.9) = 1.5332.
    const FmcLine q = confidenceLine(FmcLine{1.0, 0.2}, at8, 0.9);
    QCOMPARE(q.gamma, 1.0);
    QVERIFY(std::abs(q.delta - (0.2 + 0.3 + 1.5332 * 0.1 * std::sqrt(1.2))) < 1e-4);
    // chooseFmc fills them from the chosen form's residuals: here every profile of one sweep and
    // the identity kept (no two profiles independent), so the raw log ratios themselves, at
    // three loads with the variances of loadSpreadsByHand.
    std::vector<double> r, x, y;
    std::vector<FmcProfileKey> keys;
    addLoad(r, keys, "c1", 0.5, std::exp(-kSpreadA));
    addLoad(r, keys, "c2", 0.0, 1.0);
    addLoad(r, keys, "c4", -0.3, std::exp(kSpreadA));
    for (std::size_t i = 0; i < r.size(); ++i) {
        x.push_back(100.0 * static_cast<double>(i + 1));
        y.push_back(x.back() * std::exp(r[i]));
        keys[i].sweep = "s";
    }
    const FmcChoice c = chooseFmc(x, y, 0.5, keys);
    QVERIFY(c.form == FmcForm::Identity);
    QCOMPARE(c.loads.size(), std::size_t{3});
    QVERIFY(std::abs(c.loads[2].centre - (-0.3)) < 1e-12);
}

ACSEL_TEST_APPLESS_MAIN(TestFmcChoice)
#include "test_fmcchoice.moc"
