#include "widgets/logticker.h"

#include <cmath>
#include <span>

namespace acsel::gui
{

namespace
{
constexpr double kMaxDenseDecades = 3;

bool dense(const QCPRange& range)
{
    return range.lower > 0 && range.upper > range.lower &&
           std::log10(range.upper / range.lower) <= kMaxDenseDecades;
}
} // namespace

QVector<double> LogTicker::ticksFor(const QCPRange& range)
{
    QVector<double> ticks;
    if (!dense(range))
        return ticks;
    const bool narrow = std::log10(range.upper / range.lower) < 1;
    static const double k125[] = {1, 2, 5};
    static const double kAll[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const auto first = static_cast<int>(std::floor(std::log10(range.lower)));
    const auto last = static_cast<int>(std::ceil(std::log10(range.upper)));
    double below = 0; // the last tick under the range, kept for the trim
    for (int e = first; e <= last; ++e) {
        const double decade = std::pow(10.0, e);
        const std::span<const double> mantissas =
            narrow ? std::span<const double>(kAll) : std::span<const double>(k125);
        for (const double m : mantissas) {
            const double t = m * decade;
            if (t < range.lower) {
                below = t;
                continue;
            }
            if (ticks.isEmpty() && below > 0)
                ticks.append(below);
            ticks.append(t);
            if (t > range.upper)
                return ticks;
        }
    }
    return ticks;
}

QVector<double> LogTicker::createTickVector(double tickStep, const QCPRange& range)
{
    dense_ = dense(range);
    return dense_ ? ticksFor(range) : QCPAxisTickerLog::createTickVector(tickStep, range);
}

int LogTicker::getSubTickCount(double tickStep)
{
    return dense_ ? 0 : QCPAxisTickerLog::getSubTickCount(tickStep);
}

} // namespace acsel::gui
