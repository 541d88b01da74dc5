// Draws a model's FractionRole as a bar behind the cell's text (CompareModel's metric bars).
#pragma once

#include <QStyledItemDelegate>

namespace acsel::gui
{

class BarDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

} // namespace acsel::gui
