// How well the surrogates fit: measured vs raw estimated latency on log axes (one series per
// stack and metric), the FMC line log T = gamma log T_est + delta when a calibration is
// loaded, the MdAPE raw and calibrated, and the quality surrogate's MdAPE.
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
    std::string label;               // "h100_sxm/trtllm TTFT"
    std::vector<double> estimatedMs; // raw (uncalibrated) estimates
    std::vector<double> measuredMs;
    bool calibrated = false; // an FMC line (gamma, delta) is loaded for this series
    double gamma = 1;
    double delta = 0;
    double rawMdapePercent = 0; // raw estimate vs measured
    double mdapePercent = 0;    // FMC-calibrated estimate vs measured (when calibrated)
};

class FitQualityPlot : public QWidget
{
    Q_OBJECT
public:
    explicit FitQualityPlot(QWidget* parent = nullptr);
    // message is shown under the fit lines (e.g. where the rows come from, or why there are
    // none); without fits and without a message the plot says nothing is fitted yet.
    void setFits(const std::vector<FitSeries>& fits, std::optional<double> qualityMdapePercent,
                 const QString& message = {});

private:
    QCustomPlot* plot_ = nullptr;
    QLabel* summary_ = nullptr;
};

} // namespace acsel::gui
