// Silicon rows as the gate evaluation sees them: the estimator's raw estimate of each row
// (predictSiliconRows, the mapping `acsel calibrate` and `acsel predict` use), joined on id
// with AIC's estimate of the same row when an AIC estimates file is given.
#pragma once

#include "core/eval/aicestimates.h"
#include "core/eval/gateevaluation.h"
#include "core/latency/siliconstudy.h"

#include <string>
#include <vector>

namespace acsel
{

struct SiliconGateRows {
    std::vector<GateRow> rows;           // the predictable rows, in file order
    int aicRows = 0, aicRefused = 0;     // of `rows`: with an AIC line, of those refused by AIC
    std::vector<std::string> aicMissing; // ids of `rows` the AIC file has no line for
};

// Workload key: system, isl, osl and concurrency (the configuration is model, format and
// backend). Profile candidates as profileExclusion(mode). `aicFile` names the file of `aic`
// in messages. Throws LoadError when an AIC line's system or backend differs from its row's.
SiliconGateRows siliconGateRows(const SiliconPrediction& p, const Workspace& ws, ServingMode mode,
                                const std::vector<AicEstimate>& aic, const std::string& aicFile);

} // namespace acsel
