#include "widgets/budgetslider.h"

#include "widgets/checkedentry.h"

#include <QDoubleSpinBox>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace acsel::gui
{

BudgetSlider::BudgetSlider(RequestField field, double minimum, double maximum, bool logScale,
                           const QString& unit, int decimals, QWidget* parent)
    : QWidget(parent), min_(minimum), max_(maximum), log_(logScale)
{
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setRange(0, kSteps);
    // Fine control where a pixel of a log slider is a big step (TTFT spans 5 decades): an
    // arrow key moves one step (1/1000 of the range: x1.012 on TTFT), Page Up/Down ten.
    slider_->setSingleStep(1);
    slider_->setPageStep(10);
    slider_->setFocusPolicy(Qt::StrongFocus);
    spin_ = new QDoubleSpinBox(this);
    spin_->setDecimals(decimals);
    // The spin box's arrows step in the value's own decade (1-10 % of it): 2.0 -> 2.1 ms,
    // 600 -> 610 ms, not a fixed 1 ms.
    if (logScale)
        spin_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
    spin_->setRange(minimum, maximum); // sizes the box; CheckedEntry then widens the range
    spin_->setSuffix(QLatin1Char(' ') + unit);
    entry_ = new CheckedEntry(spin_, field);
    // The box above its slider, so the slider spans the field: beside the box, in a 260 px
    // dock, it was 20 px wide (5 decades of TTFT in 20 px).
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(spin_);
    layout->addWidget(slider_);
    connect(slider_, &QSlider::valueChanged, this, [this](int pos) {
        entry_->setValue(valueAt(pos));
        emit valueChanged(entry_->lastValid());
    });
    connect(entry_, &CheckedEntry::committed, this, [this](double v) {
        {
            const QSignalBlocker block(slider_);
            slider_->setValue(positionOf(v));
        }
        emit valueChanged(v);
    });
}

double BudgetSlider::valueAt(int position) const
{
    const double f = static_cast<double>(position) / kSteps;
    return log_ ? min_ * std::pow(max_ / min_, f) : min_ + (max_ - min_) * f;
}

int BudgetSlider::positionOf(double value) const
{
    value = std::clamp(value, min_, max_);
    const double f =
        log_ ? std::log(value / min_) / std::log(max_ / min_) : (value - min_) / (max_ - min_);
    return static_cast<int>(std::lround(f * kSteps));
}

double BudgetSlider::value() const
{
    return entry_->lastValid();
}

bool BudgetSlider::isValid() const
{
    return entry_->isValid();
}

QString BudgetSlider::problem() const
{
    return entry_->problem();
}

void BudgetSlider::setValue(double v)
{
    const QSignalBlocker b(slider_);
    entry_->setValue(v);
    slider_->setValue(positionOf(value()));
}

void BudgetSlider::setRange(double minimum, double maximum)
{
    min_ = minimum;
    max_ = maximum;
    const QSignalBlocker b(slider_);
    slider_->setValue(positionOf(value()));
}

} // namespace acsel::gui
