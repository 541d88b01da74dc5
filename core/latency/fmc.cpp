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

double loss(double gamma, double delta, const std::vector<double>& lx,
            const std::vector<double>& ly, double tau)
{
    double s = 0;
    for (std::size_t i = 0; i < lx.size(); ++i)
        s += pinball(ly[i] - gamma * lx[i] - delta, tau);
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

void checkTau(double tau)
{
    if (!(tau > 0 && tau < 1))
        throw std::invalid_argument("FMC quantile tau must be in (0, 1)");
}

bool closerToOne(double a, double b)
{
    return std::abs(a - 1.0) < std::abs(b - 1.0);
}

// Every line through two points with distinct estimates; ties to gamma closest to 1.
FmcLine fitPairwise(const std::vector<double>& lx, const std::vector<double>& ly, double tau)
{
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
            const bool better = !found || l < bestLoss - tol ||
                                (l <= bestLoss + tol && closerToOne(gamma, best.gamma));
            if (better) {
                best = {gamma, delta};
                bestLoss = found ? std::min(l, bestLoss) : l;
                found = true;
            }
        }
    return best;
}

struct Rotation {
    double gamma = 0;
    int through = -1; // the second point on the best line
};

// The best line through point p: minimises sum_j w_j rho_{t_j}(s_j - gamma) over the slopes
// s_j to the other points, w_j = |dx_j|, t_j = tau (dx_j > 0) or 1 - tau (dx_j < 0): a
// weighted quantile of the slopes, found by sorting them and scanning the derivative
// (O(n log n)). On a flat stretch the end with gamma closer to 1 wins.
Rotation bestRotation(const std::vector<double>& lx, const std::vector<double>& ly, std::size_t p,
                      double tau)
{
    struct Slope {
        double s, w;
        int j;
    };
    std::vector<Slope> v;
    v.reserve(lx.size());
    double deriv = 0, total = 0;
    for (std::size_t j = 0; j < lx.size(); ++j) {
        const double dx = lx[j] - lx[p];
        if (j == p || dx == 0)
            continue;
        const double w = std::abs(dx);
        v.push_back({(ly[j] - ly[p]) / dx, w, static_cast<int>(j)});
        deriv -= w * (dx > 0 ? tau : 1.0 - tau);
        total += w;
    }
    std::sort(v.begin(), v.end(), [](const Slope& a, const Slope& b) { return a.s < b.s; });
    const double tol = 1e-12 * total;
    for (std::size_t k = 0; k < v.size(); ++k) {
        deriv += v[k].w;
        if (k + 1 < v.size() && v[k + 1].s == v[k].s)
            continue; // the derivative jumps once per distinct slope
        if (deriv > tol || k + 1 == v.size())
            return {v[k].s, v[k].j};
        if (deriv >= -tol) { // flat up to the next slope
            const Slope& next = v[k + 1];
            return closerToOne(next.s, v[k].s) ? Rotation{next.s, next.j}
                                               : Rotation{v[k].s, v[k].j};
        }
    }
    return {};
}

// Vertex descent on the convex, piecewise-linear loss over (gamma, delta). A vertex is a line
// through two points p, q; the loss's edges there are rotations about p and about q, so a
// vertex optimal along both rotations is optimal (the directional derivative is linear between
// edge directions). Start: the least-squares slope through the point at the tau-quantile of
// its residuals; each step moves to the best line about one pivot (a strict decrease, or equal
// loss with gamma closer to 1), so no vertex repeats. Steps are few in practice (tests: a
// handful for thousands of points); a cap keeps the worst case bounded.
FmcLine fitDescent(const std::vector<double>& lx, const std::vector<double>& ly, double tau)
{
    const auto n = lx.size();
    const double mx = std::accumulate(lx.begin(), lx.end(), 0.0) / static_cast<double>(n);
    const double my = std::accumulate(ly.begin(), ly.end(), 0.0) / static_cast<double>(n);
    double sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sxx += (lx[i] - mx) * (lx[i] - mx);
        sxy += (lx[i] - mx) * (ly[i] - my);
    }
    const double g0 = sxy / sxx;
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    const auto res = [&](std::size_t i) { return ly[i] - g0 * lx[i]; };
    const auto at =
        static_cast<std::size_t>(std::max(0.0, std::ceil(tau * static_cast<double>(n)) - 1.0));
    std::nth_element(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(at), order.end(),
                     [&](std::size_t a, std::size_t b) { return res(a) < res(b); });
    std::size_t pivot = order[at];
    Rotation r = bestRotation(lx, ly, pivot, tau);
    FmcLine cur{r.gamma, ly[pivot] - r.gamma * lx[pivot]};
    double curLoss = loss(cur.gamma, cur.delta, lx, ly, tau);
    std::size_t other = pivot;
    pivot = static_cast<std::size_t>(r.through);
    const std::size_t cap = 8 * n + 64;
    for (std::size_t step = 0, fails = 0; step < cap && fails < 2; ++step) {
        r = bestRotation(lx, ly, pivot, tau);
        const FmcLine cand{r.gamma, ly[pivot] - r.gamma * lx[pivot]};
        const double l = loss(cand.gamma, cand.delta, lx, ly, tau);
        const double tol = 1e-12 * (1.0 + curLoss);
        const auto next = static_cast<std::size_t>(r.through);
        if (next != other &&
            (l < curLoss - tol || (l <= curLoss + tol && closerToOne(cand.gamma, cur.gamma)))) {
            cur = cand;
            curLoss = std::min(l, curLoss);
            other = pivot;
            pivot = next;
            fails = 0;
        } else {
            std::swap(pivot, other);
            ++fails;
        }
    }
    return cur;
}
} // namespace

