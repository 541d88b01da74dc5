#include "widgets/checkedentry.h"

#include <QDoubleSpinBox>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>

namespace acsel::gui
{
namespace
{
// Wide enough for anything a user types (a negative number, one far above the largest
// accepted), so that the box shows it instead of the nearest bound.
constexpr double kTypedRange = 1e9;
} // namespace

CheckedEntry::CheckedEntry(QAbstractSpinBox* box, RequestField field)
    : QObject(box), box_(box), field_(field), pause_(new QTimer(this))
{
    pause_->setSingleShot(true);
    pause_->setInterval(kPauseMs);
    connect(pause_, &QTimer::timeout, this, &CheckedEntry::commit);
    box->setKeyboardTracking(true);
    // The box keeps the width its field needs, not the wide range's.
    box->setMaximumWidth(box->sizeHint().width());
    if (auto* d = qobject_cast<QDoubleSpinBox*>(box)) {
        lastValid_ = d->value();
        d->setRange(-kTypedRange, kTypedRange);
        connect(d, &QDoubleSpinBox::valueChanged, this, &CheckedEntry::onValueChanged);
    } else if (auto* i = qobject_cast<QSpinBox*>(box)) {
        lastValid_ = i->value();
        i->setRange(-static_cast<int>(kTypedRange), static_cast<int>(kTypedRange));
        connect(i, &QSpinBox::valueChanged, this,
                [this](int v) { onValueChanged(static_cast<double>(v)); });
    }
    connect(box, &QAbstractSpinBox::editingFinished, this, [this] {
        if (pause_->isActive()) {
            pause_->stop();
            commit();
        }
    });
    tooltip_ = box->toolTip();
}

double CheckedEntry::typed() const
{
    if (const auto* d = qobject_cast<const QDoubleSpinBox*>(box_))
        return d->value();
    return static_cast<const QSpinBox*>(box_)->value();
}

void CheckedEntry::onValueChanged(double)
{
    if (setting_)
        return;
    // Typing: wait for the pause (or Enter); a step, a wheel turn or a value set from code
    // (the box has no focus) counts at once.
    if (box_->hasFocus())
        pause_->start();
    else
        commit();
}

void CheckedEntry::commit()
{
    const double v = typed();
    problem_ = QString::fromStdString(fieldProblem(field_, v));
    box_->setProperty("invalid", !problem_.isEmpty());
    if (!problem_.isEmpty()) {
        box_->setStyleSheet(QStringLiteral("background-color: #f4c7c3; color: #000000;"));
        box_->setToolTip(problem_ + tr(" (not used: the search keeps %1)").arg(lastValid_));
        return;
    }
    box_->setStyleSheet(QString());
    box_->setToolTip(tooltip_);
    lastValid_ = v;
    emit committed(v);
}

void CheckedEntry::setValue(double v)
{
    pause_->stop();
    setting_ = true;
    if (auto* d = qobject_cast<QDoubleSpinBox*>(box_))
        d->setValue(v);
    else
        static_cast<QSpinBox*>(box_)->setValue(static_cast<int>(v));
    setting_ = false;
    lastValid_ = typed();
    problem_.clear();
    box_->setProperty("invalid", false);
    box_->setStyleSheet(QString());
    box_->setToolTip(tooltip_);
}

} // namespace acsel::gui
