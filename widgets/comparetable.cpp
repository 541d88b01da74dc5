#include "widgets/comparetable.h"

#include "widgets/bardelegate.h"
#include "widgets/comparemodel.h"
#include "widgets/recipestripdelegate.h"

#include <QAction>
#include <QHeaderView>
#include <QKeyEvent>

namespace acsel::gui
{

CompareTable::CompareTable(CompareModel* model, QWidget* parent) : QTableView(parent), model_(model)
{
    setModel(model);
    setItemDelegate(new BarDelegate(this));
    setItemDelegateForColumn(CompareModel::Recipe, new RecipeStripDelegate(this));
    // Every column in view at a laptop's width: the label and the gate's verdict have fixed
    // widths (elided, whole in their tooltips), the numbers their contents' (value over
    // delta), the configuration takes the rest.
    QHeaderView* h = horizontalHeader();
    h->setStretchLastSection(false);
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(CompareModel::Label, QHeaderView::Fixed);
    h->setSectionResizeMode(CompareModel::Verdict, QHeaderView::Fixed);
    h->setSectionResizeMode(CompareModel::Recipe, QHeaderView::Stretch);
    const QFontMetrics fm = fontMetrics();
    h->resizeSection(CompareModel::Label, fm.horizontalAdvance(tr("Best uniform")) + 16);
    h->resizeSection(CompareModel::Verdict, fm.horizontalAdvance(tr("no longer passes")) + 12);
    setTextElideMode(Qt::ElideRight);
    setWordWrap(false);
    verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    // Value over delta (the configuration over its bands), the latencies' intervals in a thin
    // strip under them: two lines and their padding, so that four pins show on a laptop.
    verticalHeader()->setDefaultSectionSize(2 * fontMetrics().height() + 8);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    auto* unpin = new QAction(tr("Unpin"), this);
    connect(unpin, &QAction::triggered, this, &CompareTable::unpinCurrent);
    addAction(unpin);
    auto* reference = new QAction(tr("Compare the others with this row"), this);
    reference->setObjectName(QStringLiteral("useAsReference"));
    connect(reference, &QAction::triggered, this, [this] {
        if (currentIndex().isValid())
            model_->setReferenceRow(currentIndex().row());
    });
    addAction(reference);
    // The window's File > Save comparison as CSV, here too.
    auto* csv = new QAction(tr("Save as CSV..."), this);
    connect(csv, &QAction::triggered, this, &CompareTable::saveCsvRequested);
    addAction(csv);
}

void CompareTable::keyPressEvent(QKeyEvent* e)
{
    if (e->key() == Qt::Key_Delete || e->key() == Qt::Key_Backspace)
        unpinCurrent();
    else
        QTableView::keyPressEvent(e);
}

void CompareTable::unpinCurrent()
{
    if (currentIndex().isValid())
        model_->unpin(currentIndex().row());
}

} // namespace acsel::gui
