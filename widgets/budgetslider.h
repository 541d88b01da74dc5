// A slider and a spin box showing one budget with its unit, kept in step both ways. The slider
// is log-scaled when the range spans decades (TTFT, TPOT), linear otherwise (memory); then its
// arrow keys and the spin box's steps are fine (a step of about 1 % of the value). What is
// typed is checked by the core (CheckedEntry), never clamped: a value outside the slider's range
// stays typed and puts the slider at its end; an invalid one is marked and not used.
#pragma once

#include "core/model/requestcheck.h"

#include <QWidget>

class QSlider;
class QDoubleSpinBox;

namespace acsel::gui
{

class CheckedEntry;

class BudgetSlider : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kSteps = 1000; // slider resolution

    BudgetSlider(RequestField field, double minimum, double maximum, bool logScale,
                 const QString& unit, int decimals, QWidget* parent = nullptr);

    // The last valid value (an invalid typed one is not used).
    double value() const;
    bool isValid() const;
    QString problem() const; // why the typed value is invalid; empty when valid
    // Programmatic: moves both controls without emitting valueChanged.
    void setValue(double v);
    // The slider's range; the value is kept (shown at the slider's end when outside).
    void setRange(double minimum, double maximum);
    double minimum() const { return min_; }
    double maximum() const { return max_; }
    QSlider* slider() const { return slider_; }
    QDoubleSpinBox* spinBox() const { return spin_; }
    // Slider position <-> value (exposed for tests).
    double valueAt(int position) const;
    int positionOf(double value) const;

signals:
    void valueChanged(double value); // once per valid user edit, on either control

private:
    QSlider* slider_ = nullptr;
    QDoubleSpinBox* spin_ = nullptr;
    CheckedEntry* entry_ = nullptr;
    double min_;
    double max_;
    bool log_;
};

} // namespace acsel::gui
