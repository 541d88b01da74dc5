#include "core/search/selectionsample.h"

#include <algorithm>
#include <random>

namespace acsel
{

std::vector<std::size_t> selectionSample(std::size_t n, std::size_t k, std::uint64_t seed)
{
    std::vector<std::size_t> out;
    out.reserve(std::min(n, k));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (std::size_t i = 0; i < n && out.size() < k; ++i) {
        const std::size_t left = n - i, needed = k - out.size();
        if (needed >= left || unit(rng) * static_cast<double>(left) < static_cast<double>(needed))
            out.push_back(i);
    }
    return out;
}

} // namespace acsel
