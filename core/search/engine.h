// What the search needs from the latency, memory and quality engines, behind one interface,
// so the searchers are tested against small hand-made engines and run on the real one.
#pragma once

#include "core/latency/enginememory.h"
#include "core/latency/servingmodel.h"
#include "core/model/config.h"
#include "core/model/workspace.h"
#include "core/quality/ridgesurrogate.h"

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>

namespace acsel
{

struct LatencyMs {
    double ttft = 0;
    double tpot = 0;
};

// FMC in log space, per metric: T = exp(delta) * T_est^gamma. Identity by default.
struct Calibration {
    double gammaTtft = 1, deltaTtft = 0, gammaTpot = 1, deltaTpot = 0;
    bool identity() const
    {
        return gammaTtft == 1 && deltaTtft == 0 && gammaTpot == 1 && deltaTpot == 0;
    }
    LatencyMs apply(LatencyMs raw) const
    {
        return {std::exp(deltaTtft) * std::pow(raw.ttft, gammaTtft),
                std::exp(deltaTpot) * std::pow(raw.tpot, gammaTpot)};
    }
    // Monotone increasing maps keep a lower bound a lower bound after calibration.
    bool monotone() const { return gammaTtft > 0 && gammaTpot > 0; }
    bool operator==(const Calibration&) const = default;
};

// Index of a band's (format, scope) choice in fixed per-choice tables.
inline constexpr int kChoiceSlots = kFormatCount * kScopeCount;
inline constexpr int choiceSlot(Format f, Scope s)
{
    return static_cast<int>(f) * kScopeCount + static_cast<int>(s);
}

class Engine
{
public:
    virtual ~Engine() = default;
    virtual const Workspace& workspace() const = 0;
    // The full per-band estimate, uncalibrated. Must be additive over layers up to band-boundary
    // conversion costs (>= 0, each set by the two formats meeting there), a layer's cost set by
    // its band choice and its kind (dense or MoE layer), so the FracMix mix of uniform
    // estimates is a lower bound (fracmixtable.cpp).
    virtual LatencyMs rawLatency(const Config& c, const Request& q) const = 0;
    virtual double memoryBytes(const Config& c, const Request& q) const = 0;
    // Whether the request's stack can cost a configuration split over `tp` GPUs (its
    // all-reduce); engines without collectives serve one GPU.
    virtual bool supportsTp(const Request&, int tp) const { return tp == 1; }
    // Continuous batching (servingmodel.h): how the requests run at once follow the memory
    // total within the context of `c` (model, batch, KV format), and the estimate at a given
    // number of them. FracMixTable then mixes uniform estimates at each recipe's own number;
    // nullopt (the default, and for static batching): it mixes rawLatency as it is.
    virtual std::optional<RunningRule> runningRule(const Config&, const Request&) const
    {
        return std::nullopt;
    }
    virtual LatencyMs rawLatencyAt(const Config& c, const Request& q, int running) const
    {
        (void)running;
        return rawLatency(c, q);
    }
    // What each band boundary where the activation format changes (activationConversions)
    // adds at least to rawLatency beyond the FracMix mix, in c's context (model, batch, KV
    // format, degree): the budget index adds it to its bounds. Zero (the default) when not
    // known.
    virtual LatencyMs conversionLatency(const Config&, const Request&) const { return {}; }
    // True when rawLatency is never below FracMixTable's soft latency for the same request:
    // the mix of uniform estimates (additive over layers plus non-negative conversions), at the
    // recipe's own running count where runningRule gives one. ExactSearch then prunes with
    // FracMix without losing the optimum.
    virtual bool fracMixIsLowerBound(const Request& q) const = 0;
    virtual Calibration calibration(const std::string& stackId) const = 0;
    virtual double rmqd(const Config& c) const = 0;
    // Whether rmqd() comes from synthetic quality data (by default the workspace's flag).
    virtual bool qualitySynthetic() const { return workspace().qualitySynthetic; }
    // The quality surrogate decomposed for one (model, algorithm, exclusions): predicted
    // log RMQD of a recipe = constant + per-band prefix-sum differences, O(bands).
    virtual SurrogateTerms qualityTerms(int model, Algorithm a, bool lmHeadQuantized,
                                        KvFormat kv) const = 0;
    // Empty when the configuration can be exported to the stack's backend; else why not.
    virtual std::string exportProblem(const Config& c, const Stack& s) const = 0;
    // What the stack's engine takes when `acsel launch` starts it for the configuration
    // (enginememory.h); nullopt (the default: engines of no real backend) checks nothing
    // beyond memoryBytes.
    virtual std::optional<EngineMemory> engineMemory(const Config&, const Request&) const
    {
        return std::nullopt;
    }
    // Whether memoryBytes(c, q) less engineMemory(c, q)->weightBytes is the same for every
    // band recipe of c's context (model, batch, KV format, degree): every term but the weights
    // follows the context, so a recipe's engine memory follows from its estimate (withWeights;
    // the budget index's AdmittedMemoryFloor). False by default.
    virtual bool engineMemoryFollowsEstimate(const Request&) const { return false; }
};

} // namespace acsel
