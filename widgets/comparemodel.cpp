#include "widgets/comparemodel.h"

#include "widgets/predictiontext.h"

#include <QColor>
#include <algorithm>
#include <cmath>

namespace acsel::gui
{

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

int CompareModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(pinned_.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double CompareModel::value(const PinnedConfig& p, int column) const
{
    switch (column) {
    case Ttft:
        return p.prediction.ttftMs;
    case Tpot:
        return p.prediction.tpotMs;
    case Memory:
        return p.prediction.memoryGiB;
    case Rmqd:
        return p.prediction.rmqd;
    default:
        return 0;
    }
}

double CompareModel::columnMax(int column) const
{
    double m = 0;
    for (const PinnedConfig& p : pinned_)
        if (const double v = value(p, column); std::isfinite(v)) // NaN: not predicted
            m = std::max(m, v);
    return m;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PinnedConfig& p = pinned_[static_cast<std::size_t>(index.row())];
    const int col = index.column();
    const bool numeric = col >= Ttft && col <= Rmqd;
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case Label:
            return p.label;
        case Recipe:
            return configSummary(p.config, p.modelName);
        case Ttft:
            return formatMs(p.prediction.ttftMs);
        case Tpot:
            return formatMs(p.prediction.tpotMs);
        case Memory:
            return formatGiB(p.prediction.memoryGiB);
        case Rmqd:
            return formatRmqd(p.prediction.rmqd) +
                   (rmqdCaveat(p).isEmpty() ? QString() : QStringLiteral("*"));
        case Verdict:
            if (!p.prediction.runnable)
                return tr("cannot run: %1").arg(QString::fromStdString(p.prediction.verdict));
            return p.prediction.admitted ? tr("admitted")
                                         : QString::fromStdString(p.prediction.verdict);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (col == Recipe)
            return configSummary(p.config, p.modelName);
        if (col == Rmqd)
            if (const QString caveat = rmqdCaveat(p); !caveat.isEmpty())
                return caveat;
        return {};
    case Qt::ForegroundRole:
        if (col == Verdict && !p.prediction.runnable)
            return QColor(0xb0, 0x00, 0x20);
        return {};
    case Qt::TextAlignmentRole:
        return numeric ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case ValueRole:
        return numeric ? QVariant(value(p, col)) : QVariant();
    case FractionRole: {
        if (!numeric)
            return {};
        const double m = columnMax(col);
        const double v = value(p, col);
        return m > 0 && std::isfinite(v) ? v / m : 0.0;
    }
    default:
        return {};
    }
}

QVariant CompareModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (role != Qt::DisplayRole)
        return {};
    if (o == Qt::Vertical)
        return section + 1;
    switch (section) {
    case Label:
        return tr("Pinned");
    case Recipe:
        return tr("Configuration");
    case Ttft:
        return tr("TTFT");
    case Tpot:
        return tr("TPOT");
    case Memory:
        return tr("Memory");
    case Rmqd:
        return tr("RMQD");
    case Verdict:
        return tr("Gate");
    default:
        return {};
    }
}

QString CompareModel::rmqdCaveat(const PinnedConfig& p) const
{
    return caveat_ ? caveat_(p.modelName) : QString();
}

void CompareModel::setRmqdCaveat(std::function<QString(const QString& model)> caveat)
{
    caveat_ = std::move(caveat);
    if (!pinned_.empty())
        emit dataChanged(index(0, Rmqd), index(rowCount() - 1, Rmqd),
                         {Qt::DisplayRole, Qt::ToolTipRole});
}

void CompareModel::repredict(const std::function<Prediction(const Config&)>& predict)
{
    if (pinned_.empty() || !predict)
        return;
    for (PinnedConfig& p : pinned_)
        p.prediction = predict(p.config);
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit pinnedChanged();
}

void CompareModel::pin(const PinnedConfig& p)
{
    for (std::size_t i = 0; i < pinned_.size(); ++i)
        if (pinned_[i].config == p.config) {
            pinned_[i] = p;
            emit dataChanged(index(static_cast<int>(i), 0),
                             index(static_cast<int>(i), ColumnCount - 1));
            emit pinnedChanged();
            return;
        }
    if (static_cast<int>(pinned_.size()) == kMaxPinned) {
        beginRemoveRows({}, 0, 0);
        pinned_.erase(pinned_.begin());
        endRemoveRows();
    }
    const int row = static_cast<int>(pinned_.size());
    beginInsertRows({}, row, row);
    pinned_.push_back(p);
    endInsertRows();
    // Bars are relative to the column's largest value, so every row may change.
    emit dataChanged(index(0, 0), index(row, ColumnCount - 1), {FractionRole});
    emit pinnedChanged();
}

void CompareModel::unpin(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    pinned_.erase(pinned_.begin() + row);
    endRemoveRows();
    if (!pinned_.empty())
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                         {FractionRole, Qt::DisplayRole});
    emit pinnedChanged();
}

void CompareModel::clear()
{
    if (pinned_.empty())
        return;
    beginResetModel();
    pinned_.clear();
    endResetModel();
    emit pinnedChanged();
}

} // namespace acsel::gui
