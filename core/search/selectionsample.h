// A seeded uniform sample of k of the indices 0 .. n-1 without holding the n of them: Knuth's
// selection sampling (TAOCP vol. 2, 3.4.2, Algorithm S): index i is taken with probability
// (still needed) / (still left), which makes every k-subset equally likely. O(n) time, O(k)
// memory; the same seed gives the same sample.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace acsel
{

// The sample, ascending. All of 0 .. n-1 when k >= n.
std::vector<std::size_t> selectionSample(std::size_t n, std::size_t k, std::uint64_t seed);

} // namespace acsel
