// How well the surrogates fit: per stack, measured vs estimated latency on log axes with the
// FMC line log T = gamma log T_est + delta, and the quality surrogate's MdAPE.
#pragma once

#include <QWidget>
#include <optional>
#include <string>
#include <vector>

class QCustomPlot;
class QLabel;

namespace acsel::gui
{

struct FitSeries {
    std::string label; // "h100_sxm/trtllm TTFT"
    std::vector<double> estimatedMs;
    std::vector<double> measuredMs;
    double gamma = 1;
    double delta = 0;
    double mdapePercent = 0; // after calibration, on held-out points
};

class FitQualityPlot : public QWidget
{
    Q_OBJECT
public:
    explicit FitQualityPlot(QWidget* parent = nullptr);
    // Empty fits: the plot says there is nothing fitted yet and why (message).
    void setFits(const std::vector<FitSeries>& fits, std::optional<double> qualityMdapePercent,
                 const QString& message = {});

private:
    QCustomPlot* plot_ = nullptr;
    QLabel* summary_ = nullptr;
};

} // namespace acsel::gui
