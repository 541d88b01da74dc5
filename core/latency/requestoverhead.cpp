#include "core/latency/requestoverhead.h"

#include <array>

namespace acsel
{

namespace
{

struct MeasuredOverhead {
    std::string_view stack;
    std::string_view version;
    double ms;
};

// Fitted as requestoverhead.h says (docs/SERVING.md has the command and the rows): 83
// unqueued tp 1 rows of h100_sxm/trtllm 1.0.0rc3 (TTFT MdAPE 43.5 -> 16.1 %) and 16 of
// h200_sxm/sglang 0.5.6.post2 (50.9 -> 10.0 %).
constexpr std::array<MeasuredOverhead, 2> kMeasuredOverheads{{
    {"h100_sxm/trtllm", "1.0.0rc3", 152.0},
    {"h200_sxm/sglang", "0.5.6.post2", 382.0},
}};

} // namespace

double requestOverheadMs(std::string_view stack, std::string_view engineVersion)
{
    if (engineVersion.empty())
        return 0.0;
    for (const MeasuredOverhead& m : kMeasuredOverheads)
        if (m.stack == stack && m.version == engineVersion)
            return m.ms;
    return 0.0;
}

} // namespace acsel
