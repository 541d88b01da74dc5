// The simulated measurement campaign (SIMULATED DATA: there are no public measurements of band
// configurations). "Measured" latency is the full operator estimate distorted by stack effects
// the surrogate does not model; "measured" RMQD comes from the demo quality generator. Every
// value is a deterministic function of (configuration, request, seed), like a fixed dataset.
#pragma once

#include "core/search/engine.h"

#include <cstdint>
#include <functional>
#include <string>

namespace acsel
{

// Stack effects, per stack (defaults from the gap between raw estimates and the real silicon
// rows of AIC's dense_tp1.csv; docs/EVALUATION.md gives the derivation).
struct StackEffects {
    double ttftScale = 1.0;      // systematic measured/estimate ratio of TTFT
    double tpotScale = 1.0;      // ... of TPOT
    double stepOverheadMs = 0.0; // framework overhead per engine step (scheduling, sampling)
    double boundaryCostMs = 0.0; // extra cost per band boundary per step (format conversion)
    double noiseSigma = 0.05;    // lognormal noise of one measurement
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
    void setEffects(const std::string& stackId, StackEffects effects);
    const StackEffects& effects(const std::string& stackId) const;

    Measurement measure(const Config& c, const Request& q) const;

private:
    const Engine& engine_;
    RmqdFn measuredRmqd_;
    std::uint64_t seed_;
    std::vector<std::pair<std::string, StackEffects>> effects_;
    StackEffects defaults_;
};

// A stable 64-bit hash of a configuration and a request's workload (not its budgets).
std::uint64_t measurementKey(const Config& c, const Request& q, std::uint64_t seed);

} // namespace acsel
