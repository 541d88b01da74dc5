// The simulated evaluation data of one request: uniform configurations and a fixed set of
// random 3-band configurations per (stack, model), at every batch >= the concurrency, measured
// by the campaign. Provides the best feasible@10% measured RMQD overall and among uniform ones.
#pragma once

#include "core/eval/evalsetup.h"
#include "core/eval/simulatedcampaign.h"

#include <optional>

namespace acsel
{

struct DatasetBest {
    std::optional<double> bestRmqd;        // among feasible@tolerance configurations
    std::optional<double> bestUniformRmqd; // among feasible@tolerance uniform configurations
    int configurations = 0;
};

DatasetBest bestInEvaluationData(const Engine& e, const SimulatedCampaign& campaign,
                                 const EvalSetup& setup, const Request& q, double tolerance = 0.10);

} // namespace acsel
