// Cross-fitting the simulated campaign's truth on real silicon rows: per stack, the
// measured rows are split in two by a seeded hash of their ids. One half fits the residual
// model (the campaign's latency truth, residualmodel.h); the OTHER half judges it: its median
// absolute log error on rows it never saw. Rows of several tensor-parallel degrees also fit
// one model per degree that has kMinDegreeResidualRows of them in the fitting half; the other
// degrees take the stack's. FMC is fitted on neither: on profiled configurations of the
// campaign (evaluator.h), as in the paper.
#pragma once

#include "core/eval/evalsetup.h"
#include "core/eval/residualmodel.h"
#include "core/latency/siliconstudy.h"
#include "core/search/engine.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace acsel
{

// One tensor-parallel degree of a stack whose rows have several.
struct DegreeCrossFit {
    int tp = 1;
    int residualRows = 0, validationRows = 0; // the degree's rows in each half
    std::optional<ResidualPair> own; // with kMinDegreeResidualRows fitted rows; else the stack's
    // Median |log error| on the degree's validation rows of the models it takes and of the
    // stack's (equal without its own); NaN without validation rows.
    double heldOutTtft = 0, heldOutTpot = 0, stackTtft = 0, stackTpot = 0;
};

struct SiliconCrossFit {
    std::string stack;
    ResidualModel ttft, tpot;                              // the stack's, on every fitted row
    std::vector<std::string> residualRows, validationRows; // silicon row ids, disjoint
    // Ascending, one per degree when the rows have more than one; empty otherwise.
    std::vector<DegreeCrossFit> degrees;
    // Median |log(measured / truth model mean)| on the validation rows (each with its degree's
    // models where it has its own), and the same for the gate's raw estimate (what the truth
    // model adds over it).
    double heldOutTtft = 0, heldOutTpot = 0, rawTtft = 0, rawTpot = 0;
    // The degrees with models of their own, as StackTruth::byTp takes them.
    std::map<int, ResidualPair> ownModels() const;
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
