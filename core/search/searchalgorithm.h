// The searchers as one registry, for the CLI (--algo), sessions, the GUI and eval. Each searcher
// describes itself (its class's static describe(): names, traits, factory) and
// searcherregistry.cpp registers the built-in ones; a test or a plugin adds one with
// registerSearcher(). Every list of searcher names is read from here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

class Searcher;

struct SearcherInfo {
    std::string name{};      // "bp": --algo, eval reports, acsel search's output
    std::string savedName{}; // "band_pareto": session files (search_algorithm)
    std::string label{};     // "BandPareto": for display
    std::string summary{};   // one line for tooltips
    // Returns the predicted optimum of the space (the budget index answers it too).
    bool exact = false;
    // One of the paper's Table 1 searchers: eval's gap@10% is taken over their common set.
    bool paperBaseline = false;
    // Draws candidates until an evaluation budget: eval gives it the full-gate count of the
    // searcher marked budgetReference, as the paper's protocol does.
    bool sampling = false;
    bool budgetReference = false;
    std::function<std::unique_ptr<Searcher>()> make{};
};

// Adds a searcher after the built-in ones; refuses (std::invalid_argument) a name or saved name
// already taken. Returns its position.
std::size_t registerSearcher(SearcherInfo info);
// Every searcher, built-in ones first, in registration order.
const std::vector<SearcherInfo>& searchers();

// One searcher of the registry; copies and compares like an enum value.
class SearchAlgorithm
{
public:
    // A registered name or saved name; throws std::invalid_argument for another (for names
    // the code spells; input goes through parse()).
    explicit SearchAlgorithm(std::string_view name);
    // Either spelling ("bp" or "band_pareto"); nullopt for anything else.
    static std::optional<SearchAlgorithm> parse(std::string_view name);
    static SearchAlgorithm at(std::size_t index);

    std::size_t index() const { return index_; }
    const SearcherInfo& info() const { return searchers()[index_]; }
    std::unique_ptr<Searcher> make() const;
    bool operator==(const SearchAlgorithm&) const = default;

private:
    struct Index {
    };
    SearchAlgorithm(Index, std::size_t i) : index_(i) {}
    std::size_t index_ = 0;
};

inline std::string_view toString(SearchAlgorithm a)
{
    return a.info().name;
}

// "bp, exact, hc or rand", for usage lines and errors.
std::string searchAlgorithmChoices();

// The default where none is asked for (acsel search without --algo, the window's Automatic,
// acsel bench search --suite; docs/SEARCH.md): Exact, exact and faster than BandPareto on every
// case of the suite, static and continuous batching.
inline constexpr std::string_view kDefaultSearchAlgorithmName = "exact";
inline SearchAlgorithm defaultSearchAlgorithm()
{
    return SearchAlgorithm(kDefaultSearchAlgorithmName);
}

// What a user asks for: one searcher, or (nullopt) the default, as acsel search does without
// --algo. Sessions save nullopt as kAutomaticAlgorithm.
using SearchAlgorithmChoice = std::optional<SearchAlgorithm>;
inline constexpr std::string_view kAutomaticAlgorithm = "automatic";
inline SearchAlgorithm resolvedAlgorithm(SearchAlgorithmChoice choice)
{
    return choice ? *choice : defaultSearchAlgorithm();
}

} // namespace acsel
