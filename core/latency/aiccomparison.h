// Our latency estimates against AIConfigurator's own on the same silicon rows:
// `acsel report latency --against aic_estimates.csv`. Per stack and pooled over the rows both
// tools answer: raw MdAPE of each, and held-out MdAPE after FMC (the same never-hurts FMC,
// fmcchoice.h, fitted on each tool's estimates of the same profile rows), plus the coverage of
// our 90 % predictive intervals on the held-out rows.
#pragma once

#include "core/latency/siliconstudy.h"

#include <map>
#include <string>
#include <vector>

namespace acsel
{

// One row of AIC's estimates file (shared/aic/estimates/README.md), agg mode only, as the
// latency comparison reads it (core/eval/aicestimates.h reads the same file for the gate
// evaluation; one reader for both is left to do).
struct AicComparisonRow {
    std::string id;
    bool answered = false; // aic_agg_status "ok"
    double ttftMs = 0, tpotMs = 0;
    std::string kvCacheDtype, gemmDtype;
};

// Keyed by row id. Throws LoadError naming file, line and column (a missing column, an "ok"
// row without positive estimates, a repeated id).
std::map<std::string, AicComparisonRow> loadAicEstimates(const std::string& path);

struct ToolPair {
    double ours = 0, aic = 0; // percent
};

struct AicStackComparison {
    std::string stack;
    int rows = 0; // rows both tools answer
    ToolPair rawTtft, rawTpot;
    bool calibrated = false;   // enough rows for K profiles + one held out
    ToolPair fmcTtft, fmcTpot; // held-out MdAPE, mean over seeds
    // Our raw estimate on the same held-out rows: what FMC must not make worse.
    double rawHeldOutTtft = 0, rawHeldOutTpot = 0;
    // Our 90 % intervals: share of held-out rows inside, mean over seeds (calibrated only).
    double coverageTtft = 0, coverageTpot = 0;
    int heldOut = 0; // held-out rows per seed
};

// Raw MdAPE of both tools on the common rows of one (model as measured, stack, tp_size,
// moe_ep_size: 1 for a dense model).
struct AicGroupComparison {
    std::string model, stack;
    int tp = 1;
    int moeEp = 1;
    int rows = 0;
    ToolPair rawTtft, rawTpot;
};

struct AicComparison {
    int profiles = 0, seeds = 0;
    double tau = 0.5, intervalLevel = 0.9;
    std::vector<AicStackComparison> stacks;
    std::vector<AicGroupComparison> groups; // by model, stack, tp
    AicStackComparison pooled; // raw over all common rows; FMC and coverage over the held-out
                               // rows of the calibrated stacks, pooled per seed
    int oursOnly = 0;          // rows we answer that AIC refuses or lacks
    int aicOnly = 0;           // rows AIC answers that we skip
};

// Profiles drawn per stack as in runLatencyStudy (stratified on our raw TTFT estimate of the
// mode, seeds 0 .. seeds-1), among the rows both tools answer.
AicComparison compareWithAic(const SiliconPrediction& p, const Workspace& ws,
                             const std::map<std::string, AicComparisonRow>& aic, int profiles,
                             int seeds, double tau, ServingMode mode, double intervalLevel = 0.9);

} // namespace acsel
