#include "core/latency/moeexperts.h"

#include <cmath>

namespace acsel
{

double expectedDistinctExperts(double experts, double topk, double tokens)
{
    if (tokens <= 0)
        return 0.0;
    return experts * (1.0 - std::pow(1.0 - topk / experts, tokens));
}

double moeGemmsMs(const OpCosts& costs, Format f, double tokens, const MoeShape& s)
{
    if (tokens <= 0)
        return 0.0;
    const double touched = expectedDistinctExperts(s.experts, s.topk, tokens) / s.moeEp;
    const double routed = tokens * s.topk / s.moeEp; // token-expert pairs on this GPU
    const double m = routed / touched;
    const double h = s.hidden, inter = static_cast<double>(s.intermediate) / s.moeTp;
    const double gemms = costs.gemmMs(f, m, 2.0 * inter, h) + costs.gemmMs(f, m, h, inter);
    return touched * gemms + costs.memoryOpMs(6.0 * inter * routed) +
           costs.memoryOpMs(8.0 * h * routed);
}

} // namespace acsel
