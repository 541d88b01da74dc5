// The comparison table: a CompareModel shown with metric bars; Delete or the context menu
// unpins the selected row; the context menu also makes it the reference of the deltas.
#pragma once

#include <QTableView>

namespace acsel::gui
{

class CompareModel;

class CompareTable : public QTableView
{
    Q_OBJECT
public:
    explicit CompareTable(CompareModel* model, QWidget* parent = nullptr);

signals:
    void saveCsvRequested();

protected:
    void keyPressEvent(QKeyEvent* e) override;

private:
    void unpinCurrent();
    CompareModel* model_;
};

} // namespace acsel::gui
