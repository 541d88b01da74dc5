#include "widgets/bardelegate.h"

#include "widgets/comparemodel.h"

#include <QPainter>
#include <algorithm>
#include <cmath>

namespace acsel::gui
{

void BarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                        const QModelIndex& index) const
{
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
