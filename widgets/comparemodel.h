// Up to four pinned configurations side by side: one row each, one column per metric.
// Rows are numbered in the vertical header (the plot labels pinned points the same way). The
// configuration column names the model and batch (the view draws the bands under it).
// Numeric columns carry the value and its fraction of the column's largest value, which the
// bar delegate draws as a bar behind the number. One row is the reference (the first pinned
// unless another is chosen): the other rows' numbers carry their relative difference to it,
// e.g. "12.3 ms" over "-8.1 %" (negative: lower, which is better for every metric). A latency
// with an interval (an FMC file's) keeps its two lines: the view draws the interval as a thin
// range under them on a log scale shared by the column (the ends in the tooltip and the CSV),
// so four pins still show at once on a laptop and overlapping intervals are seen as such.
#pragma once

#include "viewmodel/explorertypes.h"

#include <QAbstractTableModel>
#include <functional>
#include <optional>
#include <vector>

namespace acsel::gui
{

struct PinnedConfig {
    QString label; // "Recommended", "Best uniform", "Edited 1"
    QString modelName;
    acsel::Config config;
    PredictionView prediction;
};

class CompareModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    static constexpr int kMaxPinned = 4;
    enum Column { Label, Recipe, Ttft, Tpot, Memory, Rmqd, Verdict, ColumnCount };
    enum Role {
        ValueRole = Qt::UserRole + 1, // double for numeric columns
        FractionRole,                 // value / largest value of the column, in [0, 1]
        DeltaRole, // (value - reference) / reference; none in the reference row or without one
        // The largest |delta| of the cell's column (> 0), the full length of a delta bar: a
        // 2 % difference is a short bar beside a 30 % one, a full one when it is the largest.
        DeltaScaleRole,
        // A latency's interval on the column's log scale (from the lowest to the highest end
        // or value of any row): QVariantList {low, value, high}, each in [0, 1]; none without
        // an interval.
        IntervalRole,
    };

    explicit CompareModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    // Adds a configuration; when four are pinned the oldest is dropped. An identical
    // configuration already pinned is updated in place instead.
    void pin(const PinnedConfig& p);
    void unpin(int row);
    void clear();
    const std::vector<PinnedConfig>& pinned() const { return pinned_; }
    // The row the others are compared with; -1 when nothing is pinned. It stays with its
    // configuration when rows move; unpinned, the first row takes over.
    int referenceRow() const;
    void setReferenceRow(int row);
    // Why a model's RMQD is extrapolated (it has no quality rows), empty when it is not. Its
    // pinned RMQDs are shown with a '*' and the reason as their tooltip, like the recipe card.
    void setRmqdCaveat(std::function<QString(const QString& model)> caveat);
    // Which of the workspace's models (index Config::model) are mixtures of experts: their MLP
    // scope reads "experts" in the bands and summaries, as in the band editor.
    void setMoeModels(std::vector<bool> moe);
    bool isMoe(const PinnedConfig& p) const;
    // Some pin has a latency interval: every cell keeps the strip of its range free.
    bool hasIntervals() const;
    // Predicts every pin again (after any change of the request): numbers and verdicts are
    // always the current request's; a pin the stack cannot run is flagged in the Gate column.
    void repredict(const std::function<PredictionView(const acsel::Config&)>& predict);
    // The table as CSV (RFC 4180 quoting): a header, then one line per row with its number,
    // label, configuration, the four metrics in full precision, their deltas to the reference
    // in percent (empty in the reference row), the TTFT and TPOT intervals' ends (empty
    // without one) and the gate's verdict.
    QString toCsv() const;

signals:
    void pinnedChanged();

private:
    double value(const PinnedConfig& p, int column) const;
    double columnMax(int column) const;
    std::optional<double> delta(int row, int column) const;
    const std::optional<acsel::LatencyInterval>& interval(const PinnedConfig& p, int column) const;
    // Where IntervalRole's 0 and 1 lie: the column's lowest and highest interval end or value
    // (ms); none when no row of the column has an interval.
    std::optional<acsel::LatencyInterval> intervalScale(int column) const;
    // Every cell and row header: bars, deltas and the reference mark depend on all rows.
    void everyRowChanged();

    QString rmqdCaveat(const PinnedConfig& p) const;

    std::vector<PinnedConfig> pinned_;
    std::function<QString(const QString& model)> caveat_;
    std::vector<bool> moe_;
    std::optional<acsel::Config> reference_; // none chosen: the first row
};

} // namespace acsel::gui
