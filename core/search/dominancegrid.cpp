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
             std::numeric_limits<double>::infinity()),
      rows_(static_cast<std::size_t>(x_.bins)), columns_(static_cast<std::size_t>(y_.bins))
{
}

bool DominanceGrid::dominated(double x, double y, double z, double shrink) const
{
    const double xs = x * shrink, ys = y * shrink;
    // Bins below both lower bins hold only points with p.x < xs and p.y < ys.
    const int i = x_.bin(xs), j = y_.bin(ys);
    const int lastRow = shrink == 1 ? i : x_.bin(x), lastColumn = shrink == 1 ? j : y_.bin(y);
    if (i > 0 && j > 0 && cells_[cell(i - 1, j - 1)] <= z)
        return true;
    // Every point that can dominate lies in bins <= the value's own in x and y.
    if (cells_[cell(lastRow, lastColumn)] > z)
        return false;
    // Those not decided yet lie in the bins from the shrunk value's to the value's own.
    const auto beats = [&](const Point& p) {
        return (p.x <= xs || p.x == x) && (p.y <= ys || p.y == y) && p.z <= z;
    };
    for (int r = i; r <= lastRow; ++r)
        if (std::any_of(rows_[static_cast<std::size_t>(r)].begin(),
                        rows_[static_cast<std::size_t>(r)].end(), beats))
            return true;
    for (int c = j; c <= lastColumn; ++c)
        if (std::any_of(columns_[static_cast<std::size_t>(c)].begin(),
                        columns_[static_cast<std::size_t>(c)].end(), beats))
            return true;
    return false;
}

void DominanceGrid::add(double x, double y, double z)
{
    if (std::isnan(x) || std::isnan(y) || std::isnan(z))
        return;
    const int bx = x_.bin(x), by = y_.bin(y);
    rows_[static_cast<std::size_t>(bx)].push_back({x, y, z});
    columns_[static_cast<std::size_t>(by)].push_back({x, y, z});
    ++points_;
    for (int i = bx; i < x_.bins; ++i) {
        if (cells_[cell(i, by)] <= z)
            return; // every cell above and right of it holds no more
        for (int j = by; j < y_.bins && cells_[cell(i, j)] > z; ++j)
            cells_[cell(i, j)] = z;
    }
}

} // namespace acsel
