// ExactSearch (beyond the paper): the lowest predicted RMQD among all configurations that pass
// the full gate. Candidates that cannot pass are pruned exactly (memory is exact in FracMix;
// calibrated FracMix latency is a lower bound of the full estimate when the engine says so and
// FMC is monotone); the rest are full-gated in RMQD order until one passes.
#pragma once

#include "core/search/searcher.h"

namespace acsel
{

class ExactSearch final : public Searcher
{
public:
    std::string name() const override { return "exact"; }
    SearchResult run(const Engine& e, const Request& q, const SearchOptions& o,
                     const ProgressFn& progress, const std::atomic<bool>& stop) const override;
};

} // namespace acsel
