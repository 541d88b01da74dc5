#include "core/search/paretofront.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace acsel
{

std::vector<std::size_t> paretoFront(std::span<const double> x, std::span<const double> y)
{
    if (x.size() != y.size())
        throw std::invalid_argument("paretoFront: x and y differ in length");
    std::vector<std::size_t> order(x.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return x[a] < x[b] || (x[a] == x[b] && y[a] < y[b]);
    });
    std::vector<std::size_t> front;
    appendFrontOfSorted<std::size_t>(
        order, [x](std::size_t i) { return x[i]; }, [y](std::size_t i) { return y[i]; },
        [](std::size_t) { return true; }, front);
    return front;
}

} // namespace acsel
