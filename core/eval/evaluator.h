// The Table-1 harness (METHOD.md 5): seeded requests, FMC fitted on simulated profiles (or no
// calibration), every searcher on every request, metrics against the simulated measurements.
#pragma once

#include "core/eval/requestgenerator.h"
#include "core/search/searcher.h"

#include <atomic>
#include <string>
#include <vector>

namespace acsel
{

// One algorithm with or without FMC, over the requests of one seed.
struct EvalMetrics {
    double answerRate = 0;
    double feasible0 = 0, feasible5 = 0, feasible10 = 0;
    double gap10 = 0; // mean over requests where every compared searcher is feasible@10%
    int gapRequests = 0;
    double atLeastUniform10 = 0;
    double meanSeconds = 0; // search wall time per request
};

struct EvalRow {
    std::string algorithm;
    bool fmc = false;
    std::vector<EvalMetrics> perSeed;
};

struct EvalReport {
    std::vector<EvalRow> rows;
    int requests = 0;
    std::vector<std::uint64_t> seeds;
    // BandPareto against Exact on predicted RMQD (with FMC), over all seeds' requests.
    int bpAnswered = 0, bpEqualsExact = 0;
    double bpMeanPredictedGap = 0; // over requests where they differ
};

struct EvalOptions {
    EvalSetup setup;
    SearchOptions search; // space of the searchers (models, batches, ...)
    std::vector<std::string> algorithms{"rand", "hc", "bp", "exact"};
    int requests = 50;
    std::vector<std::uint64_t> seeds{1, 2, 3};
    std::uint64_t campaignSeed = 2026; // the simulated dataset is fixed across seeds
};

// feasible@tol of a measured configuration against a request.
bool feasibleAt(const Measurement& m, const Request& q, double tolerance, double memoryBudgetBytes);

// Fits FMC for each evaluated stack from `setup.fmcProfiles` simulated profiles, stratified over
// the raw estimate, at workloads off the evaluation grid.
Calibration fitCampaignCalibration(const Engine& e, const SimulatedCampaign& campaign,
                                   const EvalSetup& setup, const std::string& stack,
                                   std::uint64_t seed);

EvalReport evaluate(const Engine& e, const SimulatedCampaign& campaign, const EvalOptions& options,
                    const ProgressFn& progress, const std::atomic<bool>& stop);

} // namespace acsel
