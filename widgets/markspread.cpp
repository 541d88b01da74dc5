#include "widgets/markspread.h"

#include <QLineF>
#include <cmath>
#include <numbers>

namespace acsel::gui
{

namespace
{
// Distances by QLineF, not std::hypot: its glibc 2.35 symbol would raise the package's libc6
// dependency.
bool roomAt(const std::vector<QPointF>& placed, QPointF p, double gap)
{
    for (const QPointF& q : placed)
        if (QLineF(p, q).length() < gap * (1 - 1e-9)) // a hexagon's side
            return false;
    return true;
}
} // namespace

std::vector<QPointF> spreadMarks(const std::vector<QPointF>& points, double gap,
                                 const QRectF& bounds)
{
    std::vector<QPointF> placed;
    placed.reserve(points.size());
    for (const QPointF& p : points) {
        // Ring k has 6k places gap*k from the point, neighbours 2 gap*k*sin(pi/6k) >= gap apart,
        // so an earlier mark (blocking an open disc of radius gap) blocks at most three of
        // them: with n marks ring n/2 + 1 has room at the latest. Places outside bounds are
        // skipped for n + 1 rings, then taken rather than none.
        const int boundedRings = static_cast<int>(points.size()) + 1;
        QPointF at = p;
        bool found = roomAt(placed, at, gap);
        for (int ring = 1; !found; ++ring) {
            const int places = 6 * ring;
            for (int j = 0; j < places && !found; ++j) {
                // Screen y grows downwards: -45 degrees is up and to the right.
                const double angle = -std::numbers::pi / 4 + 2 * std::numbers::pi * j / places;
                at = p + QPointF(std::cos(angle), std::sin(angle)) * gap * ring;
                found = (bounds.isNull() || ring > boundedRings || bounds.contains(at)) &&
                        roomAt(placed, at, gap);
            }
        }
        placed.push_back(at);
    }
    return placed;
}

} // namespace acsel::gui
