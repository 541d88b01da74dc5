#include "widgets/bardelegate.h"

#include "widgets/comparemodel.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace acsel::gui
{

namespace
{
// The interval's range across the strip's width: a 2 px line from low to high with end caps
// and a 2 px tick at the value, both the strip's height; positions are fractions of the
// column's log scale.
void paintInterval(QPainter* painter, const QRect& strip, const QVariantList& at,
                   const QPalette& palette, bool selected)
{
    const QColor ink = palette.color(selected ? QPalette::HighlightedText : QPalette::Text);
    const auto x = [&strip](double f) {
        return strip.left() + static_cast<int>(std::lround(f * (strip.width() - 1)));
    };
    const int low = x(at[0].toDouble());
    const int high = x(at[2].toDouble());
    QColor range = ink;
    range.setAlpha(150);
    painter->fillRect(QRect(low, strip.center().y(), high - low + 1, 2), range);
    painter->fillRect(QRect(low, strip.top(), 1, strip.height()), range);
    painter->fillRect(QRect(high, strip.top(), 1, strip.height()), range);
    if (const double v = at[1].toDouble(); std::isfinite(v))
        painter->fillRect(QRect(x(v) - 1, strip.top(), 2, strip.height()), ink);
}
} // namespace

void BarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& given,
                        const QModelIndex& index) const
{
    QStyleOptionViewItem option = given;
    const auto* model = qobject_cast<const CompareModel*>(index.model());
    if (model && model->hasIntervals()) {
        // Every cell's text and bars above the strip of the latencies' ranges, so the lines of
        // a row align; the strip highlighted as the rest of the cell when selected.
        option.rect.setBottom(given.rect.bottom() - kIntervalHeight);
        const QRect below(given.rect.left(), option.rect.bottom() + 1, given.rect.width(),
                          kIntervalHeight);
        const bool selected = given.state.testFlag(QStyle::State_Selected);
        if (selected)
            painter->fillRect(below, given.palette.brush(QPalette::Highlight));
        if (const QVariantList at = index.data(CompareModel::IntervalRole).toList(); at.size() == 3)
            paintInterval(painter, below.adjusted(4, 0, -4, 0), at, given.palette, selected);
    }
    // Beside a reference: the delta as a bar diverging from the cell's centre, left (green)
    // when lower, which is better for every metric, right (red) when higher, its length the
    // share of the column's largest |delta|. The reference row shows the centre line.
    const QVariant d = index.data(CompareModel::DeltaRole);
    const QVariant scale = index.data(CompareModel::DeltaScaleRole);
    if (scale.isValid()) {
        const QRect box = option.rect.adjusted(2, 3, -2, -3);
        const int centre = box.center().x();
        if (d.isValid()) {
            const double share = std::clamp(d.toDouble() / scale.toDouble(), -1.0, 1.0);
            const int length = static_cast<int>(std::lround(share * box.width() / 2));
            QRect bar(std::min(centre, centre + length), box.top(), std::abs(length), box.height());
            QColor c = share < 0 ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28);
            c.setAlpha(90);
            painter->fillRect(bar, c);
        }
        painter->fillRect(QRect(centre, box.top(), 1, box.height()),
                          option.palette.color(QPalette::Mid));
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    const QVariant f = index.data(CompareModel::FractionRole);
    if (f.isValid()) {
        const double frac = std::clamp(f.toDouble(), 0.0, 1.0);
        QRect bar = option.rect.adjusted(2, 3, -2, -3);
        bar.setWidth(static_cast<int>(bar.width() * frac));
        QColor c = option.palette.color(QPalette::Highlight);
        c.setAlpha(70);
        painter->fillRect(bar, c);
    }
    QStyledItemDelegate::paint(painter, option, index);
}

} // namespace acsel::gui
