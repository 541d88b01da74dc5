#include "core/latency/fmcprior.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace acsel
{

double digamma(double x)
{
    if (!(x > 0) || !std::isfinite(x))
        throw std::invalid_argument("digamma needs a finite x > 0");
    double shift = 0; // psi(x) = psi(x + 1) - 1 / x
    for (; x < 6; x += 1)
        shift -= 1 / x;
    const double f = 1 / (x * x);
    return shift + std::log(x) - 0.5 / x -
           f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

double trigamma(double x)
{
    if (!(x > 0) || !std::isfinite(x))
        throw std::invalid_argument("trigamma needs a finite x > 0");
    double shift = 0; // psi'(x) = psi'(x + 1) + 1 / x^2
    for (; x < 6; x += 1)
        shift += 1 / (x * x);
    const double f = 1 / (x * x);
    return shift + 1 / x + f / 2 +
           f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30 - f * 5.0 / 66))));
}

double trigammaInverse(double y)
{
    if (!(y > 0) || !std::isfinite(y))
        throw std::invalid_argument("the inverse trigamma needs a finite y > 0");
    // trigamma decreases from +inf at 0 to 0: 1/y bounds the root within a factor 2 for large y,
    // trigamma(x) ~ 1/x^2 near 0; widen until the bracket holds, then bisect.
    double lo = 1 / y, hi = 1 / y;
    while (trigamma(lo) < y)
        lo /= 2;
    while (trigamma(hi) > y)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-14 * hi; ++i) {
        const double mid = 0.5 * (lo + hi);
        (trigamma(mid) > y ? lo : hi) = mid;
    }
    return 0.5 * (lo + hi);
}

std::optional<VariancePrior> estimateVariancePrior(std::span<const double> variances,
                                                   std::span<const int> dofs)
{
    if (variances.size() != dofs.size())
        throw std::invalid_argument("a variance prior needs one dof per variance");
    for (std::size_t g = 0; g < variances.size(); ++g)
        if (!(variances[g] > 0) || !std::isfinite(variances[g]) || dofs[g] < 1)
            throw std::invalid_argument("a variance prior needs variances > 0 with dof >= 1");
    const auto groups = static_cast<int>(variances.size());
    if (groups < kMinVariancePriorGroups)
        return std::nullopt;
    double mean = 0, sampling = 0;
    std::vector<double> e;
    for (std::size_t g = 0; g < variances.size(); ++g) {
        const double half = dofs[g] / 2.0;
        e.push_back(std::log(variances[g]) - digamma(half) + std::log(half));
        mean += e.back() / groups;
        sampling += trigamma(half) / groups;
    }
    double ss = 0;
    for (double v : e)
        ss += (v - mean) * (v - mean);
    const double excess = ss / (groups - 1) - sampling; // trigamma(d0 / 2)
    if (!(excess > 0))
        return VariancePrior{std::numeric_limits<double>::infinity(), std::exp(mean)};
    const double d0 = 2 * trigammaInverse(excess);
    return VariancePrior{d0, std::exp(mean + digamma(d0 / 2) - std::log(d0 / 2))};
}

double moderatedVariance(const VariancePrior& prior, double variance, int dof)
{
    if (std::isinf(prior.dof))
        return prior.variance;
    return (prior.dof * prior.variance + dof * variance) / (prior.dof + dof);
}

} // namespace acsel
