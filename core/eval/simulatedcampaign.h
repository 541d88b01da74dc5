// The simulated measurement campaign (SIMULATED DATA: there are no public measurements of band
// configurations). Its truth is not the gate's model:
// - latency: the full operator estimate x exp(residual model of the stack, fitted on real
//   silicon rows as a function of the workload, residualmodel.h; per tensor-parallel degree
//   where its rows suffice) x lognormal noise with the rows' unexplained spread, plus band effects
//   per engine step (ASSUMPTIONS, campaignassumptions.h);
// - memory: the prediction plus an engine term (ASSUMPTION) with lognormal spread;
// - RMQD: a given function (the demo quality generator, not the surrogate).
// Every value is a deterministic function of (configuration, request, seed), like a fixed
// dataset.
#pragma once

#include "core/eval/campaignassumptions.h"
#include "core/eval/residualmodel.h"
#include "core/search/engine.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace acsel
{

// The truth of one stack. Without residual models the measured latency is the estimate (plus
// band effects and noise): for tests.
struct StackTruth {
    std::optional<ResidualModel> ttft, tpot;
    BandEffects band;
    MemoryEffect memory;
    // The degrees whose rows fitted models of their own (siliconcrossfit.h): a configuration
    // split over that many GPUs takes them in place of ttft and tpot.
    std::map<int, ResidualPair> byTp;
};

struct Measurement {
    LatencyMs latency;
    double memoryBytes = 0;
    double rmqd = 0;
};

class SimulatedCampaign
{
public:
    using RmqdFn = std::function<double(const Config&)>;

    SimulatedCampaign(const Engine& e, RmqdFn measuredRmqd, std::uint64_t seed);
    void setTruth(const std::string& stackId, StackTruth truth);
    const StackTruth& truth(const std::string& stackId) const;

    Measurement measure(const Config& c, const Request& q) const;

private:
    const Engine& engine_;
    RmqdFn measuredRmqd_;
    std::uint64_t seed_;
    std::vector<std::pair<std::string, StackTruth>> truths_;
    StackTruth defaults_;
};

// A stable 64-bit hash of a configuration (its tensor-parallel degree too) and a request's
// workload (not its budgets).
std::uint64_t measurementKey(const Config& c, const Request& q, std::uint64_t seed);

// Band boundaries of a recipe, and those between two different GEMM formats.
int bandBoundaries(const BandRecipe& r);
int formatSwitches(const BandRecipe& r);

} // namespace acsel
