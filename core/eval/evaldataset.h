// The simulated evaluation data of one request: uniform configurations and a fixed set of
// random 3-band configurations per (stack, model), at every batch >= the concurrency, measured
// by the campaign. Provides the best feasible@10% measured RMQD overall and among uniform ones.
#pragma once

#include "core/eval/evalsetup.h"
#include "core/eval/simulatedcampaign.h"

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace acsel
{

class ConfigSpace;

// Mean and spread of a stream of values.
struct RunningMoments {
    int n = 0;
    double sum = 0, sumSquares = 0;
    void add(double v)
    {
        ++n;
        sum += v;
        sumSquares += v * v;
    }
    void add(const RunningMoments& o)
    {
        n += o.n;
        sum += o.sum;
        sumSquares += o.sumSquares;
    }
    double mean() const;
    double sd() const; // population standard deviation
};

struct DatasetBest {
    std::optional<double> bestRmqd;        // among feasible@tolerance configurations
    std::optional<double> bestUniformRmqd; // among feasible@tolerance uniform configurations
    int configurations = 0;
    int leftOut = 0;                        // configurations the surrogate was trained on
    std::array<RunningMoments, 2> residual; // log(measured / calibrated), with a calibration
};

// The seed of one (stack, model)'s fixed random band recipes.
std::uint64_t stackModelSeed(const std::string& stack, int model);

// The campaign's recipes of one model: every uniform (format, scope), then `bandRecipeCount`
// random 3-band recipes drawn from `seed`, each band a different (format, scope).
std::vector<BandRecipe> campaignRecipes(const ConfigSpace& space, int bandRecipeCount,
                                        std::uint64_t seed);

// Every configuration of the evaluation data but those `inTraining` names; with `fmc`, also the
// residual log(measured / FMC prediction) of each.
DatasetBest bestInEvaluationData(const Engine& e, const SimulatedCampaign& campaign,
                                 const EvalSetup& setup, const Request& q, double tolerance = 0.10,
                                 const Calibration* fmc = nullptr,
                                 const std::function<bool(const Config&)>& inTraining = {});

} // namespace acsel
