// Ticks of a log axis that spans few decades: QCPAxisTickerLog labels only powers of ten, so
// an RMQD axis from 0.004 to 0.2 showed a single label (0.1) and none where the answers are.
// Within three decades this ticker labels 1-2-5 steps (every integer mantissa within one).
#pragma once

#include <qcustomplot.h>

namespace acsel::gui
{

class LogTicker : public QCPAxisTickerLog
{
public:
    // The ticks it puts in [lower, upper] (and one beyond each end, for QCustomPlot's trim).
    static QVector<double> ticksFor(const QCPRange& range);

protected:
    QVector<double> createTickVector(double tickStep, const QCPRange& range) override;
    int getSubTickCount(double tickStep) override;

private:
    bool dense_ = false; // the last range had 1-2-5 ticks: no sub ticks between them
};

} // namespace acsel::gui
