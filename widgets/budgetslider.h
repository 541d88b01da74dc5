// A slider and a spin box showing one value with its unit, kept in step both ways. The slider
// is log-scaled when the range spans decades (TTFT, TPOT), linear otherwise (memory); then
// its arrow keys and the spin box's steps are fine (a step of about 1 % of the value).
#pragma once

#include <QWidget>

class QSlider;
class QDoubleSpinBox;

namespace acsel::gui
{

class BudgetSlider : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kSteps = 1000; // slider resolution

    BudgetSlider(double minimum, double maximum, bool logScale, const QString& unit, int decimals,
                 QWidget* parent = nullptr);

    double value() const;
    // Programmatic: moves both controls without emitting valueChanged.
    void setValue(double v);
    void setRange(double minimum, double maximum);
    double minimum() const { return min_; }
    double maximum() const { return max_; }
    QSlider* slider() const { return slider_; }
    QDoubleSpinBox* spinBox() const { return spin_; }
    // Slider position <-> value (exposed for tests).
    double valueAt(int position) const;
    int positionOf(double value) const;

signals:
    void valueChanged(double value); // once per user edit, on either control

private:
    QSlider* slider_ = nullptr;
    QDoubleSpinBox* spin_ = nullptr;
    double min_;
    double max_;
    bool log_;
};

} // namespace acsel::gui
