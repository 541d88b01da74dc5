#include "core/latency/requestoverheadfit.h"

#include "core/latency/fmc.h"

#include <limits>
#include <map>
#include <stdexcept>

namespace acsel
{
namespace
{

double mdapeWithOverhead(std::span<const OverheadSample> rows, double h)
{
    std::vector<double> predicted, measured;
    for (const OverheadSample& r : rows) {
        predicted.push_back(r.estimateMs + h);
        measured.push_back(r.measuredMs);
    }
    return mdape(predicted, measured);
}

} // namespace

int fitOverheadMs(std::span<const OverheadSample> rows)
{
    if (rows.empty())
        return 0;
    int best = 0;
    double bestMdape = std::numeric_limits<double>::infinity();
    for (int h = 0; h <= kMaxRequestOverheadMs; ++h) {
        const double m = mdapeWithOverhead(rows, h);
        if (m < bestMdape) {
            best = h;
            bestMdape = m;
        }
    }
    return best;
}

OverheadFit fitRequestOverhead(std::span<const OverheadSample> rows)
{
    if (rows.empty())
        throw std::invalid_argument("no rows to fit a request overhead on");
    OverheadFit f;
    f.rows = static_cast<int>(rows.size());
    f.overheadMs = fitOverheadMs(rows);
    f.mdapeWithout = mdapeWithOverhead(rows, 0.0);
    f.mdapeWith = mdapeWithOverhead(rows, f.overheadMs);
    std::map<std::string, int> sweeps;
    for (const OverheadSample& r : rows)
        ++sweeps[r.sweep];
    f.sweeps = static_cast<int>(sweeps.size());
    if (f.sweeps < 2) {
        f.heldOutMdape = std::numeric_limits<double>::quiet_NaN();
        return f;
    }
    std::vector<double> predicted, measured;
    for (const auto& entry : sweeps) {
        std::vector<OverheadSample> others;
        for (const OverheadSample& r : rows)
            if (r.sweep != entry.first)
                others.push_back(r);
        const int h = fitOverheadMs(others);
        for (const OverheadSample& r : rows)
            if (r.sweep == entry.first) {
                predicted.push_back(r.estimateMs + h);
                measured.push_back(r.measuredMs);
            }
    }
    f.heldOutMdape = mdape(predicted, measured);
    return f;
}

std::vector<OverheadSample> overheadSamples(const SiliconPrediction& p, const Workspace& ws,
                                            std::string_view stack, std::string_view release)
{
    std::vector<OverheadSample> out;
    for (const PredictedSiliconRow& r : p.rows) {
        if (ws.stacks[static_cast<std::size_t>(r.stack)].id != stack ||
            r.row.backendVersion != release || r.serving.queued())
            continue;
        const double estimate = r.serving.latency.ttftMs - r.serving.requestOverheadMs;
        out.push_back({estimate, r.row.ttftMs, sweepKey(r.row)});
    }
    return out;
}

} // namespace acsel
