#include "core/latency/grid3.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace acsel
{

std::vector<double> Grid3::axisOf(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

Grid3::Grid3(std::array<std::vector<double>, 3> axes, std::array<Scale, 3> scales)
    : axes_(std::move(axes)), scales_(scales)
{
    std::size_t cells = 1;
    for (const auto& ax : axes_) {
        if (ax.empty())
            throw std::invalid_argument("Grid3: empty axis");
        for (std::size_t i = 0; i < ax.size(); ++i)
            if (!(ax[i] > 0) || (i > 0 && !(ax[i] > ax[i - 1])))
                throw std::invalid_argument("Grid3: axis points must be positive and increasing");
        cells *= ax.size();
    }
    for (std::size_t a = 0; a < 3; ++a) {
        const auto& ax = axes_[a];
        if (ax.size() > 60000)
            throw std::invalid_argument("Grid3: axis too long");
        const std::uint64_t first = bucketOf(ax.front());
        std::vector<std::uint16_t>& hint = hints_[a];
        hint.assign(static_cast<std::size_t>(bucketOf(ax.back()) - first + 1), 0);
        for (std::size_t b = 0; b < hint.size(); ++b) {
            std::size_t i = 0; // last point (below the last interval's end) in an earlier bucket
            while (i + 2 < ax.size() && bucketOf(ax[i + 1]) < first + b)
                ++i;
            hint[b] = static_cast<std::uint16_t>(i);
        }
    }
    values_.assign(cells, std::numeric_limits<double>::quiet_NaN());
}

std::uint64_t Grid3::bucketOf(double x)
{
    return std::bit_cast<std::uint64_t>(x) >> 49;
}

int Grid3::indexOf(int a, double x) const
{
    const auto& ax = axes_[static_cast<std::size_t>(a)];
    const auto it = std::lower_bound(ax.begin(), ax.end(), x);
    return it != ax.end() && *it == x ? static_cast<int>(it - ax.begin()) : -1;
}

bool Grid3::missing(int i, int j, int l) const
{
    return std::isnan(values_[flat(i, j, l)]);
}

int Grid3::missingCount() const
{
    return static_cast<int>(
        std::count_if(values_.begin(), values_.end(), [](double v) { return std::isnan(v); }));
}

// Inlined into interpolate (three calls a lookup, the hot path of every estimate): its outputs
// then stay in registers.
[[gnu::always_inline]] inline void Grid3::bracket(int a, double& x, int& lo, double& w) const
{
    const auto& ax = axes_[static_cast<std::size_t>(a)];
    const std::size_t n = ax.size();
    x = std::clamp(x, ax.front(), ax.back());
    if (n == 1) {
        lo = 0;
        w = 0;
        return;
    }
    // Start at the last point of the buckets below x's, then scan the few points of its
    // bucket: the last point <= x among the first n - 1 (so i + 1 exists).
    const auto& hint = hints_[static_cast<std::size_t>(a)];
    std::size_t i = hint[static_cast<std::size_t>(bucketOf(x) - bucketOf(ax.front()))];
    while (i + 2 < n && ax[i + 1] <= x)
        ++i;
    lo = static_cast<int>(i);
    const double x0 = ax[i], x1 = ax[i + 1];
    if (scales_[static_cast<std::size_t>(a)] == Scale::Sqrt)
        w = (std::sqrt(x) - std::sqrt(x0)) / (std::sqrt(x1) - std::sqrt(x0));
    else
        w = (x - x0) / (x1 - x0);
}

double Grid3::interpolate(double x0, double x1, double x2, std::array<double, 3>& clamped) const
{
    int i = 0, j = 0, l = 0;
    double wi = 0, wj = 0, wl = 0;
    bracket(0, x0, i, wi);
    bracket(1, x1, j, wj);
    bracket(2, x2, l, wl);
    clamped = {x0, x1, x2};
    // Neighbours: a weight of exactly 0 never reads past the axis end (single-point axes).
    const int i1 = wi > 0 ? i + 1 : i, j1 = wj > 0 ? j + 1 : j, l1 = wl > 0 ? l + 1 : l;
    // Exact at grid points: a weight of 0 or 1 returns the cell value itself.
    auto lerp = [](double a, double b, double w) {
        return w <= 0 ? a : w >= 1 ? b : a + (b - a) * w;
    };
    const double c00 = lerp(get(i, j, l), get(i1, j, l), wi);
    const double c01 = lerp(get(i, j, l1), get(i1, j, l1), wi);
    const double c10 = lerp(get(i, j1, l), get(i1, j1, l), wi);
    const double c11 = lerp(get(i, j1, l1), get(i1, j1, l1), wi);
    return lerp(lerp(c00, c01, wl), lerp(c10, c11, wl), wj);
}

} // namespace acsel
