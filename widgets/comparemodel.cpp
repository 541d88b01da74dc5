#include "widgets/comparemodel.h"

#include "viewmodel/predictiontext.h"
#include "widgets/glossary.h"

#include <QColor>
#include <QStringList>
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
        return p.prediction.memoryGiB();
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

int CompareModel::referenceRow() const
{
    if (pinned_.empty())
        return -1;
    for (std::size_t i = 0; reference_ && i < pinned_.size(); ++i)
        if (pinned_[i].config == *reference_)
            return static_cast<int>(i);
    return 0;
}

void CompareModel::setReferenceRow(int row)
{
    if (row < 0 || row >= rowCount() || row == referenceRow())
        return;
    reference_ = pinned_[static_cast<std::size_t>(row)].config;
    everyRowChanged();
}

void CompareModel::everyRowChanged()
{
    if (pinned_.empty())
        return;
    emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    emit headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
}

std::optional<double> CompareModel::delta(int row, int column) const
{
    const int ref = referenceRow();
    if (ref < 0 || row == ref || column < Ttft || column > Rmqd)
        return std::nullopt;
    const double r = value(pinned_[static_cast<std::size_t>(ref)], column);
    const double v = value(pinned_[static_cast<std::size_t>(row)], column);
    if (!std::isfinite(r) || !std::isfinite(v) || r <= 0)
        return std::nullopt; // not predicted (cannot run), or nothing to divide by
    return (v - r) / r;
}

const std::optional<LatencyInterval>& CompareModel::interval(const PinnedConfig& p,
                                                             int column) const
{
    static const std::optional<LatencyInterval> none;
    return column == Ttft   ? p.prediction.ttftInterval
           : column == Tpot ? p.prediction.tpotInterval
                            : none;
}

std::optional<LatencyInterval> CompareModel::intervalScale(int column) const
{
    std::optional<LatencyInterval> scale;
    const auto widen = [&scale](double ms) {
        if (!(std::isfinite(ms) && ms > 0)) // a log scale: not predicted or nothing to show
            return;
        scale = scale ? LatencyInterval{std::min(scale->lowMs, ms), std::max(scale->highMs, ms)}
                      : LatencyInterval{ms, ms};
    };
    bool any = false;
    for (const PinnedConfig& p : pinned_)
        if (const std::optional<LatencyInterval>& iv = interval(p, column)) {
            any = true;
            widen(iv->lowMs);
            widen(iv->highMs);
        }
    if (!any)
        return std::nullopt;
    for (const PinnedConfig& p : pinned_)
        widen(value(p, column)); // a value outside every interval stays on the scale
    return scale;
}

namespace
{
// "+8.1 %", "-12.0 %" (a real minus sign), "+0.0 %" for no difference.
QString deltaText(double d)
{
    const double percent = 100.0 * d;
    const QString magnitude = QString::number(std::abs(percent), 'f', 1);
    return (percent < 0 && magnitude != QStringLiteral("0.0") ? QStringLiteral("\u2212")
                                                              : QStringLiteral("+")) +
           magnitude + QStringLiteral(" %");
}
} // namespace

