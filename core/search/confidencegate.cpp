#include "core/search/confidencegate.h"

#include "core/latency/fmcchoice.h"

#include <algorithm>

namespace acsel
{

bool hasIntervals(const FmcEntry& e)
{
    return e.ttftInfo.spread.known() && e.tpotInfo.spread.known();
}

bool hasIntervals(const FmcSet& set)
{
    return std::any_of(set.entries.begin(), set.entries.end(),
                       [](const FmcEntry& e) { return hasIntervals(e); });
}

std::vector<std::string> applyConfidence(WorkspaceEngine& engine, const FmcSet& set, double p)
{
    std::vector<std::string> without;
    if (p == kNoConfidence)
        return without;
    for (const FmcEntry& e : set.entries) {
        if (!hasIntervals(e)) {
            without.push_back(e.stack);
            continue;
        }
        const FmcLine t = confidenceLine(e.ttft, e.ttftInfo.spread, p);
        const FmcLine q = confidenceLine(e.tpot, e.tpotInfo.spread, p);
        engine.setCalibration(e.stack, {t.gamma, t.delta, q.gamma, q.delta});
    }
    return without;
}

} // namespace acsel
