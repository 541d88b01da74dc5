// The evaluation protocol's fixed choices (docs/METHOD.md 5, the paper's Table 1): the grid of the
// simulated evaluation data, how requests are drawn, and how FMC profiles are taken.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace acsel
{

struct EvalSetup {
    std::vector<std::string> stacks; // evaluated stacks
    std::vector<int> models;         // workspace model indices; empty = all that fit
    std::vector<int> batches{1, 4, 8, 16, 32};
    std::vector<int> isls{128, 512, 2048, 8192};
    std::vector<int> osls{64, 256, 512};
    int bandConfigsPerModel = 300; // random 3-band configurations per (stack, model)
    double tightenMin = 0.6;       // budget = anchor's measured latency x U(min, max)
    double tightenMax = 0.95;
    double memorySlackMin = 0.9; // memory budget = anchor's memory x U(min, max)
    double memorySlackMax = 1.3;
    int fmcProfiles = 30; // profiled configurations per stack
    double fmcTau = 0.5;  // FMC quantile: 0.5 the median (the paper), above it conservative
    // Profile workloads: off the evaluation grid, so profiles are disjoint from evaluation data.
    std::vector<int> profileIsls{256, 1024, 4096};
    std::vector<int> profileOsls{128, 384};
};

} // namespace acsel
