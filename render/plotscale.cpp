#include "render/plotscale.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace acsel::render
{

PlotScale::PlotScale(double lo, double hi, double from, double to, bool log)
    : lo_(lo), hi_(hi), from_(from), to_(to), log_(log)
{
    if (!(lo < hi) || (log && !(lo > 0)))
        throw std::invalid_argument("plot scale: expected 0 < lo < hi on a log axis, lo < hi");
}

double PlotScale::pixel(double value) const
{
    const double t =
        log_ ? std::log10(value / lo_) / std::log10(hi_ / lo_) : (value - lo_) / (hi_ - lo_);
    return from_ + t * (to_ - from_);
}

std::vector<double> PlotScale::ticks() const
{
    std::vector<double> out;
    if (log_) {
        const bool decadesOnly = std::log10(hi_ / lo_) > 3;
        for (int e = static_cast<int>(std::floor(std::log10(lo_)));
             e <= static_cast<int>(std::ceil(std::log10(hi_))); ++e)
            for (const double m : {1.0, 2.0, 5.0}) {
                const double v = m * std::pow(10.0, e);
                if ((m == 1.0 || !decadesOnly) && contains(v))
                    out.push_back(v);
            }
        return out;
    }
    // A step of 1, 2 or 5 x 10^k giving about five ticks.
    const double raw = (hi_ - lo_) / 5;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    const double r = raw / magnitude;
    const double step = (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10) * magnitude;
    for (double v = std::ceil(lo_ / step) * step; v <= hi_ + step * 1e-9; v += step)
        out.push_back(std::abs(v) < step * 1e-9 ? 0.0 : v);
    return out;
}

Range paddedRange(const std::vector<double>& values, double pad, bool log)
{
    if (values.empty())
        return log ? Range{0.1, 10} : Range{0, 1};
    auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    if (log) {
        const double a = std::log10(*lo), b = std::log10(*hi);
        const double margin = std::max((b - a) * pad, 0.1);
        return {std::pow(10.0, a - margin), std::pow(10.0, b + margin)};
    }
    const double margin = *hi > *lo ? (*hi - *lo) * pad : std::max(std::abs(*hi) * 0.1, 1e-6);
    return {*lo - margin, *hi + margin};
}

std::string tickLabel(double value)
{
    // to_chars, not printf: the label must not follow the process locale (a decimal comma).
    char buf[64];
    auto end = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::general, 3).ptr;
    std::string s(buf, end);
    if (s.find('e') == std::string::npos)
        return s;
    end = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed, 6).ptr;
    s.assign(buf, end);
    if (s.find('.') != std::string::npos) {
        s.erase(s.find_last_not_of('0') + 1);
        if (s.back() == '.')
            s.pop_back();
    }
    return s;
}

} // namespace acsel::render
