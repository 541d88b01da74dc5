#include "widgets/fitqualityplot.h"

#include "widgets/plotcolours.h"

#include <QLabel>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <qcustomplot.h>

namespace acsel::gui
{

FitQualityPlot::FitQualityPlot(QWidget* parent) : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(180);
    for (QCPAxis* a : {plot_->xAxis, plot_->yAxis}) {
        a->setScaleType(QCPAxis::stLogarithmic);
        a->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog));
    }
    plot_->xAxis->setLabel(tr("Estimated (ms)"));
    plot_->yAxis->setLabel(tr("Measured (ms)"));
    plot_->legend->setVisible(true);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(summary_);
    layout->addWidget(plot_, 1);
    setFits({}, std::nullopt);
}

void FitQualityPlot::setFits(const std::vector<FitSeries>& fits, std::optional<double> qualityMdape,
                             const QString& message)
{
    plot_->clearGraphs();
    plot_->clearItems();
    const QPalette pal = palette();
    plot_->setBackground(pal.brush(QPalette::Base));
    double lo = 1e300, hi = 0;
    QStringList lines;
    for (std::size_t i = 0; i < fits.size(); ++i) {
        const FitSeries& f = fits[i];
        const QColor c = categoryColour(static_cast<int>(i), pal);
        QCPGraph* pts = plot_->addGraph();
        pts->setName(QString::fromStdString(f.label));
        pts->setLineStyle(QCPGraph::lsNone);
        pts->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c, 5));
        pts->setData(QVector<double>(f.estimatedMs.begin(), f.estimatedMs.end()),
                     QVector<double>(f.measuredMs.begin(), f.measuredMs.end()));
        for (double v : f.estimatedMs)
            lo = std::min(lo, v), hi = std::max(hi, v);
        for (double v : f.measuredMs)
            lo = std::min(lo, v), hi = std::max(hi, v);
        const QString rows =
            f.measuredMs.size() == 1 ? tr("1 row") : tr("%1 rows").arg(f.measuredMs.size());
        const QString head = tr("%1: %2, raw MdAPE %3%")
                                 .arg(QString::fromStdString(f.label), rows)
                                 .arg(f.rawMdapePercent, 0, 'f', 1);
        lines << (f.calibrated ? tr("%1; FMC (gamma %2, delta %3) MdAPE %4%")
                                     .arg(head)
                                     .arg(f.gamma, 0, 'f', 3)
                                     .arg(f.delta, 0, 'f', 3)
                                     .arg(f.mdapePercent, 0, 'f', 1)
                               : tr("%1; no FMC loaded").arg(head));
    }
    if (hi > 0) {
        // The FMC lines over the data range: T = exp(delta) * T_est^gamma.
        for (std::size_t i = 0; i < fits.size(); ++i) {
            if (!fits[i].calibrated)
                continue;
            QCPGraph* line = plot_->addGraph();
            line->removeFromLegend();
            line->setPen(QPen(categoryColour(static_cast<int>(i), pal), 1.5));
            const double g = fits[i].gamma, d = fits[i].delta;
            line->setData({lo, hi}, {std::exp(d) * std::pow(lo, g), std::exp(d) * std::pow(hi, g)});
        }
        QCPGraph* diag = plot_->addGraph();
        diag->setName(tr("measured = estimated"));
        diag->setPen(QPen(pal.color(QPalette::Mid), 1, Qt::DashLine));
        diag->setData({lo, hi}, {lo, hi});
        plot_->xAxis->setRange(lo / 1.3, hi * 1.3);
        plot_->yAxis->setRange(lo / 1.3, hi * 1.3);
    }
    plot_->legend->setVisible(!fits.empty()); // an empty legend is a stray box
    if (fits.empty()) {
        // Said inside the plot too, so an empty frame is not mistaken for a loading one.
        auto* text = new QCPItemText(plot_);
        text->setPositionAlignment(Qt::AlignCenter);
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setColor(pal.color(QPalette::Text));
        text->setText(tr("No measured latency rows to show"));
    }
    if (qualityMdape)
        lines << tr("Quality surrogate: MdAPE %1% on held-out configurations")
                     .arg(*qualityMdape, 0, 'f', 1);
    if (!message.isEmpty())
        lines << message;
    else if (lines.isEmpty())
        lines << tr("No surrogate has been fitted in this workspace yet.");
    summary_->setText(lines.join(QLatin1Char('\n')));
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace acsel::gui
