// The fused-MoE latency grid of a stack (moe_perf.csv, core/data/moetables.h): one curve of
// latency over num_tokens per (format, hidden, inter, topk, experts, moe_tp, moe_ep), read at
// any token count by linear interpolation between the measured counts; below the smallest the
// smallest count's latency (a launch-bound kernel is no faster with fewer tokens), above the
// largest the line through the two largest (the kernel is compute-bound there).
#pragma once

#include "core/data/moetables.h"
#include "core/latency/opcosts.h"

#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace acsel
{

class MoeTable
{
public:
    MoeTable() = default;
    explicit MoeTable(const std::vector<MoeRow>& rows);

    bool empty() const { return curves_.empty(); }
    // NaN when the table has no curve of this format and shape.
    double lookup(Format f, double tokens, const MoeShape& s) const;
    // The block under uniform routing, from the curve timed under balanced routing (AIC's
    // collector spreads T tokens' T k choices evenly: min(E, T k) experts touched). Uniform
    // routing touches D = expectedDistinctExperts(E, k, T) <= min(E, T k) of them
    // (moeexperts.h), so the weight reads of the balanced curve's rise between
    // T_eq = D / k tokens and T_b = min(T, E / k) tokens (where balanced routing touches D
    // and min(E, T k) experts) are not paid:
    //   t(T) = lookup(T) - (lookup(T_b) - lookup(T_eq)).
    // Equal to lookup at one token and when T k >> E (every expert touched either way).
    double routedLookup(Format f, double tokens, const MoeShape& s) const;

private:
    using Key = std::tuple<Format, int, int, int, int, int, int>;
    std::map<Key, std::vector<std::pair<double, double>>> curves_; // (tokens, ms) rising
};

} // namespace acsel
