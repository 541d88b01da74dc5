#include "app/common/breakdownrows.h"

#include "core/model/units.h"

#include <algorithm>
#include <cmath>

namespace acsel::app
{

BreakdownRows operatorRows(const StepBreakdown& s, int bands, double predictedMs)
{
    BreakdownRows rows;
    double sum = 0;
    auto add = [&rows, &sum](std::string name, double ms) {
        rows.emplace_back(std::move(name), ms);
        sum += ms;
    };
    for (int b = 0; b < bands; ++b)
        add("GEMMs, band " + std::to_string(b + 1), s.gemmByBand[static_cast<std::size_t>(b)]);
    add("attention", s.attention);
    add("norms, residuals, activation", s.memoryOps);
    add("lm_head", s.lmHead);
    add("embedding", s.embedding);
    add("band-boundary conversions", s.conversion);
    if (s.allReduce > 0)
        add("all-reduce (tensor parallel)", s.allReduce);
    if (std::abs(predictedMs - sum) > 1e-6 * std::max(1.0, predictedMs))
        rows.emplace_back("calibration and serving", predictedMs - sum);
    return rows;
}

BreakdownRows memoryRows(const MemoryEstimate& m)
{
    BreakdownRows rows = {
        {"decoder weights", m.weightBytes / kGiB}, {"embedding", m.embeddingBytes / kGiB},
        {"lm_head", m.lmHeadBytes / kGiB},         {"KV cache", m.kvCacheBytes / kGiB},
        {"activations", m.activationBytes / kGiB}, {"runtime", m.runtimeBytes / kGiB}};
    if (m.servingReserveBytes > 0)
        rows.emplace_back("serving reserve", m.servingReserveBytes / kGiB);
    return rows;
}

} // namespace acsel::app
