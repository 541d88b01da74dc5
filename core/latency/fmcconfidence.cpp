#include "core/latency/fmcconfidence.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace acsel
{
namespace
{

// "64" -> 64; nullopt unless the whole text is a positive integer.
std::optional<int> loadKeyNumber(std::string_view s)
{
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < 1)
        return std::nullopt;
    return v;
}

double loadQuantileShift(const FmcLoadSpread& l, double p)
{
    return l.centre + (p == 0.5 ? 0.0 : l.spread.quantileOffset(p));
}

} // namespace

std::optional<FmcLoad> parseFmcLoad(std::string_view key)
{
    if (key.empty() || key.front() != 'c')
        return std::nullopt;
    key.remove_prefix(1);
    FmcLoad load;
    const std::size_t bar = key.find('|');
    if (bar != std::string_view::npos) {
        const std::string_view tp = key.substr(bar + 1);
        const auto t = tp.starts_with("tp") ? loadKeyNumber(tp.substr(2)) : std::nullopt;
        if (!t)
            return std::nullopt;
        load.tp = *t;
        key = key.substr(0, bar);
    }
    const auto c = loadKeyNumber(key);
    if (!c)
        return std::nullopt;
    load.concurrency = *c;
    return load;
}

std::optional<double> confidenceShift(const std::vector<FmcLoadSpread>& loads,
                                      const FmcSpread& stack, FmcLoad at, double p)
{
    if (!(p > 0 && p < 1))
        throw std::invalid_argument("a confidence needs p in (0, 1)");
    // The fitted loads of the same tp just below and just above (or at) the concurrency.
    const FmcLoadSpread *below = nullptr, *above = nullptr;
    int belowC = 0, aboveC = 0;
    for (const FmcLoadSpread& l : loads) {
        const std::optional<FmcLoad> f = parseFmcLoad(l.load);
        if (!f || f->tp != at.tp || !l.spread.known())
            continue;
        if (f->concurrency == at.concurrency)
            return loadQuantileShift(l, p);
        if (f->concurrency < at.concurrency && (!below || f->concurrency > belowC)) {
            below = &l;
            belowC = f->concurrency;
        }
        if (f->concurrency > at.concurrency && (!above || f->concurrency < aboveC)) {
            above = &l;
            aboveC = f->concurrency;
        }
    }
    if (below && above)
        return std::max(loadQuantileShift(*below, p), loadQuantileShift(*above, p));
    if (!stack.known())
        return std::nullopt;
    const double own = p == 0.5 ? 0.0 : stack.quantileOffset(p);
    const FmcLoadSpread* nearest = below ? below : above;
    return nearest ? std::max(own, loadQuantileShift(*nearest, p)) : own;
}

std::optional<FmcGateLines> confidenceLines(const FmcEntry& e, int concurrency, int gpus, double p)
{
    if (p == 0.5)
        return FmcGateLines{e.ttft, e.tpot};
    const auto shifted = [&](const FmcLine& line,
                             const FmcFitInfo& info) -> std::optional<FmcLine> {
        std::optional<double> most;
        for (int tp = 1; tp <= std::max(1, gpus); tp *= 2) {
            const std::optional<double> s =
                confidenceShift(info.loads, info.spread, {concurrency, tp}, p);
            if (!s)
                return std::nullopt;
            most = std::max(most.value_or(*s), *s);
        }
        return FmcLine{line.gamma, line.delta + *most};
    };
    const std::optional<FmcLine> t = shifted(e.ttft, e.ttftInfo);
    const std::optional<FmcLine> q = shifted(e.tpot, e.tpotInfo);
    if (!t || !q)
        return std::nullopt;
    return FmcGateLines{*t, *q};
}

} // namespace acsel
