#include "app/cli/answerdetails.h"

#include "core/model/platform.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <ostream>

namespace acsel::cli
{

std::string describeConfig(const Workspace& ws, const Config& c)
{
    return ws.models[static_cast<std::size_t>(c.model)].name + ", batch " +
           std::to_string(c.batch) + ", " + c.recipe.describe() + ", " +
           std::string(toString(c.algorithm)) + ", KV " + std::string(toString(c.kv));
}

void printRequestLine(std::ostream& out, const Request& q, const Platform& gpu)
{
    const double capacityGiB = gpu.memCapacityBytes / kGiB;
    out << std::fixed << std::setprecision(2) << "request: " << q.stack << ", isl " << q.isl
        << ", osl " << q.osl << ", concurrency " << q.concurrency << ", " << toString(q.mode)
        << " serving; TTFT <= " << q.ttftBudgetMs << " ms, TPOT <= " << q.tpotBudgetMs
        << " ms, memory <= " << q.memBudgetGiB << " GiB";
    if (capacityGiB < q.memBudgetGiB)
        out << " (capped at the GPU's " << capacityGiB << " GiB)\n";
    else
        out << " (GPU memory " << capacityGiB << " GiB)\n";
}

Predictions predictionsOf(const Prediction& p, const std::vector<std::string>& notes)
{
    Predictions pred{p.ttftMs, p.tpotMs, p.memoryBytes / kGiB, p.rmqd, {}};
    for (const std::string& n : notes)
        pred.note += (pred.note.empty() ? "" : "; ") + n;
    return pred;
}

void printThroughput(std::ostream& out, const Throughput& t)
{
    out << std::fixed << std::setprecision(1) << "  throughput: " << t.tokensPerSUser
        << " tokens/s per user, " << t.tokensPerSGpu << " tokens/s per GPU, "
        << std::setprecision(3) << t.requestsPerS << " requests/s\n"
        << std::setprecision(2);
}

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

} // namespace acsel::cli
