// An engine that answers as another one: the base of engines that change one answer (their own
// calibration, no latency bound) and pass the rest through.
#pragma once

#include "core/search/engine.h"

namespace acsel
{

class ForwardingEngine : public Engine
{
public:
    explicit ForwardingEngine(const Engine& base) : base_(base) {}

    const Workspace& workspace() const override { return base_.workspace(); }
    LatencyMs rawLatency(const Config& c, const Request& q) const override
    {
        return base_.rawLatency(c, q);
    }
    double memoryBytes(const Config& c, const Request& q) const override
    {
        return base_.memoryBytes(c, q);
    }
    bool supportsTp(const Request& q, int tp) const override { return base_.supportsTp(q, tp); }
    std::optional<RunningRule> runningRule(const Config& c, const Request& q) const override
    {
        return base_.runningRule(c, q);
    }
    LatencyMs rawLatencyAt(const Config& c, const Request& q, int running) const override
    {
        return base_.rawLatencyAt(c, q, running);
    }
    LatencyMs conversionLatency(const Config& c, const Request& q) const override
    {
        return base_.conversionLatency(c, q);
    }
    bool fracMixIsLowerBound(const Request& q) const override
    {
        return base_.fracMixIsLowerBound(q);
    }
    Calibration calibration(const std::string& stackId) const override
    {
        return base_.calibration(stackId);
    }
    double rmqd(const Config& c) const override { return base_.rmqd(c); }
    bool qualitySynthetic() const override { return base_.qualitySynthetic(); }
    SurrogateTerms qualityTerms(int model, Algorithm a, bool lmHead, KvFormat kv) const override
    {
        return base_.qualityTerms(model, a, lmHead, kv);
    }
    std::string exportProblem(const Config& c, const Stack& s) const override
    {
        return base_.exportProblem(c, s);
    }
    std::optional<EngineMemory> engineMemory(const Config& c, const Request& q) const override
    {
        return base_.engineMemory(c, q);
    }
    bool engineMemoryFollowsEstimate(const Request& q) const override
    {
        return base_.engineMemoryFollowsEstimate(q);
    }

private:
    const Engine& base_;
};

} // namespace acsel
