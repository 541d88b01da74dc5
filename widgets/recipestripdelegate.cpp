#include "widgets/recipestripdelegate.h"

#include "widgets/bandpainter.h"
#include "widgets/comparemodel.h"

#include <QApplication>
#include <QPainter>

namespace acsel::gui
{

QRect RecipeStripDelegate::stripRect(const QRect& cell, const QFontMetrics& fm)
{
    // Under one line of text, as tall as a line: band labels fit in it.
    return QRect(cell.left() + 3, cell.top() + fm.height() + 4, cell.width() - 6, fm.height() + 2);
}

QSize RecipeStripDelegate::sizeHint(const QStyleOptionViewItem& option,
                                    const QModelIndex& index) const
{
    const QSize text = QStyledItemDelegate::sizeHint(option, index);
    // Narrower than its text: the column stretches and elides; two lines high.
    return {std::min(text.width(), 160), 2 * option.fontMetrics.height() + 8};
}

void RecipeStripDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QWidget* w = option.widget;
    QStyle* style = w ? w->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, w); // background, selection
    const QRect line(option.rect.left() + 4, option.rect.top() + 2, option.rect.width() - 8,
                     option.fontMetrics.height());
    painter->save();
    painter->setPen(opt.palette.color(
        option.state & QStyle::State_Selected ? QPalette::HighlightedText : QPalette::Text));
    painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                      option.fontMetrics.elidedText(text, Qt::ElideRight, line.width()));
    const auto* model = qobject_cast<const CompareModel*>(index.model());
    if (model && index.row() < static_cast<int>(model->pinned().size())) {
        const QRect strip = stripRect(option.rect, option.fontMetrics);
        const PinnedConfig& pin = model->pinned()[static_cast<std::size_t>(index.row())];
        paintBands(*painter, strip, pin.config.recipe, opt.palette, model->isMoe(pin), false);
        painter->setPen(opt.palette.color(QPalette::Mid));
        painter->drawRect(strip.adjusted(0, 0, -1, -1));
    }
    painter->restore();
}

} // namespace acsel::gui