QVariant CompareModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PinnedConfig& p = pinned_[static_cast<std::size_t>(index.row())];
    const int col = index.column();
    const bool numeric = col >= Ttft && col <= Rmqd;
    const std::optional<double> d = delta(index.row(), col);
    // The delta on a second line: the metric columns stay narrow enough for a laptop.
    const QString withDelta = d ? QStringLiteral("\n") + deltaText(*d) : QString();
    const std::optional<LatencyInterval>& iv = interval(p, col);
    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case Label:
            return p.label;
        case Recipe: // the bands are drawn under it (RecipeStripDelegate)
            return tr("%1 · batch %2").arg(p.modelName).arg(p.config.batch);
        case Ttft:
            return formatMs(p.prediction.ttftMs) + withDelta;
        case Tpot:
            return formatMs(p.prediction.tpotMs) + withDelta;
        case Memory:
            return formatGiB(p.prediction.memoryGiB()) + withDelta;
        case Rmqd:
            return formatRmqd(p.prediction.rmqd) +
                   (rmqdCaveat(p).isEmpty() ? QString() : QStringLiteral("*")) + withDelta;
        case Verdict:
            if (!p.prediction.runnable)
                return tr("cannot run: %1").arg(QString::fromStdString(p.prediction.verdict));
            // Pins are predicted again for every request: one the new budgets reject says so.
            return p.prediction.admitted ? tr("admitted")
                                         : tr("no longer passes: %1")
                                               .arg(QString::fromStdString(p.prediction.verdict));
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (col == Recipe)
            return configSummary(p.config, p.modelName, isMoe(p));
        if (col == Label || col == Verdict) // may be elided in their narrow columns
            return data(index, Qt::DisplayRole);
        {
            QStringList lines;
            if (iv)
                lines << tr("%1 % interval: %2 ms (FMC file, at this concurrency)")
                             .arg(QString::number(100 * p.prediction.intervalLevel, 'f', 0),
                                  formatInterval(*iv));
            if (col == Rmqd)
                if (const QString caveat = rmqdCaveat(p); !caveat.isEmpty())
                    lines << caveat;
            if (d)
                lines << tr("%1 against row %2 (%3)")
                             .arg(deltaText(*d))
                             .arg(referenceRow() + 1)
                             .arg(pinned_[static_cast<std::size_t>(referenceRow())].label);
            return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
        }
    case Qt::ForegroundRole:
        if (col == Verdict && !p.prediction.runnable)
            return QColor(0xb0, 0x00, 0x20);
        if (col == Verdict && !p.prediction.admitted) // amber: rejected, still comparable
            return QColor(0xa0, 0x60, 0x00);
        return {};
    case Qt::TextAlignmentRole:
        return numeric ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case ValueRole:
        return numeric ? QVariant(value(p, col)) : QVariant();
    case DeltaRole:
        return d ? QVariant(*d) : QVariant();
    case DeltaScaleRole: {
        double scale = 0;
        for (int r = 0; r < rowCount(); ++r)
            if (const std::optional<double> other = delta(r, col))
                scale = std::max(scale, std::abs(*other));
        return scale > 0 ? QVariant(scale) : QVariant();
    }
    case IntervalRole: {
        const std::optional<LatencyInterval> scale = intervalScale(col);
        if (!iv || !scale)
            return {};
        const double span = std::log(scale->highMs / scale->lowMs);
        const auto at = [&](double ms) { // one point (every end equal): the middle
            return span > 0 ? std::clamp(std::log(ms / scale->lowMs) / span, 0.0, 1.0) : 0.5;
        };
        return QVariantList{at(iv->lowMs), at(value(p, col)), at(iv->highMs)};
    }
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
    const bool reference = o == Qt::Vertical && section == referenceRow() && rowCount() > 1;
    if (role == Qt::ToolTipRole && reference)
        return tr("The reference: the other rows show their difference to it (right-click "
                  "another row to compare with it)");
    if (role == Qt::ToolTipRole && o == Qt::Horizontal) {
        switch (section) {
        case Recipe:
            return whatIs(Term::Scope) + QStringLiteral("\n\n") +
                   whatIs(Term::CalibrationAlgorithm);
        case Ttft:
        case Tpot:
            return hasIntervals()
                       ? tr("The line under a latency: its interval from the FMC file, on a "
                            "log scale shared by the column, the tick at the value (the ends "
                            "in the cell's tooltip).") +
                             QStringLiteral("\n\n") + whatIs(Term::Fmc)
                       : whatIs(Term::Fmc);
        case Rmqd:
            return whatIs(Term::Rmqd);
        case Verdict:
            return whatIs(Term::Gate);
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    if (o == Qt::Vertical)
        return reference ? tr("%1 (ref)").arg(section + 1) : QString::number(section + 1);
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

void CompareModel::setMoeModels(std::vector<bool> moe)
{
    moe_ = std::move(moe);
    if (!pinned_.empty())
        everyRowChanged();
}

bool CompareModel::isMoe(const PinnedConfig& p) const
{
    const auto m = static_cast<std::size_t>(p.config.model);
    return p.config.model >= 0 && m < moe_.size() && moe_[m];
}

bool CompareModel::hasIntervals() const
{
    return std::any_of(pinned_.begin(), pinned_.end(), [](const PinnedConfig& p) {
        return p.prediction.ttftInterval || p.prediction.tpotInterval;
    });
}

void CompareModel::repredict(const std::function<PredictionView(const Config&)>& predict)
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
            everyRowChanged();
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
    // Bars are relative to the column's largest value, deltas to the reference: every row
    // may change.
    everyRowChanged();
    emit pinnedChanged();
}

void CompareModel::unpin(int row)
{
    if (row < 0 || row >= rowCount())
        return;
    beginRemoveRows({}, row, row);
    pinned_.erase(pinned_.begin() + row);
    endRemoveRows();
    everyRowChanged(); // bars, deltas and the reference may all change
    emit pinnedChanged();
}

void CompareModel::clear()
{
    if (pinned_.empty())
        return;
    beginResetModel();
    pinned_.clear();
    reference_.reset();
    endResetModel();
    emit pinnedChanged();
}

namespace
{
QString csvField(const QString& f)
{
    if (!f.contains(QLatin1Char(',')) && !f.contains(QLatin1Char('"')) &&
        !f.contains(QLatin1Char('\n')))
        return f;
    return QLatin1Char('"') + QString(f).replace(QStringLiteral("\""), QStringLiteral("\"\"")) +
           QLatin1Char('"');
}
} // namespace

QString CompareModel::toCsv() const
{
    QString out = QStringLiteral("row,pinned,configuration,ttft_ms,tpot_ms,memory_gib,rmqd,"
                                 "ttft_delta_pct,tpot_delta_pct,memory_delta_pct,rmqd_delta_pct,"
                                 "ttft_low_ms,ttft_high_ms,tpot_low_ms,tpot_high_ms,gate\n");
    for (int r = 0; r < rowCount(); ++r) {
        const PinnedConfig& p = pinned_[static_cast<std::size_t>(r)];
        QStringList f{QString::number(r + 1), csvField(p.label),
                      csvField(configSummary(p.config, p.modelName, isMoe(p)))};
        for (int c = Ttft; c <= Rmqd; ++c) {
            const double v = value(p, c);
            f << (std::isfinite(v) ? QString::number(v, 'g', 10) : QString());
        }
        for (int c = Ttft; c <= Rmqd; ++c) {
            const std::optional<double> d = delta(r, c);
            f << (d ? QString::number(100 * *d, 'f', 2) : QString());
        }
        for (const std::optional<LatencyInterval>& iv :
             {p.prediction.ttftInterval, p.prediction.tpotInterval})
            f << (iv ? QString::number(iv->lowMs, 'g', 10) : QString())
              << (iv ? QString::number(iv->highMs, 'g', 10) : QString());
        f << csvField(data(index(r, Verdict)).toString());
        out += f.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

} // namespace acsel::gui
