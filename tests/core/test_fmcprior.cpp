// The prior of the per-concurrency variances (fmcprior.h): digamma and trigamma against their
// closed forms, the inverse trigamma round trip, the prior's two parameters worked out by hand
// (equal variances: an infinite d0; log-variances -a, 0, a with a^2 = pi^2/3: d0 = 2, s0^2 = 1)
// and the posterior variance.
#include "core/latency/fmcprior.h"
#include "testmain.h"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

using namespace acsel;

namespace
{

constexpr double kEulerGamma = 0.57721566490153286;
constexpr double kPi = std::numbers::pi;

bool close(double a, double b, double tol = 1e-10)
{
    return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

} // namespace

class TestFmcPrior : public QObject
{
    Q_OBJECT
private slots:
    void digammaClosedForms();
    void trigammaClosedForms();
    void trigammaInverseRoundTrip();
    void equalVariancesGiveAnInfinitePrior();
    void spreadVariancesByHand();
    void fewOrBadVariances();
};

void TestFmcPrior::digammaClosedForms()
{
    QVERIFY(close(digamma(1), -kEulerGamma));                       // psi(1) = -gamma
    QVERIFY(close(digamma(0.5), -kEulerGamma - 2 * std::log(2.0))); // psi(1/2)
    // psi(10) = H_9 - gamma, H_9 = 7129 / 2520.
    QVERIFY(close(digamma(10), 7129.0 / 2520 - kEulerGamma));
    // psi(2.5) = psi(0.5) + 1/0.5 + 1/1.5
    QVERIFY(close(digamma(2.5), -kEulerGamma - 2 * std::log(2.0) + 2.0 + 1.0 / 1.5));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, digamma(0));
}

void TestFmcPrior::trigammaClosedForms()
{
    QVERIFY(close(trigamma(1), kPi * kPi / 6));
    QVERIFY(close(trigamma(0.5), kPi * kPi / 2));
    double tail = kPi * kPi / 6; // psi'(10) = pi^2/6 - sum_{k=1}^{9} 1/k^2
    for (int k = 1; k <= 9; ++k)
        tail -= 1.0 / (k * k);
    QVERIFY(close(trigamma(10), tail));
    QVERIFY(close(trigamma(1000), 1 / 1000.0 + 1 / 2e6 + 1 / 6e9, 1e-9)); // the series' head
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trigamma(-1));
}

void TestFmcPrior::trigammaInverseRoundTrip()
{
    for (double x : {0.01, 0.1, 1.0, 3.7, 50.0, 2e4})
        QVERIFY(close(trigammaInverse(trigamma(x)), x, 1e-9));
    QVERIFY(close(trigammaInverse(kPi * kPi / 6), 1.0, 1e-9));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trigammaInverse(0));
}

void TestFmcPrior::equalVariancesGiveAnInfinitePrior()
{
    // Three variances 0.04 with 2 dof: the e_g agree, so their variance (0) is below the
    // sampling variance trigamma(1): d0 infinite, s0^2 = exp(e) = 0.04 exp(-psi(1) + log 1)
    // = 0.04 e^gamma (log s^2 is biased low by psi(d/2) - log(d/2)).
    const std::vector<double> v{0.04, 0.04, 0.04};
    const std::vector<int> d{2, 2, 2};
    const std::optional<VariancePrior> p = estimateVariancePrior(v, d);
    QVERIFY(p);
    QVERIFY(std::isinf(p->dof));
    QVERIFY(close(p->variance, 0.04 * std::exp(kEulerGamma)));
    QCOMPARE(moderatedVariance(*p, 0.5, 2), p->variance); // every group gets the prior's
}

void TestFmcPrior::spreadVariancesByHand()
{
    // 2 dof each, log s^2 = -a, 0, a: e_g = log s^2 + gamma, sample variance (a^2 + a^2) / 2 =
    // a^2; minus the sampling variance trigamma(1) = pi^2/6. With a^2 = pi^2/3 that is pi^2/6 =
    // trigamma(1): d0 / 2 = 1, d0 = 2; s0^2 = exp(gamma + psi(1) - log 1) = 1.
    const double a = kPi / std::sqrt(3.0);
    const std::vector<double> v{std::exp(-a), 1.0, std::exp(a)};
    const std::vector<int> d{2, 2, 2};
    const std::optional<VariancePrior> p = estimateVariancePrior(v, d);
    QVERIFY(p);
    QVERIFY(close(p->dof, 2.0, 1e-9));
    QVERIFY(close(p->variance, 1.0, 1e-9));
    // Posterior of s^2 = e^a with 2 dof: (2 x 1 + 2 e^a) / 4.
    QVERIFY(close(moderatedVariance(*p, std::exp(a), 2), (1 + std::exp(a)) / 2, 1e-9));
    // More spread: d0 falls (the groups' own variances weigh more).
    const std::vector<double> wider{std::exp(-2 * a), 1.0, std::exp(2 * a)};
    QVERIFY(estimateVariancePrior(wider, d)->dof < 1.0);
}

void TestFmcPrior::fewOrBadVariances()
{
    const std::vector<double> two{0.1, 0.2};
    const std::vector<int> d2{3, 3};
    QVERIFY(!estimateVariancePrior(two, d2)); // fewer than 3 groups: no prior
    const std::vector<double> v{0.1, 0.0, 0.2};
    const std::vector<int> d{3, 3, 3};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimateVariancePrior(v, d));
    const std::vector<int> d0{3, 0, 3};
    const std::vector<double> ok{0.1, 0.1, 0.2};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimateVariancePrior(ok, d0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, estimateVariancePrior(ok, d2));
}

ACSEL_TEST_APPLESS_MAIN(TestFmcPrior)
#include "test_fmcprior.moc"
