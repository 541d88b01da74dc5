// ExactSearch (beyond the paper): the lowest predicted RMQD among all configurations that pass
// the full gate. Candidates that cannot pass are pruned exactly (memory is exact in FracMix;
// calibrated FracMix latency is a lower bound of the full estimate when the engine says so and
// FMC is monotone); the rest are full-gated in RMQD order until one passes. The candidates are
// selected in rounds of the lowest RMQD not yet gated, so memory is O(round), not O(candidates).
#pragma once

#include "core/search/searcher.h"

#include <cstddef>

namespace acsel
{

class ExactSearch final : public Searcher
{
public:
    // Candidates kept by the first round; each round gated through without an answer makes the
    // next one kRoundGrowth times larger. The tests use tiny rounds to walk every path.
    static constexpr std::size_t kFirstRound = 4096;
    static constexpr std::size_t kRoundGrowth = 4;
    explicit ExactSearch(std::size_t firstRound = kFirstRound) : firstRound_(firstRound) {}

    std::string name() const override { return "exact"; }
    SearchResult run(const Engine& e, const Request& q, const SearchOptions& o,
                     const ProgressFn& progress, const std::atomic<bool>& stop) const override;

private:
    std::size_t firstRound_;
};

} // namespace acsel
