// The evaluation protocol's fixed choices (docs/METHOD.md 5, the paper's Table 1): the grid of the
// simulated evaluation data, how requests are drawn, and how FMC profiles are taken.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace acsel
{

// The workloads of requests and of the evaluation data: isl x osl, batch (= concurrency).
struct WorkloadGrid {
    std::vector<int> isls{128, 512, 2048, 8192};
    std::vector<int> osls{64, 256, 512};
    std::vector<int> batches{1, 4, 8, 16, 32};
    // GPUs of a request (of a stack with tensor-parallel rows: their tp_size values); its
    // anchors and profiles run on all of them (tp = gpus), as the measured rows did.
    std::vector<int> gpus{1};
};

struct EvalSetup {
    std::vector<std::string> stacks; // evaluated stacks
    std::vector<int> models;         // workspace model indices; empty = all that fit
    WorkloadGrid grid;               // of a stack without its own
    // Per stack, e.g. the workloads of its silicon rows, so the latency truth interpolates
    // between measured workloads instead of extrapolating.
    std::map<std::string, WorkloadGrid> stackGrids;
    const WorkloadGrid& gridOf(const std::string& stack) const
    {
        const auto it = stackGrids.find(stack);
        return it == stackGrids.end() ? grid : it->second;
    }
    int bandConfigsPerModel = 300; // random 3-band configurations per (stack, model)
    // Where the TPOT budget lies between the faster (0) and the slower (1) uniform point of
    // the request's headroom; looseSlack: the TTFT budget is the larger of the two points' TTFT
    // x U(1, 1 + looseSlack) (requestgenerator.h).
    double headroomMin = 0.2;
    double headroomMax = 0.8;
    double looseSlack = 0.1;
    double memorySlackMin = 0.9; // memory budget = the slower point's memory x U(min, max)
    double memorySlackMax = 1.3;
    // FMC: profiled configurations per stack (the paper's 30) and the quantile: 0.5 the
    // median (the paper), above it conservative.
    int fmcProfiles = 30;
    double fmcTau = 0.5;
};

} // namespace acsel
