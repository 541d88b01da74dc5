#include "core/search/bandpareto.h"
#include "core/search/exactsearch.h"
#include "core/search/hillclimb.h"
#include "core/search/randomsearch.h"

namespace acsel
{

std::unique_ptr<Searcher> makeSearcher(const std::string& name)
{
    if (name == "bp")
        return std::make_unique<BandPareto>();
    if (name == "exact")
        return std::make_unique<ExactSearch>();
    if (name == "hc")
        return std::make_unique<HillClimb>();
    if (name == "rand")
        return std::make_unique<RandomSearch>();
    return nullptr;
}

} // namespace acsel
