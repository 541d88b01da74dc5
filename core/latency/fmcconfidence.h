// The gate "latency <= limit with probability >= p" for a request at a given concurrency: the
// one rule `search --confidence P`, the window and `eval gate` share.
//
// An FMC file has a spread per fitted concurrency (fmcchoice.h, FmcLoadSpread) and one for the
// stack. A request at a fitted concurrency takes that concurrency's p-quantile. Between two
// fitted concurrencies (same tp) it takes the larger of the two neighbours' p-quantiles, not an
// interpolation: any interpolation is a weighted mean of the two, so never above their maximum,
// and a gate on the maximum admits a subset of what any interpolated gate admits; it bounds the
// true quantile whenever that is monotone in the concurrency between the neighbours (queueing
// grows with it), where interpolation would also need it linear. Outside the fitted
// concurrencies (below the lowest, above the highest, or a tp with none fitted) nothing bounds
// it: the larger of the nearest fitted concurrency's quantile and the stack's, so never less
// cautious than the stack's interval. A request that may split over up to `gpus` GPUs takes
// the largest over the tensor-parallel degrees 1, 2, 4, 8 it may use.
#pragma once

#include "core/latency/fmcchoice.h"
#include "core/latency/fmcfile.h"

#include <optional>
#include <string_view>
#include <vector>

namespace acsel
{

// A serving load as loadKey (silicon.h) spells it: "c64" (tp 1), "c64|tp2".
struct FmcLoad {
    int concurrency = 1;
    int tp = 1;
};
std::optional<FmcLoad> parseFmcLoad(std::string_view key);

// The log-space shift of the p-quantile line (added to the line's delta) for a row at `at`, by
// the rule above; p = 0.5 gives the centre (0 on the stack's spread). nullopt when the spread
// the rule needs is not known (too few profiles, or a file written before intervals). Throws
// std::invalid_argument when p is outside (0, 1).
std::optional<double> confidenceShift(const std::vector<FmcLoadSpread>& loads,
                                      const FmcSpread& stack, FmcLoad at, double p);

// The lines a gate at confidence p uses for one stack's requests at `concurrency` over up to
// `gpus` GPUs: each metric's line shifted by the largest confidenceShift over the degrees; at
// p = 0.5 the file's lines as they are (the median line). nullopt when a metric's spread is not
// known.
struct FmcGateLines {
    FmcLine ttft, tpot;
};
std::optional<FmcGateLines> confidenceLines(const FmcEntry& e, int concurrency, int gpus, double p);

} // namespace acsel
