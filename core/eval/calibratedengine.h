// An engine that answers as another one but with its own calibration per stack: the evaluator
// compares the same searchers with FMC fitted on simulated profiles and with none (raw).
#pragma once

#include "core/search/engine.h"

#include <map>

namespace acsel
{

class CalibratedEngine final : public Engine
{
public:
    explicit CalibratedEngine(const Engine& base) : base_(base) {}
    void setCalibration(const std::string& stackId, Calibration c) { calibrations_[stackId] = c; }

    const Workspace& workspace() const override { return base_.workspace(); }
    LatencyMs rawLatency(const Config& c, const Request& q) const override
    {
        return base_.rawLatency(c, q);
    }
    double memoryBytes(const Config& c, const Request& q) const override
    {
        return base_.memoryBytes(c, q);
    }
    std::optional<RunningRule> runningRule(const Config& c, const Request& q) const override
    {
        return base_.runningRule(c, q);
    }
    LatencyMs rawLatencyAt(const Config& c, const Request& q, int running) const override
    {
        return base_.rawLatencyAt(c, q, running);
    }
    bool fracMixIsLowerBound(const Request& q) const override
    {
        return base_.fracMixIsLowerBound(q);
    }
    Calibration calibration(const std::string& stackId) const override
    {
        const auto it = calibrations_.find(stackId);
        return it == calibrations_.end() ? Calibration{} : it->second;
    }
    double rmqd(const Config& c) const override { return base_.rmqd(c); }
    SurrogateTerms qualityTerms(int model, Algorithm a, bool lmHead, KvFormat kv) const override
    {
        return base_.qualityTerms(model, a, lmHead, kv);
    }
    std::string exportProblem(const Config& c, const Stack& s) const override
    {
        return base_.exportProblem(c, s);
    }

private:
    const Engine& base_;
    std::map<std::string, Calibration> calibrations_;
};

} // namespace acsel
