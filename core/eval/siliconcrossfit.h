// Cross-fitting the simulated campaign's truth on real silicon rows: per stack, the
// measured rows are split in two by a seeded hash of their ids. One half fits the residual
// model (the campaign's latency truth, residualmodel.h); the OTHER half judges it: its median
// absolute log error on rows it never saw. FMC is fitted on neither: on profiled
// configurations of the campaign (evaluator.h), as in the paper.
#pragma once

#include "core/eval/evalsetup.h"
#include "core/eval/residualmodel.h"
#include "core/latency/siliconstudy.h"
#include "core/search/engine.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace acsel
{

struct SiliconCrossFit {
    std::string stack;
    ResidualModel ttft, tpot;
    std::vector<std::string> residualRows, validationRows; // silicon row ids, disjoint
    // Median |log(measured / truth model mean)| on the validation rows, and the same for the
    // gate's raw estimate (what the truth model adds over it).
    double heldOutTtft = 0, heldOutTpot = 0, rawTtft = 0, rawTpot = 0;
    WorkloadGrid workloads; // the distinct isl, osl and batch of the stack's rows
};

// Raw estimates from `e` at the request mode `mode` (the gate's own estimate). Empty with the
// reason when the stack has fewer than four predictable rows (two per half).
struct CrossFitResult {
    std::optional<SiliconCrossFit> fit;
    std::string reason;
};
CrossFitResult crossFitStack(const Engine& e, const SiliconPrediction& p, const std::string& stack,
                             ServingMode mode, std::uint64_t seed);

} // namespace acsel
