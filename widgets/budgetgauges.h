// Three gauges above the plot: the recommendation's TTFT, TPOT and memory as shares of their
// budgets, so all three budgets stay in view whatever the plot's x axis shows. A gauge over its
// budget is full and says by how much; without a recommendation the gauges show the budgets.
#pragma once

#include "viewmodel/explorertypes.h"
#include "viewmodel/plotscoring.h"

#include <QStringList>
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

    // The whole sentence (also the gauge's tooltip), and the longest of its shorter forms
    // that fits the gauge's width, which the gauge shows: one line, never cut.
    QString text(Gauge g) const;
    QString shownText(Gauge g) const;
    int permille(Gauge g) const; // value / budget x 1000, capped at 1000; 0 without a value

protected:
    void resizeEvent(QResizeEvent* e) override;

private:
    void fitTexts();

    std::array<QProgressBar*, GaugeCount> bars_{};
    std::array<QStringList, GaugeCount> texts_{}; // longest first
};

} // namespace acsel::gui
