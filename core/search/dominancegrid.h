// An exact test of three-way dominance among points added one by one (the budget index's
// members: raw TTFT, raw TPOT, memory). The x and y axes are cut into bins; each cell (i, j)
// holds the lowest z of the points in bins <= i, <= j, which decides at once for the points
// strictly below the query's bins in both axes; the points of the query's own x bins and y
// bins are compared one by one (each bin keeps a list of its points). An insertion lowers only
// the cells it improves (a cell's lower-left neighbours never hold more than it). Values are
// positive; memory: bins^2 doubles and the points twice.
#pragma once

#include <cstdint>
#include <vector>

namespace acsel
{

class DominanceGrid
{
public:
    // Bins spanning [lowX, highX] and [lowY, highY] (values outside fall in the end bins), at
    // most maxBins per axis.
    DominanceGrid(double lowX, double highX, double lowY, double highY, int maxBins = 512);

    void add(double x, double y, double z);
    // Whether an added point p has p.x <= x * shrink or p.x == x, the same in y, and
    // p.z <= z: with shrink 1, p <= (x, y, z) in every axis. A shrink below 1 asks x and y
    // to be lower by that margin unless equal.
    bool dominated(double x, double y, double z, double shrink = 1) const;
    std::size_t points() const { return points_; }

private:
    // A monotone bin of a positive value: its float's bit pattern (ordered as the values are)
    // shifted right, so a bin spans a fixed ratio of values and costs no logarithm.
    struct Axis {
        Axis(double low, double high, int maxBins);
        int bin(double v) const;
        std::int64_t lowBits = 0;
        int shift = 0, bins = 1;
    };
    struct Point {
        double x, y, z;
    };
    std::size_t cell(int i, int j) const
    {
        return static_cast<std::size_t>(i) * static_cast<std::size_t>(y_.bins) +
               static_cast<std::size_t>(j);
    }

    Axis x_, y_;
    std::vector<double> cells_;               // +inf where no point lies below and left
    std::vector<std::vector<Point>> rows_;    // the points of each x bin
    std::vector<std::vector<Point>> columns_; // of each y bin
    std::size_t points_ = 0;
};

} // namespace acsel
