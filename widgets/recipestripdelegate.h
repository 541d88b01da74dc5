// Compare's configuration cell: the model and batch on the first line, the recipe's bands drawn
// under it as the band editor draws them (bandpainter.h), so rows compare at a glance.
#pragma once

#include <QStyledItemDelegate>

namespace acsel::gui
{

class RecipeStripDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    // The strip's rectangle in a cell (exposed for tests).
    static QRect stripRect(const QRect& cell, const QFontMetrics& fm);
};

} // namespace acsel::gui
