// Raw estimates for end-to-end measurements (AIC silicon rows), and the paper's Table 2 on
// them: per stack, K profiles chosen stratified over log T_estimate, the rest held out; MdAPE
// of raw, FMC (the form chooseFmc picks, fmcchoice.h), FMC line (always the full line, the
// paper's FMC), FMC-MSE and LR on the held-out rows,
// mean over seeds. Every row carries both
// serving models (static batch and continuous batching, docs/SERVING.md); the row's mode
// picks the one its estimate() returns.
#pragma once

#include "core/latency/benchmarkreplay.h"
#include "core/latency/fmc.h"
#include "core/latency/linearbaseline.h"
#include "core/latency/memorymodel.h"
#include "core/latency/opmodel.h"
#include "core/latency/servingmodel.h"
#include "core/latency/silicon.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace acsel
{

struct PredictedSiliconRow {
    SiliconRow row;
    int stack = -1;
    Config config;
    Request request;
    LatencyEstimate raw;     // static batch (estimateLatency)
    ServingEstimate serving; // continuous batching at the row's concurrency
    MemoryEstimate memory;
    LrFeatures lrTtft{}, lrTpot{};
    std::string attentionNote; // attention lookups that used substitute data
    std::string kvReason;      // why config.kv is the KV format the engine ran
    double measured(LatencyMetric m) const
    {
        return m == LatencyMetric::Ttft ? row.ttftMs : row.tpotMs;
    }
    const LatencyEstimate& estimateOf(ServingMode mode) const
    {
        return mode == ServingMode::Static ? raw : serving.latency;
    }
    double estimate(LatencyMetric m, ServingMode mode) const
    {
        const LatencyEstimate& e = estimateOf(mode);
        return m == LatencyMetric::Ttft ? e.ttftMs : e.tpotMs;
    }
    // The estimate of the row's request mode.
    double estimate(LatencyMetric m) const { return estimate(m, request.mode); }
};

// Memory check before profile selection: a row whose concurrency exceeds the KV
// slots waits in a queue. Such a row may be a profile only for a model that predicts the
// queueing (continuous); the static model ignores capacity, so it is held out (still
// evaluated). Empty when the row may be a profile, else why not.
std::string profileExclusion(const PredictedSiliconRow& row, ServingMode mode);

struct SkippedSiliconRow {
    SiliconRow row;
    std::string reason;
};

struct SiliconPrediction {
    std::vector<PredictedSiliconRow> rows; // in file order
    std::vector<SkippedSiliconRow> skipped;
    std::vector<std::string> assumptions; // distinct, in first-seen order
    // The operator costs of each predicted row's stack (by stack index), loaded once.
    std::map<int, std::shared_ptr<const OpCosts>> costs;
};

// Maps every row (mapSiliconRow), loads each needed stack's operator costs once (its tables, or
// on a spec-only stack the workspace's utilisation model, makeOpCosts), and estimates both
// serving models; Request::mode of every row is set to `mode` (AIC silicon rows are
// continuous-batching benchmarks, hence the default). A row whose estimate throws (e.g. not
// even one request fits in memory) is skipped with the reason, and so is every row of a stack
// whose tables cannot be loaded (the LoadError's message: file, line, what).
SiliconPrediction predictSiliconRows(const Workspace& ws, const std::vector<SiliconRow>& rows,
                                     ServingMode mode = ServingMode::Continuous);

// Each row's benchmark replayed with its clients in step (benchmarkreplay.h), in p.rows order:
// n = the row's running requests, kBenchmarkRounds rounds, on the tables p.costs holds.
std::vector<BenchmarkReplay> replaySiliconRows(const Workspace& ws, const SiliconPrediction& p);

struct MethodMdape {
    double raw = 0, fmc = 0, fmcLine = 0, fmcMse = 0, lr = 0; // percent
};

// An MdAPE above 10,000 % (predictions 100x off: LR through near-collinear profiles) is no
// accuracy figure but a failed fit: reports print "diverged" and leave it out of means.
inline constexpr double kDivergedMdape = 1e4;
inline bool diverged(double mdapePercent)
{
    return !(mdapePercent <= kDivergedMdape);
}

struct StackStudy {
    std::string stack;
    int rows = 0;              // predictable rows of the stack
    int queuedRows = 0;        // rows the continuous model says wait for a KV slot
    int profileCandidates = 0; // rows allowed as profiles (profileExclusion empty)
    int profiles = 0;          // K
    MethodMdape ttft, tpot;    // mean over seeds of the held-out MdAPE
};

struct LatencyStudy {
    ServingMode mode = ServingMode::Continuous;
    int profiles = 0, seeds = 0;
    double tau = 0.5;
    std::vector<StackStudy> stacks;
    std::vector<std::pair<std::string, std::string>> excludedStacks; // stack, reason
    // Unweighted means over the studied stacks, per method without its diverged stacks.
    MethodMdape meanTtft, meanTpot;
};

// Seeds 0 .. seeds-1; profiles selected on the mode's raw TTFT estimate among the rows
// profileExclusion allows; every other row of the stack is held out. A stack with fewer than
// profiles candidates or profiles + 1 rows is excluded (reason given).
LatencyStudy runLatencyStudy(const SiliconPrediction& p, const Workspace& ws, int profiles,
                             int seeds, double tau = 0.5,
                             ServingMode mode = ServingMode::Continuous);

} // namespace acsel
