#include "core/search/paretofront.h"

#include <algorithm>
#include <limits>
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
    double bestY = std::numeric_limits<double>::infinity();
    double bestX = std::numeric_limits<double>::quiet_NaN();
    for (std::size_t i : order) {
        if (y[i] < bestY) {
            bestY = y[i];
            bestX = x[i];
            front.push_back(i);
        } else if (y[i] == bestY && x[i] == bestX) {
            front.push_back(i); // an exact duplicate of a frontier point
        }
    }
    return front;
}

} // namespace acsel
