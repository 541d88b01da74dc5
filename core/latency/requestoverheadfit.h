// Fitting one release's request overhead (requestoverhead.h, docs/SERVING.md "Request overhead
// measured per release") on measured rows: the rows of one (stack, backend_version) the
// continuous model does not queue, their TTFT estimated without any overhead, and the whole
// number of ms h from 0 to kMaxRequestOverheadMs minimising the MdAPE of estimate + h against
// the measurement (the smallest h on ties). Held out: each concurrency sweep (sweepKey) in turn
// gets the h fitted on the release's other sweeps.
#pragma once

#include "core/latency/siliconstudy.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

inline constexpr int kMaxRequestOverheadMs = 1000;
// Fewer unqueued rows than this fit no entry (one sweep of a few concurrencies is noise).
inline constexpr int kMinOverheadRows = 6;

struct OverheadSample {
    double estimateMs = 0; // the continuous TTFT estimate without a request overhead
    double measuredMs = 0;
    std::string sweep; // sweepKey of the row
};

// The h of the header on all `rows` (none: 0).
int fitOverheadMs(std::span<const OverheadSample> rows);

struct OverheadFit {
    std::string stack, release;
    int rows = 0, sweeps = 0;
    int overheadMs = 0;
    double mdapeWithout = 0, mdapeWith = 0; // percent, in sample
    // Percent, each sweep predicted with the h of the others; NaN with a single sweep.
    double heldOutMdape = 0;
    bool enoughRows() const { return rows >= kMinOverheadRows; }
};

// Throws std::invalid_argument when `rows` is empty.
OverheadFit fitRequestOverhead(std::span<const OverheadSample> rows);

// The rows of `stack` measured on `release` that the continuous model does not queue, in
// file order, their estimate without the workspace's overhead for that release.
std::vector<OverheadSample> overheadSamples(const SiliconPrediction& p, const Workspace& ws,
                                            std::string_view stack, std::string_view release);

} // namespace acsel
