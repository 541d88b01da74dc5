#include "core/model/requestcheck.h"

#include "core/model/tensorparallel.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace acsel
{
namespace
{

// The ranges acsel search has always taken on its flags; budgets are positive.
constexpr std::array<FieldLimits, 8> kLimits = {{
    {"input length", "tokens", 1, 1 << 20, true},
    {"output length", "tokens", 1, 1 << 20, true},
    {"concurrency", "", 1, 1 << 16, true},
    {"GPUs", "", 1, kMaxGpus, true},
    {"TTFT budget", "ms", 1e-6, 1e9, false},
    {"TPOT budget", "ms", 1e-6, 1e9, false},
    {"memory budget", "GiB", 1e-6, 1e9, false},
    {"margin", "%", 0, 100, false, true},
}};

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

} // namespace

const FieldLimits& limitsOf(RequestField f)
{
    return kLimits[static_cast<std::size_t>(f)];
}

std::string fieldProblem(RequestField f, double value)
{
    const FieldLimits& l = limitsOf(f);
    const std::string unit = l.unit.empty() ? "" : " " + std::string(l.unit);
    const std::string what = std::string(l.name) + " " + number(value) + unit;
    if (!std::isfinite(value))
        return std::string(l.name) + ": expected a number";
    if (l.whole && value != std::floor(value))
        return what + " is not a whole number";
    if (value < l.min)
        return !l.whole && l.min > 0 && l.min < 1 // a positive real: any value above 0
                   ? what + " is not above 0"
                   : what + " is below the smallest accepted, " + number(l.min);
    if (l.belowMax && value >= l.max)
        return what + " is not below " + number(l.max);
    if (value > l.max)
        return what + " is above the largest accepted, " + number(l.max);
    return {};
}

ConfigProblem configProblem(const Config& c, const Request& q)
{
    if (c.batch < q.concurrency)
        return {"batch", "batch " + std::to_string(c.batch) +
                             " is below the request's concurrency " +
                             std::to_string(q.concurrency) + " (a batch must hold every request)"};
    if (c.tp > q.gpus)
        return {"tp", "tp " + std::to_string(c.tp) + " exceeds the request's gpus " +
                          std::to_string(q.gpus)};
    return {};
}

} // namespace acsel
