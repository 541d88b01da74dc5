// The rows of a prediction's breakdowns, as the CLI prints them and the window's card shows
// them: the operator classes of one step and the parts of the memory estimate.
#pragma once

#include "core/latency/memorymodel.h"
#include "core/latency/opmodel.h"

#include <string>
#include <utility>
#include <vector>

namespace acsel::app
{

using BreakdownRows = std::vector<std::pair<std::string, double>>; // name -> value, in order

// The raw estimate's operator classes and, when calibration or the serving model changes the
// total, a "calibration and serving" row, so the rows sum to predictedMs.
BreakdownRows operatorRows(const StepBreakdown& s, int bands, double predictedMs);
// The memory estimate's parts in GiB (the serving reserve only when there is one: continuous
// batching, the KV pool's share for one request).
BreakdownRows memoryRows(const MemoryEstimate& m);

} // namespace acsel::app
