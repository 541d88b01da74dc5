#include "core/search/dominancegrid.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace acsel
{
namespace
{

std::int64_t floatBits(double v)
{
    // Round-to-nearest is monotone and the bit patterns of non-negative floats are ordered
    // as their values: bits(a) < bits(b) implies a < b.
    return std::bit_cast<std::uint32_t>(static_cast<float>(std::max(v, 0.0)));
}

// The smallest float >= v: a stored z never falls below the point's own.
float floatAtLeast(double v)
{
    const auto f = static_cast<float>(v);
    return static_cast<double>(f) < v ? std::nextafter(f, std::numeric_limits<float>::infinity())
                                      : f;
}

} // namespace

DominanceGrid::Axis::Axis(double low, double high, int maxBins) : lowBits(floatBits(low))
{
    const std::int64_t span = std::max<std::int64_t>(floatBits(high) - lowBits, 0);
    while ((span >> shift) >= maxBins)
        ++shift;
    bins = static_cast<int>(span >> shift) + 1;
}

int DominanceGrid::Axis::bin(double v) const
{
    if (!(v > 0)) // NaN and non-positive values: the first bin (nothing lies below it)
        return 0;
    const std::int64_t offset = std::max<std::int64_t>(floatBits(v) - lowBits, 0);
    return static_cast<int>(std::min<std::int64_t>(offset >> shift, bins - 1));
}

DominanceGrid::DominanceGrid(double lowX, double highX, double lowY, double highY, int maxBins)
    : x_(lowX, highX, maxBins), y_(lowY, highY, maxBins),
      cells_(static_cast<std::size_t>(x_.bins) * static_cast<std::size_t>(y_.bins),
             std::numeric_limits<float>::infinity())
{
}

void DominanceGrid::add(double x, double y, double z)
{
    if (std::isnan(z))
        return;
    const float stored = floatAtLeast(z);
    const int bx = x_.bin(x), by = y_.bin(y);
    for (int i = bx; i < x_.bins; ++i) {
        if (cells_[cell(i, by)] <= stored)
            return; // every cell above and right of it holds no more
        for (int j = by; j < y_.bins && cells_[cell(i, j)] > stored; ++j)
            cells_[cell(i, j)] = stored;
    }
}

} // namespace acsel
