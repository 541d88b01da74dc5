#include "core/latency/fmc.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>

namespace acsel
{
namespace
{

void checkInput(std::span<const double> x, std::span<const double> y)
{
    if (x.empty() || x.size() != y.size())
        throw std::invalid_argument(
            "FMC needs the same positive number of estimates and measurements");
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!(x[i] > 0) || !(y[i] > 0) || !std::isfinite(x[i]) || !std::isfinite(y[i]))
            throw std::invalid_argument("FMC needs positive finite latencies");
}

std::vector<double> logs(std::span<const double> v)
{
    std::vector<double> out(v.size());
    std::transform(v.begin(), v.end(), out.begin(), [](double a) { return std::log(a); });
    return out;
}

double rho(double u, double tau)
{
    return u >= 0 ? tau * u : (tau - 1.0) * u;
}

double loss(double gamma, double delta, const std::vector<double>& lx,
            const std::vector<double>& ly, double tau)
{
    double s = 0;
    for (std::size_t i = 0; i < lx.size(); ++i)
        s += rho(ly[i] - gamma * lx[i] - delta, tau);
    return s;
}

// A tau-quantile of v minimising the pinball loss: the ceil(tau n)-th smallest value.
double pinballQuantile(std::vector<double> v, double tau)
{
    std::sort(v.begin(), v.end());
    const auto n = static_cast<double>(v.size());
    const auto idx = static_cast<std::size_t>(std::max(0.0, std::ceil(tau * n) - 1.0));
    return v[std::min(idx, v.size() - 1)];
}

bool allEqual(const std::vector<double>& v)
{
    return std::all_of(v.begin(), v.end(), [&](double a) { return a == v.front(); });
}

} // namespace

double FmcLine::apply(double estimateMs) const
{
    return std::exp(gamma * std::log(estimateMs) + delta);
}

double pinballLoss(const FmcLine& line, std::span<const double> estimateMs,
                   std::span<const double> measuredMs, double tau)
{
    checkInput(estimateMs, measuredMs);
    return loss(line.gamma, line.delta, logs(estimateMs), logs(measuredMs), tau);
}

FmcLine fitFmc(std::span<const double> estimateMs, std::span<const double> measuredMs, double tau)
{
    checkInput(estimateMs, measuredMs);
    if (!(tau > 0 && tau < 1))
        throw std::invalid_argument("FMC quantile tau must be in (0, 1)");
    const std::vector<double> lx = logs(estimateMs), ly = logs(measuredMs);
    if (lx.size() == 1 || allEqual(lx)) {
        std::vector<double> r(lx.size());
        for (std::size_t i = 0; i < lx.size(); ++i)
            r[i] = ly[i] - lx[i];
        return {1.0, pinballQuantile(r, tau)};
    }
    FmcLine best;
    double bestLoss = std::numeric_limits<double>::infinity();
    bool found = false;
    for (std::size_t i = 0; i < lx.size(); ++i)
        for (std::size_t j = i + 1; j < lx.size(); ++j) {
            if (lx[i] == lx[j])
                continue;
            const double gamma = (ly[j] - ly[i]) / (lx[j] - lx[i]);
            const double delta = ly[i] - gamma * lx[i];
            const double l = loss(gamma, delta, lx, ly, tau);
            const double tol = 1e-12 * (1.0 + bestLoss);
            const bool better =
                !found || l < bestLoss - tol ||
                (l <= bestLoss + tol && std::abs(gamma - 1.0) < std::abs(best.gamma - 1.0));
            if (better) {
                best = {gamma, delta};
                bestLoss = found ? std::min(l, bestLoss) : l;
                found = true;
            }
        }
    return best;
}

FmcLine fitFmcMse(std::span<const double> estimateMs, std::span<const double> measuredMs)
{
    checkInput(estimateMs, measuredMs);
    const std::vector<double> lx = logs(estimateMs), ly = logs(measuredMs);
    const auto n = static_cast<double>(lx.size());
    const double mx = std::accumulate(lx.begin(), lx.end(), 0.0) / n;
    const double my = std::accumulate(ly.begin(), ly.end(), 0.0) / n;
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < lx.size(); ++i) {
        sxx += (lx[i] - mx) * (lx[i] - mx);
        sxy += (lx[i] - mx) * (ly[i] - my);
    }
    if (sxx == 0)
        return {1.0, my - mx};
    const double gamma = sxy / sxx;
    return {gamma, my - gamma * mx};
}

std::vector<int> selectStratified(std::span<const double> estimateMs, int k, std::uint64_t seed)
{
    const auto n = static_cast<int>(estimateMs.size());
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    if (k >= n)
        return order;
    if (k < 1)
        return {};
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return estimateMs[static_cast<std::size_t>(a)] < estimateMs[static_cast<std::size_t>(b)];
    });
    std::mt19937_64 rng(seed);
    std::vector<int> picked;
    for (int s = 0; s < k; ++s) {
        const int lo = s * n / k, hi = (s + 1) * n / k; // stratum [lo, hi), never empty
        const auto span = static_cast<std::uint64_t>(hi - lo);
        picked.push_back(order[static_cast<std::size_t>(lo + static_cast<int>(rng() % span))]);
    }
    std::sort(picked.begin(), picked.end());
    return picked;
}

double mdape(std::span<const double> predicted, std::span<const double> measured)
{
    if (predicted.empty() || predicted.size() != measured.size())
        throw std::invalid_argument(
            "MdAPE needs the same positive number of predictions and measurements");
    std::vector<double> ape(predicted.size());
    for (std::size_t i = 0; i < ape.size(); ++i)
        ape[i] = std::abs(predicted[i] - measured[i]) / measured[i] * 100.0;
    std::sort(ape.begin(), ape.end());
    const std::size_t m = ape.size() / 2;
    return ape.size() % 2 == 1 ? ape[m] : 0.5 * (ape[m - 1] + ape[m]);
}

} // namespace acsel
