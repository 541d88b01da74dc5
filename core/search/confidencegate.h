// The confidence gate of `acsel search --confidence P` and the window's Confidence: each
// stack's FMC lines replaced by their P-quantile lines at the request's concurrency and GPUs
// (core/latency/fmcconfidence.h, confidenceLines), so that the gate's "latency <= limit" holds with
// probability >= P per metric (the upper bound of the calibrated interval meets every budget). One
// function for both, so how the interval is conditioned (per stack, per concurrency) is decided in
// one place.
#pragma once

#include "core/latency/fmcfile.h"
#include "core/search/workspaceengine.h"

#include <string>
#include <vector>

namespace acsel
{

// 0.5 is the median line: no confidence gate.
inline constexpr double kNoConfidence = 0.5;

// Whether a stack's entry has the predictive spread of both metrics (files written by acsel
// calibrate from 3 profiles on; older files and fewer profiles have none).
bool hasIntervals(const FmcEntry& e);
// Whether any stack of the set has them: the confidence gate then applies to it.
bool hasIntervals(const FmcSet& set);

// Sets the engine's calibration of every stack of `set` with intervals to its P-quantile lines
// for requests at `at`'s concurrency over up to its GPUs (P in (0, 1); kNoConfidence leaves the
// engine as it is). Returns the stacks without intervals, which keep their median line.
std::vector<std::string> applyConfidence(WorkspaceEngine& engine, const FmcSet& set, double p,
                                         const Request& at);

} // namespace acsel
