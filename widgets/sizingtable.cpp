#include "widgets/sizingtable.h"

#include "viewmodel/predictiontext.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

namespace acsel::gui
{
namespace
{

enum Column { Gpus, Answer, Rmqd, Tpot, Memory, Columns };

} // namespace

SizingTable::SizingTable(QWidget* parent) : QWidget(parent)
{
    caption_ = new QLabel(this);
    caption_->setObjectName(QStringLiteral("sizingCaption"));
    caption_->setWordWrap(true);
    table_ = new QTableWidget(0, Columns, this);
    table_->setObjectName(QStringLiteral("sizingTable"));
    table_->setHorizontalHeaderLabels(
        {tr("GPUs"), tr("Answer"), tr("RMQD"), tr("TPOT"), tr("GiB/GPU")});
    table_->horizontalHeaderItem(Answer)->setToolTip(
        tr("The model and the GPUs it is split over; the tooltip has the whole configuration "
           "and its TTFT"));
    table_->horizontalHeaderItem(Memory)->setToolTip(
        tr("Memory per GPU: the budget applies to each GPU"));
    table_->horizontalHeaderItem(Gpus)->setToolTip(
        tr("GPUs of one node available; the answer may use fewer (tensor parallel)"));
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionMode(QAbstractItemView::NoSelection);
    table_->setWordWrap(false);
    table_->setTextElideMode(Qt::ElideMiddle);
    QHeaderView* h = table_->horizontalHeader();
    h->setSectionResizeMode(QHeaderView::ResizeToContents);
    h->setSectionResizeMode(Answer, QHeaderView::Stretch);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addWidget(table_, 1);
    setPending(tr("Shown once the request's answer is in."));
}

QString SizingTable::caption() const
{
    return caption_->text();
}

void SizingTable::setPending(const QString& why)
{
    caption_->setText(why);
    table_->setEnabled(false);
}

void SizingTable::setRows(const std::vector<SizingOutcome>& rows, const ModelName& modelName)
{
    table_->setRowCount(static_cast<int>(rows.size()));
    const auto put = [this](int row, int column, const QString& text, const QString& tip = {}) {
        auto* item = new QTableWidgetItem(text);
        item->setToolTip(tip.isEmpty() ? text : tip);
        if (column != Answer)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(row, column, item);
    };
    for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
        const SizingOutcome& o = rows[static_cast<std::size_t>(i)];
        put(i, Gpus, QString::number(o.gpus));
        if (!o.best) {
            put(i, Answer, tr("none meets the request"));
            for (int c : {Rmqd, Tpot, Memory})
                put(i, c, QStringLiteral("–"));
            continue;
        }
        const QString gpus = o.best->tp > 1 ? tr("TP %1").arg(o.best->tp) : tr("1 GPU");
        put(i, Answer, modelName(o.best->model) + QStringLiteral(" · ") + gpus,
            tr("%1\nTTFT %2, TPOT %3")
                .arg(configSummary(*o.best, modelName(o.best->model)),
                     formatMs(o.prediction.ttftMs), formatMs(o.prediction.tpotMs)));
        put(i, Rmqd, formatRmqd(o.prediction.rmqd));
        put(i, Tpot, formatMs(o.prediction.tpotMs));
        put(i, Memory, formatGiB(o.prediction.memoryGiB()));
    }
    caption_->setText(tr("The answer with 1, 2, 4 and 8 GPUs of one node (memory budget per "
                         "GPU; a row may use fewer GPUs than it has). acsel search --by-gpus "
                         "prints the same rows."));
    table_->setEnabled(true);
}

} // namespace acsel::gui
