// One axis of a plot image: data values to pixels (linear or log10) and the tick values worth
// labelling. Plain arithmetic, so the mapping is tested by hand.
#pragma once

#include <string>
#include <vector>

namespace acsel::render
{

class PlotScale
{
public:
    // [lo, hi] in data units onto [from, to] in pixels (to < from for a y axis drawn upwards).
    // A log scale needs 0 < lo < hi; a linear one lo < hi.
    PlotScale(double lo, double hi, double from, double to, bool log);

    double pixel(double value) const;
    bool contains(double value) const { return value >= lo_ && value <= hi_; }
    double lo() const { return lo_; }
    double hi() const { return hi_; }

    // Linear: about five multiples of 1, 2 or 5 x 10^k. Log: 1, 2 and 5 x 10^k (only the powers of
    // ten when the range spans more than three decades).
    std::vector<double> ticks() const;

private:
    double lo_, hi_, from_, to_;
    bool log_;
};

// The range of `values` with a margin of `pad` of the span on each side (a decade fraction on
// a log scale); a single value or an empty list gets a sensible range around it.
struct Range {
    double lo, hi;
};
Range paddedRange(const std::vector<double>& values, double pad, bool log);

// A tick's label: up to three significant digits, no exponent ("0.001", "2500", "0.05").
std::string tickLabel(double value);

} // namespace acsel::render
