#include "core/model/choicelist.h"
#include "core/search/bandpareto.h"
#include "core/search/exactsearch.h"
#include "core/search/hillclimb.h"
#include "core/search/randomsearch.h"
#include "core/search/searchalgorithm.h"

#include <mutex>
#include <stdexcept>

namespace acsel
{

namespace
{

// Registration happens before any search starts (start-up, a test's first line); the lock keeps
// two registering threads from corrupting the list, lookups read it without one.
std::mutex registryMutex;

std::vector<SearcherInfo>& registry()
{
    // The built-in searchers, one line each.
    static std::vector<SearcherInfo> all{
        BandPareto::describe(),
        ExactSearch::describe(),
        HillClimb::describe(),
        RandomSearch::describe(),
    };
    return all;
}

} // namespace

std::size_t registerSearcher(SearcherInfo info)
{
    const std::lock_guard lock(registryMutex);
    std::vector<SearcherInfo>& all = registry();
    for (const SearcherInfo& s : all)
        if (s.name == info.name || s.savedName == info.savedName || s.name == info.savedName ||
            s.savedName == info.name)
            throw std::invalid_argument("a searcher named '" + info.name + "' or '" +
                                        info.savedName + "' is already registered");
    if (info.name.empty() || info.savedName.empty() || !info.make)
        throw std::invalid_argument("a searcher needs a name, a saved name and a factory");
    all.push_back(std::move(info));
    return all.size() - 1;
}

const std::vector<SearcherInfo>& searchers()
{
    return registry();
}

std::optional<SearchAlgorithm> SearchAlgorithm::parse(std::string_view name)
{
    const std::vector<SearcherInfo>& all = searchers();
    for (std::size_t i = 0; i < all.size(); ++i)
        if (name == all[i].name || name == all[i].savedName)
            return SearchAlgorithm(Index{}, i);
    return std::nullopt;
}

SearchAlgorithm::SearchAlgorithm(std::string_view name)
{
    const std::optional<SearchAlgorithm> a = parse(name);
    if (!a)
        throw std::invalid_argument("no searcher named '" + std::string(name) + "'");
    index_ = a->index_;
}

SearchAlgorithm SearchAlgorithm::at(std::size_t index)
{
    if (index >= searchers().size())
        throw std::out_of_range("no searcher at position " + std::to_string(index));
    return SearchAlgorithm(Index{}, index);
}

std::unique_ptr<Searcher> SearchAlgorithm::make() const
{
    return info().make();
}

std::unique_ptr<Searcher> makeSearcher(std::string_view name)
{
    const std::optional<SearchAlgorithm> a = SearchAlgorithm::parse(name);
    return a ? a->make() : nullptr;
}

std::string searchAlgorithmChoices()
{
    return choiceList(searchers(), [](const SearcherInfo& s) { return s.name; });
}

} // namespace acsel
