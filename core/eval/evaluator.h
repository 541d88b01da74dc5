// The Table-1 harness (docs/METHOD.md 5): one seeded request set, FMC fitted on profiled
// configurations of the campaign (or given) or no calibration, every searcher on every request
// with each searcher seed, metrics against the simulated measurements, per seed, over every
// stack and per stack.
#pragma once

#include "core/eval/evaldataset.h"
#include "core/eval/requestgenerator.h"
#include "core/search/searcher.h"

#include <array>
#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace acsel
{

// One algorithm with or without FMC, over the requests of one seed.
struct EvalMetrics {
    double answerRate = 0;
    double feasible0 = 0, feasible5 = 0, feasible10 = 0;
    // Measured RMQD minus the evaluation data's best feasible@10%, averaged over the requests
    // where Rand, HC and BP (those in the run) and this searcher are all feasible@10%.
    double gap10 = 0;
    int gapRequests = 0;
    double atLeastUniform10 = 0;
    double multiBand = 0;     // share of the answers with more than one band (NaN: none)
    double meanFullGates = 0; // full gates per request (Rand and HC get BandPareto's count)
    double meanSeconds = 0;   // search wall time per request (machine-dependent)
};

struct EvalRow {
    std::string algorithm;
    bool fmc = false;
    std::string stack; // empty: over every stack
    std::vector<EvalMetrics> perSeed;
};

// What one searcher returned on one request and how the campaign measured it.
struct EvalOutcome {
    bool answered = false;
    bool feasible[3] = {false, false, false}; // at 0, 5, 10 %
    std::optional<Config> config;
    Prediction predicted; // the gate's prediction of the returned configuration
    Measurement measured; // the simulated measurement of it
    std::int64_t fullGates = 0;
    double seconds = 0;
};

// One request of one seed: the request, the best of the evaluation data, and the outcome of
// every searcher row (indexed as the first EvalReport::rows, those over every stack).
struct RequestRecord {
    std::uint64_t seed = 0;
    int index = 0;
    Request request;
    Config faster, slower; // the uniform points its TPOT budget lies between (EvalRequest)
    DatasetBest best;
    std::vector<EvalOutcome> outcomes;
};

struct ResidualSpread {
    std::string stack;
    std::array<RunningMoments, 2> metric; // TTFT, TPOT
};

struct EvalReport {
    // Every algorithm with FMC, then without, over every stack; then the same per stack when
    // several are evaluated.
    std::vector<EvalRow> rows;
    int requests = 0;
    std::vector<std::uint64_t> seeds;
    // BandPareto against Exact on predicted RMQD (with FMC), over all seeds' requests.
    int bpAnswered = 0, bpEqualsExact = 0;
    double bpMeanPredictedGap = 0; // over requests where they differ
    std::vector<RequestRecord> perRequest;
    // Per stack: log(measured / FMC prediction) over the evaluation data of its requests.
    std::vector<ResidualSpread> residualAfterFmc;
    std::map<std::string, Calibration> fmc; // the FMC line of each stack
};

struct EvalOptions {
    EvalSetup setup;
    SearchOptions search; // space of the searchers (models, batches, ...)
    std::vector<std::string> algorithms{"rand", "hc", "bp", "exact"};
    int requests = 50;
    std::vector<std::uint64_t> seeds{1, 2, 3}; // the searchers' seeds
    // The request set and the FMC profiles: one for all seeds as in the paper, or, with
    // freshRequestsPerSeed, drawn again from each seed (more requests, a different protocol).
    std::uint64_t requestSeed = 1;
    bool freshRequestsPerSeed = false;
    std::uint64_t campaignSeed = 2026; // the simulated dataset is fixed across seeds
    // Per stack; a stack without one gets FMC fitted on its campaignProfiles().
    std::map<std::string, Calibration> fmc;
    // Configurations the quality surrogate was trained on: left out of the evaluation data.
    std::function<bool(const Config&)> inTraining;
};

// feasible@tol of a measured configuration against a request.
bool feasibleAt(const Measurement& m, const Request& q, double tolerance, double memoryBudgetBytes);

// The profiled configurations of one stack: `setup.fmcProfiles` drawn from the campaign's own
// population (uniform and 3-band recipes other than the evaluation data's, both KV formats,
// every fitting algorithm) at the stack's workloads, fitting the device, stratified over the
// raw TTFT estimate. Empty when fewer than two fit.
std::vector<std::pair<Config, Request>> campaignProfiles(const Engine& e, const EvalSetup& setup,
                                                         const std::string& stack,
                                                         std::uint64_t seed);

// Fits FMC (the paper's full median line) for one stack on its campaignProfiles() as the
// campaign measures them.
Calibration fitCampaignCalibration(const Engine& e, const SimulatedCampaign& campaign,
                                   const EvalSetup& setup, const std::string& stack,
                                   std::uint64_t seed);

EvalReport evaluate(const Engine& e, const SimulatedCampaign& campaign, const EvalOptions& options,
                    const ProgressFn& progress, const std::atomic<bool>& stop);

} // namespace acsel
