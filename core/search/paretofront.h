// The Pareto frontier of points minimising two objectives.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace acsel
{

// Indices of the points not dominated by any other (q dominates p when q is no worse in both
// objectives and better in one), ordered by x. Points equal in both objectives are all kept.
// O(n log n).
std::vector<std::size_t> paretoFront(std::span<const double> x, std::span<const double> y);

} // namespace acsel
