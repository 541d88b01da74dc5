// Three gauges above the plot: the recommendation's TTFT, TPOT and memory as shares of their
// budgets, so all three budgets stay in view whatever the plot's x axis shows. A gauge over its
// budget is full and says by how much; without a recommendation the gauges show the budgets.
#pragma once

#include "viewmodel/explorertypes.h"
#include "viewmodel/plotscoring.h"

#include <QWidget>
#include <array>
#include <optional>

class QProgressBar;

namespace acsel::gui
{

class BudgetGauges : public QWidget
{
    Q_OBJECT
public:
    enum Gauge { Ttft, Tpot, Memory, GaugeCount };

    explicit BudgetGauges(QWidget* parent = nullptr);

    // b: the budgets the gate applies (memory capped at the device); p: the prediction shown
    // against them, nullopt for none.
    void setValues(const Budgets& b, const std::optional<PredictionView>& p);

    QString text(Gauge g) const;
    int permille(Gauge g) const; // value / budget x 1000, capped at 1000; 0 without a value

private:
    std::array<QProgressBar*, GaugeCount> bars_{};
};

} // namespace acsel::gui
