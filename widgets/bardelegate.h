// Draws CompareModel's metric bars behind the cell's text: the delta to the reference as a bar
// diverging from the centre when there is one, else the FractionRole as a bar from the left.
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
