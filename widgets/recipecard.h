// The recommendation (or any chosen configuration) in full: recipe, predicted TTFT / TPOT /
// memory / RMQD with the gate's verdict, what the engine takes at the launch's memory flag, a
// caveat on the RMQD when there is one, the operator and memory breakdowns, the search's counts
// and time, and the best uniform configuration beside it with the deltas.
#pragma once

#include "viewmodel/explorertypes.h"

#include <QWidget>
#include <optional>

class QLabel;
class QPushButton;
class QTableWidget;

namespace acsel::gui
{

struct CardContent {
    QString title; // "Recommended by BandPareto", "Selected", ...
    acsel::Config config;
    QString modelName;
    PredictionView prediction;
    std::optional<acsel::Config> uniform; // best uniform configuration for the same request
    std::optional<PredictionView> uniformPrediction;
    std::optional<SearchStats> stats;
    // A caveat on the RMQD, shown under the metrics on an amber line (object name
    // "rmqdCaveat"): e.g. the quality set has no rows of this model. Empty: no line.
    QString rmqdCaveat;
    // How far off the latencies typically are: "raw estimate, typical error TTFT 341 %, TPOT
    // 24 % on the 85 measured rows of this stack." The card shows it under the metrics (object
    // name "cardHowSure") after whether the latencies have an interval (the prediction's). Empty:
    // no line.
    QString howSure;

    // The model's parameters (object name "cardParameters"): "8.19 B parameters", or for a
    // mixture of experts "3.35 B active / 30.53 B total parameters" (parameterText).
    QString parameters;
    bool moe = false; // the model has experts: the MLP scope reads "experts"
    // The margin the answer was gated with, under the verdict (object name "cardMargin"):
    // "margin 5 % inside every budget" (marginText). Empty: no line.
    QString margin;
};

class RecipeCard : public QWidget
{
    Q_OBJECT
public:
    explicit RecipeCard(QWidget* parent = nullptr);
    void setContent(const CardContent& content);
    // Nothing to show, and why; detail (e.g. which budget binds) below it, in the label that
    // otherwise holds the gate's verdict (object name "cardVerdict").
    void showMessage(const QString& message, const QString& detail = {});
    // Stale: the content was computed for an earlier request, filter or algorithm. It is shown
    // greyed under an "updating" line and cannot be pinned or exported until replaced.
    void setStale(bool stale);
    bool isStale() const { return stale_; }
    const std::optional<CardContent>& content() const { return content_; }
    // Read back for tests and accessibility: the metrics table.
    QTableWidget* metricsTable() const { return metrics_; }

signals:
    void pinRequested();
    void pinUniformRequested(); // the best uniform configuration beside the answer
    void exportRequested();

private:
    QLabel* title_ = nullptr;
    QLabel* parameters_ = nullptr;
    QLabel* recipe_ = nullptr;
    QLabel* uniform_ = nullptr;
    QLabel* verdict_ = nullptr;
    QLabel* margin_ = nullptr;
    QLabel* engineMemory_ = nullptr; // what the engine takes at the launch flag
    QLabel* rmqdCaveat_ = nullptr;
    QLabel* stats_ = nullptr;
    QLabel* howSure_ = nullptr;
    QTableWidget* metrics_ = nullptr;
    QTableWidget* ops_ = nullptr;
    QTableWidget* memory_ = nullptr;
    QPushButton* pin_ = nullptr;
    QPushButton* pinUniform_ = nullptr;
    QPushButton* export_ = nullptr;
    QLabel* staleNote_ = nullptr;
    QWidget* body_ = nullptr;
    std::optional<CardContent> content_;
    bool stale_ = false;
};

} // namespace acsel::gui
