#include "core/latency/moetable.h"

#include "core/latency/moeexperts.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace acsel
{

MoeTable::MoeTable(const std::vector<MoeRow>& rows)
{
    for (const MoeRow& r : rows)
        curves_[Key{r.format, r.hidden, r.inter, r.topk, r.experts, r.moeTp, r.moeEp}].emplace_back(
            r.tokens, r.ms);
    for (auto& [key, curve] : curves_)
        std::sort(curve.begin(), curve.end());
}

double MoeTable::lookup(Format f, double tokens, const MoeShape& s) const
{
    const auto it =
        curves_.find(Key{f, s.hidden, s.intermediate, s.topk, s.experts, s.moeTp, s.moeEp});
    if (it == curves_.end())
        return std::numeric_limits<double>::quiet_NaN();
    const auto& c = it->second;
    if (c.size() == 1 || tokens <= c.front().first)
        return c.front().second;
    auto hi = std::lower_bound(c.begin(), c.end(), tokens,
                               [](const auto& p, double t) { return p.first < t; });
    if (hi == c.end())
        hi = c.end() - 1;
    const auto lo = hi - 1;
    const double slope = (hi->second - lo->second) / (hi->first - lo->first);
    const double ms = lo->second + slope * (tokens - lo->first);
    return tokens > c.back().first ? std::max(ms, c.back().second) : ms;
}

double MoeTable::routedLookup(Format f, double tokens, const MoeShape& s) const
{
    const double ms = lookup(f, tokens, s);
    const double all = static_cast<double>(s.experts) / s.topk;
    const double balanced = std::min(tokens, all);
    const double uniform = expectedDistinctExperts(s.experts, s.topk, tokens) / s.topk;
    if (std::isnan(ms) || !(uniform < balanced))
        return ms;
    return ms - (lookup(f, balanced, s) - lookup(f, uniform, s));
}

} // namespace acsel
