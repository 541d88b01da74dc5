// The Pareto frontier of points minimising two objectives.
#pragma once

#include <algorithm>
#include <cstddef>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace acsel
{

// Indices of the points not dominated by any other (q dominates p when q is no worse in both
// objectives and better in one), ordered by x. Points equal in both objectives are all kept.
// O(n log n).
std::vector<std::size_t> paretoFront(std::span<const double> x, std::span<const double> y);

// The scan behind paretoFront, for callers that keep the order between calls (the plot sorts
// once per point set and axis): order lists point indices sorted by (x, y) ascending; appends
// to front the indices of the points admit() accepts that no other accepted point dominates,
// by x, exact duplicates of a frontier point included. x(i), y(i) give the point's objectives.
// O(order).
template <class Index, class X, class Y, class Admit>
void appendFrontOfSorted(std::span<const Index> order, X x, Y y, Admit admit,
                         std::vector<Index>& front)
{
    double bestY = std::numeric_limits<double>::infinity();
    double bestX = std::numeric_limits<double>::quiet_NaN();
    for (const Index i : order) {
        if (!admit(i))
            continue;
        const double xi = x(i), yi = y(i);
        if (yi < bestY) {
            bestY = yi;
            bestX = xi;
            front.push_back(i);
        } else if (yi == bestY && xi == bestX) {
            front.push_back(i); // an exact duplicate of a frontier point
        }
    }
}

// The same frontier built one point at a time, keeping only the frontier (memory O(frontier),
// not O(points)): after any sequence of add() calls, points() holds exactly the points
// paretoFront would keep of that sequence, ordered by x (equal points in arrival order). The
// frontier is a staircase, y falling as x grows, so a point is judged against the one frontier
// point with the largest x not above its own: O(log frontier) for a rejected point, plus the
// shift of the vector for an accepted one.
template <class T> class StreamingParetoFront
{
public:
    struct Point {
        double x, y;
        T value;
    };

    void add(double x, double y, T value)
    {
        // First frontier point with a larger x; the one before it is the lowest y at x or left.
        auto at = std::upper_bound(points_.begin(), points_.end(), x,
                                   [](double v, const Point& p) { return v < p.x; });
        if (at != points_.begin()) {
            const Point& left = *(at - 1);
            if (left.y < y || (left.y == y && left.x < x))
                return;                      // dominated
            if (left.x == x && left.y > y) { // the new point dominates the group at its x
                auto first = at - 1;
                while (first != points_.begin() && (first - 1)->x == x)
                    --first;
                at = points_.erase(first, at);
            }
        }
        // Points right of it no lower than it are dominated now (a contiguous run: y falls).
        auto end = at;
        while (end != points_.end() && end->y >= y)
            ++end;
        at = points_.erase(at, end);
        points_.insert(at, Point{x, y, std::move(value)});
    }

    const std::vector<Point>& points() const { return points_; }

private:
    std::vector<Point> points_;
};

} // namespace acsel
