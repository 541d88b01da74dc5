// The straightforward form of estimateLatency, kept as the baseline of `acsel bench latency`
// and as an independent check of the fast path in the tests: every layer of every sampled
// step is costed from scratch (no grouping of equal bands, no reuse of the context-independent
// part of decode steps). Same operators (a dense or an MoE layer's, one GPU's share under
// tensor and expert parallelism with its all-reduces), same decode schedule, same result up
// to rounding.
#pragma once

#include "core/latency/opmodel.h"

namespace acsel
{

LatencyEstimate estimateLatencyNaive(const OpCosts& costs, const ModelArch& arch,
                                     const Config& config, const Request& request);

} // namespace acsel
