// Raw estimates for end-to-end measurements (AIC silicon rows), and the paper's Table 2 on
// them: per stack, K profiles chosen stratified over log T_estimate, the rest held out; MdAPE
// of raw, FMC, FMC-MSE and LR on the held-out rows, mean over seeds.
#pragma once

#include "core/data/silicon.h"
#include "core/latency/fmc.h"
#include "core/latency/linearbaseline.h"
#include "core/latency/memorymodel.h"
#include "core/latency/opmodel.h"

#include <string>
#include <vector>

namespace acsel
{

struct PredictedSiliconRow {
    SiliconRow row;
    int stack = -1;
    Config config;
    Request request;
    LatencyEstimate raw;
    MemoryEstimate memory;
    LrFeatures lrTtft{}, lrTpot{};
    std::string attentionNote; // attention lookups that used substitute data
    double measured(LatencyMetric m) const
    {
        return m == LatencyMetric::Ttft ? row.ttftMs : row.tpotMs;
    }
    double estimate(LatencyMetric m) const
    {
        return m == LatencyMetric::Ttft ? raw.ttftMs : raw.tpotMs;
    }
};

struct SkippedSiliconRow {
    SiliconRow row;
    std::string reason;
};

struct SiliconPrediction {
    std::vector<PredictedSiliconRow> rows; // in file order
    std::vector<SkippedSiliconRow> skipped;
    std::vector<std::string> assumptions; // distinct, in first-seen order
};

// Maps every row (mapSiliconRow), loads each needed stack's tables once, and estimates.
// Throws LoadError if a needed table is malformed.
SiliconPrediction predictSiliconRows(const Workspace& ws, const std::vector<SiliconRow>& rows);

struct MethodMdape {
    double raw = 0, fmc = 0, fmcMse = 0, lr = 0; // percent
};

struct StackStudy {
    std::string stack;
    int rows = 0;           // predictable rows of the stack
    int profiles = 0;       // K
    MethodMdape ttft, tpot; // mean over seeds of the held-out MdAPE
};

struct LatencyStudy {
    int profiles = 0, seeds = 0;
    double tau = 0.5;
    std::vector<StackStudy> stacks;
    std::vector<std::pair<std::string, std::string>> excludedStacks; // stack, reason
    MethodMdape meanTtft, meanTpot; // unweighted means over the studied stacks
};

// Seeds 0 .. seeds-1; profiles selected on the raw TTFT estimate. A stack with fewer than
// profiles + 1 rows is excluded (reason given).
LatencyStudy runLatencyStudy(const SiliconPrediction& p, const Workspace& ws, int profiles,
                             int seeds, double tau = 0.5);

} // namespace acsel
