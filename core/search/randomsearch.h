// Rand (docs/METHOD.md 4): draw random legal configurations, full-gate each, keep the admitted one
// with the lowest predicted RMQD, until the evaluation or time budget.
#pragma once

#include "core/search/searchalgorithm.h"
#include "core/search/searcher.h"

namespace acsel
{

class RandomSearch final : public Searcher
{
public:
    static SearcherInfo describe();
    std::string name() const override { return "rand"; }
    SearchResult run(const Engine& e, const Request& q, const SearchOptions& o,
                     const ProgressFn& progress, const std::atomic<bool>& stop) const override;
};

} // namespace acsel
