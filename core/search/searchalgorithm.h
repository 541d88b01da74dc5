// The searchers as one enum with one name table, for the CLI (--algo), sessions, the GUI and
// eval. Each has its short name (what acsel prints and writes) and the long spelling saved
// session files use; both are read.
#pragma once

#include "core/search/searcher.h"

#include <array>
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
    {SearchAlgorithm::HillClimb, "hc", "hill_climb", "HillClimb"},
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

std::unique_ptr<Searcher> makeSearcher(SearchAlgorithm a);

} // namespace acsel
