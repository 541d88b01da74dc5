#include "core/eval/silicongaterows.h"

#include "core/data/loaderror.h"

#include <map>

namespace acsel
{

SiliconGateRows siliconGateRows(const SiliconPrediction& p, const Workspace& ws, ServingMode mode,
                                const std::vector<AicEstimate>& aic, const std::string& aicFile)
{
    std::map<std::string, const AicEstimate*, std::less<>> byId;
    for (const AicEstimate& e : aic)
        byId[e.id] = &e;
    SiliconGateRows out;
    for (const PredictedSiliconRow& r : p.rows) {
        GateRow g;
        g.id = r.row.id;
        g.stack = ws.stacks[static_cast<std::size_t>(r.stack)].id;
        g.workload = r.row.system + " isl " + std::to_string(r.row.isl) + " osl " +
                     std::to_string(r.row.osl) + " concurrency " + std::to_string(r.row.batch);
        g.sweep = sweepKey(r.row);
        g.load = loadKey(r.row);
        g.profileCandidate = profileExclusion(r, mode).empty();
        for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
            g.measured[static_cast<std::size_t>(m)] = r.measured(m);
            g.raw[static_cast<std::size_t>(m)] = r.estimate(m, mode);
        }
        if (const auto it = byId.find(r.row.id); it != byId.end()) {
            const AicEstimate& e = *it->second;
            if (e.system != r.row.system || e.backend != r.row.backend)
                throw LoadError(aicFile, "line " + std::to_string(e.line),
                                "row '" + e.id + "' is " + e.system + "/" + e.backend +
                                    " here but " + r.row.system + "/" + r.row.backend +
                                    " in the measurements");
            ++out.aicRows;
            if (!e.ttftMs)
                ++out.aicRefused;
            g.aic = {e.ttftMs, e.tpotMs};
        } else if (!aic.empty()) {
            out.aicMissing.push_back(r.row.id);
        }
        out.rows.push_back(std::move(g));
    }
    return out;
}

} // namespace acsel
