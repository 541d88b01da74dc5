#include "core/search/confidencegate.h"

#include "core/latency/fmcconfidence.h"

#include <algorithm>
#include <sstream>

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

std::vector<std::string> applyConfidence(WorkspaceEngine& engine, const FmcSet& set, double p,
                                         const Request& at)
{
    std::vector<std::string> without;
    if (p == kNoConfidence)
        return without;
    for (const FmcEntry& e : set.entries) {
        const auto lines =
            hasIntervals(e) ? confidenceLines(e, at.concurrency, at.gpus, p) : std::nullopt;
        if (!lines) {
            without.push_back(e.stack);
            continue;
        }
        std::ostringstream source;
        source << engine.calibrationSource(e.stack) << ", gated at p >= " << p << " (its " << p
               << "-quantile line at concurrency " << at.concurrency << ", up to " << at.gpus
               << (at.gpus == 1 ? " GPU)" : " GPUs)");
        engine.setCalibration(
            e.stack, {lines->ttft.gamma, lines->ttft.delta, lines->tpot.gamma, lines->tpot.delta},
            source.str());
    }
    return without;
}

} // namespace acsel
