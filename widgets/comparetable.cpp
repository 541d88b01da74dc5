#include "widgets/comparetable.h"

#include "widgets/bardelegate.h"
#include "widgets/comparemodel.h"

#include <QAction>
#include <QHeaderView>
#include <QKeyEvent>

namespace acsel::gui
{

CompareTable::CompareTable(CompareModel* model, QWidget* parent) : QTableView(parent), model_(model)
{
    setModel(model);
    setItemDelegate(new BarDelegate(this));
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);
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
