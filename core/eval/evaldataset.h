// The simulated evaluation data of one request: uniform configurations and a fixed set of
// random 3-band configurations per (stack, model), at every batch >= the concurrency, measured
// by the campaign. Provides the best feasible@10% measured RMQD overall and among uniform ones.
#pragma once

#include "core/eval/evalsetup.h"
#include "core/eval/simulatedcampaign.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace acsel
{

class ConfigSpace;

struct DatasetBest {
    std::optional<double> bestRmqd;        // among feasible@tolerance configurations
    std::optional<double> bestUniformRmqd; // among feasible@tolerance uniform configurations
    int configurations = 0;
};

// The seed of one (stack, model)'s fixed random band recipes.
std::uint64_t stackModelSeed(const std::string& stack, int model);

// The campaign's recipes of one model: every uniform (format, scope), then `bandRecipeCount`
// random 3-band recipes drawn from `seed`, each band a different (format, scope).
std::vector<BandRecipe> campaignRecipes(const ConfigSpace& space, int bandRecipeCount,
                                        std::uint64_t seed);

DatasetBest bestInEvaluationData(const Engine& e, const SimulatedCampaign& campaign,
                                 const EvalSetup& setup, const Request& q, double tolerance = 0.10);

} // namespace acsel