double FmcLine::apply(double estimateMs) const
{
    return std::exp(gamma * std::log(estimateMs) + delta);
}

double pinball(double u, double tau)
{
    return u >= 0 ? tau * u : (tau - 1.0) * u;
}

double pinballLoss(const FmcLine& line, std::span<const double> estimateMs,
                   std::span<const double> measuredMs, double tau)
{
    checkInput(estimateMs, measuredMs);
    return loss(line.gamma, line.delta, logs(estimateMs), logs(measuredMs), tau);
}

FmcLine fitFmcOffset(std::span<const double> estimateMs, std::span<const double> measuredMs,
                     double tau)
{
    checkInput(estimateMs, measuredMs);
    checkTau(tau);
    std::vector<double> r(estimateMs.size());
    for (std::size_t i = 0; i < r.size(); ++i)
        r[i] = std::log(measuredMs[i]) - std::log(estimateMs[i]);
    return {1.0, pinballQuantile(r, tau)};
}

FmcLine fitFmcCautiousOffset(std::span<const double> estimateMs, std::span<const double> measuredMs,
                             double tau, double level)
{
    checkInput(estimateMs, measuredMs);
    checkTau(tau);
    if (!(level > 0 && level < 1))
        throw std::invalid_argument("a confidence level must be in (0, 1)");
    std::vector<double> r(estimateMs.size());
    for (std::size_t i = 0; i < r.size(); ++i)
        r[i] = std::log(measuredMs[i]) - std::log(estimateMs[i]);
    std::sort(r.begin(), r.end());
    const std::size_t n = r.size();
    // P(Binomial(n, p) >= j) for j = 0 .. n, by the recurrence of the point probabilities.
    const auto tail = [n](double p) {
        std::vector<double> pmf(n + 1), atLeast(n + 2, 0.0);
        pmf[0] = std::pow(1 - p, static_cast<double>(n));
        for (std::size_t j = 1; j <= n; ++j)
            pmf[j] =
                pmf[j - 1] * static_cast<double>(n - j + 1) / static_cast<double>(j) * p / (1 - p);
        for (std::size_t j = n + 1; j-- > 0;)
            atLeast[j] = atLeast[j + 1] + pmf[j];
        return atLeast;
    };
    // Lower bound: r_(j) <= q_tau with probability P(Bin(n, tau) >= j); upper: r_(n+1-j) >=
    // q_tau with probability P(Bin(n, 1 - tau) >= j).
    const std::vector<double> low = tail(tau), high = tail(1 - tau);
    std::size_t jl = 0, jh = 0;
    for (std::size_t j = 1; j <= n; ++j) {
        jl = low[j] >= level ? j : jl;
        jh = high[j] >= level ? j : jh;
    }
    if (jl > 0 && r[jl - 1] > 0)
        return {1.0, r[jl - 1]};
    if (jh > 0 && r[n - jh] < 0)
        return {1.0, r[n - jh]};
    return {};
}

FmcLine fitFmc(std::span<const double> estimateMs, std::span<const double> measuredMs, double tau)
{
    checkInput(estimateMs, measuredMs);
    checkTau(tau);
    const std::vector<double> lx = logs(estimateMs), ly = logs(measuredMs);
    if (lx.size() == 1 || allEqual(lx))
        return fitFmcOffset(estimateMs, measuredMs, tau);
    return lx.size() <= static_cast<std::size_t>(kFmcPairwiseMax) ? fitPairwise(lx, ly, tau)
                                                                  : fitDescent(lx, ly, tau);
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
