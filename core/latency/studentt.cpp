#include "core/latency/studentt.h"

#include <cmath>
#include <stdexcept>

namespace acsel
{
namespace
{

// Continued fraction of the incomplete beta function (Numerical Recipes 6.4, modified Lentz).
double betaFraction(double a, double b, double x)
{
    constexpr double tiny = 1e-300;
    const double qab = a + b, qap = a + 1.0, qam = a - 1.0;
    double c = 1.0, d = 1.0 - qab * x / qap;
    if (std::abs(d) < tiny)
        d = tiny;
    d = 1.0 / d;
    double h = d;
    for (int m = 1; m <= 300; ++m) {
        const double m2 = 2.0 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1.0 + aa * d;
        d = std::abs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = std::abs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1.0 + aa * d;
        d = std::abs(d) < tiny ? tiny : d;
        c = 1.0 + aa / c;
        c = std::abs(c) < tiny ? tiny : c;
        d = 1.0 / d;
        const double del = d * c;
        h *= del;
        if (std::abs(del - 1.0) < 1e-15)
            break;
    }
    return h;
}

// Regularized incomplete beta I_x(a, b).
double incompleteBeta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                  a * std::log(x) + b * std::log1p(-x));
    if (x < (a + 1.0) / (a + b + 2.0))
        return front * betaFraction(a, b, x) / a;
    return 1.0 - front * betaFraction(b, a, 1.0 - x) / b;
}

} // namespace

double studentTCdf(double t, int dof)
{
    if (dof < 1)
        throw std::invalid_argument("Student t needs at least one degree of freedom");
    const double v = dof;
    const double tail = 0.5 * incompleteBeta(v / 2.0, 0.5, v / (v + t * t));
    return t >= 0 ? 1.0 - tail : tail;
}

double studentTQuantile(double p, int dof)
{
    if (!(p > 0 && p < 1))
        throw std::invalid_argument("a quantile needs p in (0, 1)");
    if (dof < 1)
        throw std::invalid_argument("Student t needs at least one degree of freedom");
    if (p == 0.5)
        return 0.0;
    // Bracket: the t quantile grows at most like the Cauchy one (dof 1), tan(pi (p - 1/2)).
    double lo = -1.0, hi = 1.0;
    while (studentTCdf(lo, dof) > p)
        lo *= 2.0;
    while (studentTCdf(hi, dof) < p)
        hi *= 2.0;
    for (int i = 0; i < 200 && hi - lo > 1e-14 * std::max(1.0, std::abs(lo)); ++i) {
        const double mid = 0.5 * (lo + hi);
        (studentTCdf(mid, dof) < p ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

} // namespace acsel
