// BandPareto (docs/METHOD.md 4): enumerate legal recipes, soft-screen each with FracMix + FMC
// (within 1 + eta of the budgets, memory exact), keep the Pareto frontier of (predicted RMQD,
// normalised latency), full-gate the survivors in RMQD order, return the first admitted.
#pragma once

#include "core/search/searchalgorithm.h"
#include "core/search/searcher.h"

namespace acsel
{

class BandPareto final : public Searcher
{
public:
    static SearcherInfo describe();
    std::string name() const override { return "bp"; }
    SearchResult run(const Engine& e, const Request& q, const SearchOptions& o,
                     const ProgressFn& progress, const std::atomic<bool>& stop) const override;
};

} // namespace acsel
