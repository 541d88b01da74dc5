// A conservative test of three-way dominance among points added one by one: dominated(x, y, z)
// is true only when an added point p has p.x < x, p.y < y and p.z <= z (never a false "yes";
// a "no" may miss a dominating point close to the query in x or y). The x and y axes are cut
// into bins; each cell (i, j) holds the lowest z of the points in bins <= i, <= j, so a query
// is one lookup and an insertion lowers only the cells it improves (a cell's lower-left
// neighbours never hold more than it). Values are positive; memory: bins^2 floats.
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
    bool dominated(double x, double y, double z) const
    {
        const int i = x_.bin(x) - 1, j = y_.bin(y) - 1;
        return i >= 0 && j >= 0 && static_cast<double>(cells_[cell(i, j)]) <= z;
    }

private:
    // A monotone bin of a positive value: its float's bit pattern (ordered as the values are)
    // shifted right, so a bin spans a fixed ratio of values and costs no logarithm.
    struct Axis {
        Axis(double low, double high, int maxBins);
        int bin(double v) const;
        std::int64_t lowBits = 0;
        int shift = 0, bins = 1;
    };
    std::size_t cell(int i, int j) const
    {
        return static_cast<std::size_t>(i) * static_cast<std::size_t>(y_.bins) +
               static_cast<std::size_t>(j);
    }

    Axis x_, y_;
    std::vector<float> cells_; // +inf where no point lies below and left
};

} // namespace acsel
