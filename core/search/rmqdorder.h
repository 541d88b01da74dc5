// The screened candidates of a run in non-decreasing predicted RMQD, without storing them all:
// a round walks the space once (on the run's threads) and keeps, in a max-heap per thread, the
// lowest-RMQD candidates above the RMQD already yielded; their union holds the round's lowest,
// so the rounds are the same for any number of threads. Candidates below the round's largest
// kept RMQD are complete (any other would have displaced it) and are yielded in order; those
// tied at it may be incomplete and start the next round, which, when the whole round is one
// RMQD, takes every candidate of it. A round yielded to its end makes the next kGrowth times
// larger. Memory: O(round), not O(candidates).
#pragma once

#include "core/search/screeningrun.h"

#include <cstddef>
#include <optional>
#include <vector>

namespace acsel
{

class RmqdOrder
{
public:
    static constexpr std::size_t kFirstRound = 4096;
    static constexpr std::size_t kGrowth = 4;

    // `screen` (nullptr: memory only) as forEachScreenedRecipe; the first walk counts the
    // space and reports progress up to progressShare, later ones do neither.
    RmqdOrder(ScreeningRun& run, const LatencyScreen* screen, double progressShare,
              std::size_t firstRound = kFirstRound);

    // The next candidate; at equal RMQD the lowest calibrated FracMix normalised latency first
    // (normLatency is set). Empty when there is none left or the run was cancelled.
    std::optional<ScoredCandidate> next();

private:
    void nextRound();

    ScreeningRun& run_;
    const LatencyScreen* screen_;
    double progressShare_;
    std::size_t roundSize_;
    bool firstRound_ = true, exhausted_ = false;
    double yielded_;                     // every candidate of RMQD <= this has been yielded
    std::vector<ScoredCandidate> ready_; // the round's complete rest, highest RMQD first
    std::vector<ScoredCandidate> tied_;  // one RMQD, the fastest last
};

} // namespace acsel
