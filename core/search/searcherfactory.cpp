#include "core/search/bandpareto.h"
#include "core/search/exactsearch.h"
#include "core/search/hillclimb.h"
#include "core/search/randomsearch.h"
#include "core/search/searchalgorithm.h"

namespace acsel
{

std::unique_ptr<Searcher> makeSearcher(SearchAlgorithm a)
{
    switch (a) {
    case SearchAlgorithm::BandPareto:
        return std::make_unique<BandPareto>();
    case SearchAlgorithm::Exact:
        return std::make_unique<ExactSearch>();
    case SearchAlgorithm::HillClimb:
        return std::make_unique<HillClimb>();
    case SearchAlgorithm::Random:
        return std::make_unique<RandomSearch>();
    }
    return nullptr;
}

std::unique_ptr<Searcher> makeSearcher(const std::string& name)
{
    const auto a = parseSearchAlgorithm(name);
    return a ? makeSearcher(*a) : nullptr;
}

} // namespace acsel
