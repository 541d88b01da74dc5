// Places marks that must stay apart on screen (the plot's pinned configurations, which may
// coincide: a recommendation pinned next to its best uniform twin): each mark at its point
// unless an earlier mark is nearer than `gap` pixels, else at the first free place on rings of
// radius gap, 2 gap, ... around its point, starting up and to the right, clockwise, inside
// `bounds` when given (the plot's area). Every returned position is at least `gap` from every
// other; a mark with room stays on its point.
#pragma once

#include <QPointF>
#include <QRectF>
#include <vector>

namespace acsel::gui
{

std::vector<QPointF> spreadMarks(const std::vector<QPointF>& points, double gap,
                                 const QRectF& bounds = {});

} // namespace acsel::gui
