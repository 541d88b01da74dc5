// Draws CompareModel's metric bars behind the cell's text: the delta to the reference as a bar
// diverging from the centre when there is one, else the FractionRole as a bar from the left;
// and a latency's interval as a thin range under the text, a tick at the value.
#pragma once

#include <QStyledItemDelegate>

namespace acsel::gui
{

class BarDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    // The strip at the bottom of a cell that holds the interval's range, in pixels: inside
    // the row's padding, so that a row with intervals is no taller than one without.
    static constexpr int kIntervalHeight = 4;

    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
};

} // namespace acsel::gui
