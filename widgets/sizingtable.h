// The sizing table ("By GPUs" dock): the answer to the request with 1, 2, 4 and 8 GPUs of one
// node, one row each, as acsel search --by-gpus prints it. A row shows the model and the GPUs
// it is split over, RMQD, TPOT and memory per GPU (the whole configuration and its TTFT in the
// tooltip); a row without an answer says so. Results for an earlier request are greyed until the new ones arrive.
#pragma once

#include "viewmodel/explorertypes.h"

#include <QWidget>
#include <functional>
#include <vector>

class QLabel;
class QTableWidget;

namespace acsel::gui
{

class SizingTable : public QWidget
{
    Q_OBJECT
public:
    explicit SizingTable(QWidget* parent = nullptr);

    using ModelName = std::function<QString(int model)>;
    void setRows(const std::vector<SizingOutcome>& rows, const ModelName& modelName);
    // Greys the rows and says why (the request changed; the table is being recomputed).
    void setPending(const QString& why);
    QTableWidget* table() const { return table_; }
    QString caption() const;

private:
    QLabel* caption_ = nullptr;
    QTableWidget* table_ = nullptr;
};

} // namespace acsel::gui
