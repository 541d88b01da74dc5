#include "widgets/bardelegate.h"

#include "widgets/comparemodel.h"

#include <QPainter>
#include <algorithm>

namespace acsel::gui
{

void BarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                        const QModelIndex& index) const
{
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
