// The searchers as one enum with one name table, for the CLI (--algo), sessions, the GUI and
// eval. Each has its short name (what acsel prints and writes) and the long spelling saved
// session files use; both are read.
#pragma once

#include "core/model/config.h"

#include <array>
#include <memory>
#include <optional>
#include <string_view>

namespace acsel
{

enum class SearchAlgorithm : std::uint8_t { BandPareto, Exact, HillClimb, Random };

struct SearchAlgorithmName {
    SearchAlgorithm algorithm;
    std::string_view name;      // "bp": --algo, eval reports, acsel search's output
    std::string_view savedName; // "band_pareto": session files (search_algorithm)
    std::string_view label;     // "BandPareto": for display
};

inline constexpr std::array<SearchAlgorithmName, 4> kSearchAlgorithms{{
    {SearchAlgorithm::BandPareto, "bp", "band_pareto", "BandPareto"},
    {SearchAlgorithm::Exact, "exact", "exact", "Exact"},
    {SearchAlgorithm::HillClimb, "hc", "hill_climb", "Hill climbing"},
    {SearchAlgorithm::Random, "rand", "random", "Random"},
}};

inline const SearchAlgorithmName& names(SearchAlgorithm a)
{
    return kSearchAlgorithms[static_cast<std::size_t>(a)];
}
inline std::string_view toString(SearchAlgorithm a)
{
    return names(a).name;
}

// Either spelling ("bp" or "band_pareto"); nullopt for anything else.
inline std::optional<SearchAlgorithm> parseSearchAlgorithm(std::string_view s)
{
    for (const SearchAlgorithmName& n : kSearchAlgorithms)
        if (s == n.name || s == n.savedName)
            return n.algorithm;
    return std::nullopt;
}

// "bp, exact, hc or rand", for usage lines and errors.
inline std::string searchAlgorithmChoices()
{
    std::string out;
    for (std::size_t i = 0; i < kSearchAlgorithms.size(); ++i)
        out += std::string(i == 0                              ? ""
                           : i + 1 == kSearchAlgorithms.size() ? " or "
                                                               : ", ") +
               std::string(kSearchAlgorithms[i].name);
    return out;
}

// The default where none is asked for (acsel bench search --suite, docs/SEARCH.md): Exact,
// exact and faster than BandPareto on every case of the suite, static and continuous batching.
inline constexpr SearchAlgorithm kDefaultSearchAlgorithm = SearchAlgorithm::Exact;

// What a user asks for: one searcher, or (nullopt) the default, as acsel search does without
// --algo. Sessions save nullopt as kAutomaticAlgorithm.
using SearchAlgorithmChoice = std::optional<SearchAlgorithm>;
inline constexpr std::string_view kAutomaticAlgorithm = "automatic";
inline SearchAlgorithm resolvedAlgorithm(SearchAlgorithmChoice choice)
{
    return choice.value_or(kDefaultSearchAlgorithm);
}

class Searcher;
std::unique_ptr<Searcher> makeSearcher(SearchAlgorithm a); // searcher.h

} // namespace acsel
