// ExactSearch (beyond the paper): the lowest predicted RMQD among all configurations that pass
// the full gate. Candidates that cannot pass are pruned exactly (memory is exact in FracMix;
// calibrated FracMix latency is a lower bound of the full estimate when the engine says so and
// FMC is monotone); the rest are full-gated in RMQD order until one passes. The candidates come
// in rounds of the lowest RMQD not yet gated (rmqdorder.h): memory O(round), not O(candidates).
#pragma once

#include "core/search/searchalgorithm.h"
#include "core/search/searcher.h"

#include <cstddef>

namespace acsel
{

class ExactSearch final : public Searcher
{
public:
    // Candidates kept by the first round; 0: RmqdOrder::kFirstRound. The tests use tiny rounds
    // to walk every path.
    explicit ExactSearch(std::size_t firstRound = 0) : firstRound_(firstRound) {}

    static SearcherInfo describe();
    std::string name() const override { return "exact"; }
    SearchResult run(const Engine& e, const Request& q, const SearchOptions& o,
                     const ProgressFn& progress, const std::atomic<bool>& stop) const override;

private:
    std::size_t firstRound_;
};

} // namespace acsel
