// HC (docs/METHOD.md 4): start from the best admitted uniform configuration (or the least violating
// one), move to the best admitted neighbour (one band one step along the format ladder or to
// another scope, one cut moved by a layer, a band split or two merged), restart from a random
// uniform configuration when stuck, until the budget.
#pragma once

#include "core/model/configspace.h"
#include "core/search/searchalgorithm.h"
#include "core/search/searcher.h"

namespace acsel
{

class HillClimb final : public Searcher
{
public:
    static SearcherInfo describe();
    std::string name() const override { return "hc"; }
    SearchResult run(const Engine& e, const Request& q, const SearchOptions& o,
                     const ProgressFn& progress, const std::atomic<bool>& stop) const override;
};

// The neighbours of a recipe as HC defines them: canonical, legal (some algorithm fits), and
// distinct from the recipe itself. `ladder` lists the formats low to high bits.
std::vector<BandRecipe> recipeNeighbours(const BandRecipe& r,
                                         const std::vector<FormatScope>& choices,
                                         const std::vector<Format>& ladder);

} // namespace acsel
