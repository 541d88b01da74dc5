// A dense 3-D grid of measured latencies over three sorted axes, with multilinear
// interpolation (each axis on its own coordinate scale) and a load-time fill of the cells the
// measurement campaign skipped. Lookups are allocation-free: three binary searches over at
// most ~74 points and eight cell reads.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace acsel
{

class Grid3
{
public:
    // Coordinate an axis is interpolated in: linear in x, or in sqrt(x) (AIC's transform of
    // the context-attention sequence axis).
    enum class Scale : std::uint8_t { Linear, Sqrt };

    Grid3() = default;
    // Axis points must be strictly increasing and positive. All cells start missing.
    Grid3(std::array<std::vector<double>, 3> axes, std::array<Scale, 3> scales);
    // The sorted distinct values of a table column: one axis of a grid over its rows.
    static std::vector<double> axisOf(std::vector<double> values);

    const std::vector<double>& axis(int a) const { return axes_[static_cast<std::size_t>(a)]; }
    bool empty() const { return values_.empty(); }
    // Index of an exact axis point, or -1.
    int indexOf(int a, double x) const;
    void set(int i, int j, int l, double v) { values_[flat(i, j, l)] = v; }
    double get(int i, int j, int l) const { return values_[flat(i, j, l)]; }
    bool missing(int i, int j, int l) const;
    int missingCount() const;

    // Fills missing cells from measured neighbours, one axis at a time in `order`:
    //  1. ascending along each axis: a missing cell takes its lower neighbour's value scaled
    //     by work(cell) / work(neighbour) (utilisation held, work grows with the axis);
    //  2. then descending along each axis: a cell still missing takes its upper neighbour's
    //     value unscaled (never below a measured, larger shape).
    // Returns false if some cell stays missing (the grid had no measurement at all).
    template <class Work> bool fill(std::array<int, 3> order, Work work);

    // Multilinear interpolation at (x0, x1, x2), each clamped into its axis range first;
    // `clamped` receives the clamped point (equal to the input inside the grid).
    double interpolate(double x0, double x1, double x2, std::array<double, 3>& clamped) const;

private:
    std::size_t flat(int i, int j, int l) const
    {
        return (static_cast<std::size_t>(i) * axes_[1].size() + static_cast<std::size_t>(j)) *
                   axes_[2].size() +
               static_cast<std::size_t>(l);
    }
    int size(int a) const { return static_cast<int>(axes_[static_cast<std::size_t>(a)].size()); }
    void bracket(int a, double& x, int& lo, double& w) const;

    // Bucket of x: its exponent and top 3 mantissa bits (8 buckets per octave), monotone in x.
    static std::uint64_t bucketOf(double x);

    std::array<std::vector<double>, 3> axes_;
    std::array<Scale, 3> scales_{};
    // Per axis and bucket (from the first point's bucket): the last point index below the
    // bucket, so a lookup starts there and scans the few points inside one bucket.
    std::array<std::vector<std::uint16_t>, 3> hints_;
    std::vector<double> values_; // NaN = missing
};

template <class Work> bool Grid3::fill(std::array<int, 3> order, Work work)
{
    auto visitLines = [&](int a, bool ascending) {
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        std::array<int, 3> idx{};
        for (int u = 0; u < size(b); ++u)
            for (int v = 0; v < size(c); ++v) {
                idx[static_cast<std::size_t>(b)] = u;
                idx[static_cast<std::size_t>(c)] = v;
                const int n = size(a);
                for (int s = 1; s < n; ++s) {
                    const int t = ascending ? s : n - 1 - s; // the cell
                    const int from = ascending ? t - 1 : t + 1;
                    idx[static_cast<std::size_t>(a)] = t;
                    const std::size_t cell = flat(idx[0], idx[1], idx[2]);
                    if (!missing(idx[0], idx[1], idx[2]))
                        continue;
                    const std::array<int, 3> cellIdx = idx;
                    idx[static_cast<std::size_t>(a)] = from;
                    const double source = values_[flat(idx[0], idx[1], idx[2])];
                    if (source == source) { // not NaN
                        double ratio = 1.0;
                        if (ascending)
                            ratio = work(axes_[0][static_cast<std::size_t>(cellIdx[0])],
                                         axes_[1][static_cast<std::size_t>(cellIdx[1])],
                                         axes_[2][static_cast<std::size_t>(cellIdx[2])]) /
                                    work(axes_[0][static_cast<std::size_t>(idx[0])],
                                         axes_[1][static_cast<std::size_t>(idx[1])],
                                         axes_[2][static_cast<std::size_t>(idx[2])]);
                        values_[cell] = source * ratio;
                    }
                    idx = cellIdx;
                }
            }
    };
    for (int a : order)
        visitLines(a, true);
    for (int a : order)
        visitLines(a, false);
    return missingCount() == 0;
}

} // namespace acsel
