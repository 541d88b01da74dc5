// An engine that answers as another one but with its own calibration per stack: the evaluator
// compares the same searchers with FMC fitted on simulated profiles and with none (raw).
#pragma once

#include "core/search/forwardingengine.h"

#include <map>

namespace acsel
{

class CalibratedEngine final : public ForwardingEngine
{
public:
    explicit CalibratedEngine(const Engine& base) : ForwardingEngine(base) {}
    void setCalibration(const std::string& stackId, Calibration c) { calibrations_[stackId] = c; }

    Calibration calibration(const std::string& stackId) const override
    {
        const auto it = calibrations_.find(stackId);
        return it == calibrations_.end() ? Calibration{} : it->second;
    }

private:
    std::map<std::string, Calibration> calibrations_;
};

} // namespace acsel
