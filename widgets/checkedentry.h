// What the request panel does with a typed number: checks it with the core's validity check
// (core/model/requestcheck.h) instead of clamping it, marks an invalid one red with the reason as
// its tooltip, and commits a valid one when typing pauses (kPauseMs) or on Enter, never on
// every partial number. A spin box's range is left wide so that nothing typed is changed.
#pragma once

#include "core/model/requestcheck.h"

#include <QObject>
#include <QString>

class QAbstractSpinBox;
class QTimer;

namespace acsel::gui
{

class CheckedEntry : public QObject
{
    Q_OBJECT
public:
    static constexpr int kPauseMs = 300;

    // `box` is a QSpinBox or QDoubleSpinBox; its range becomes the field's widest sensible one
    // (what the check refuses stays typed, marked). Owned by `box`.
    CheckedEntry(QAbstractSpinBox* box, RequestField field);

    bool isValid() const { return problem_.isEmpty(); }
    QString problem() const { return problem_; }
    double lastValid() const { return lastValid_; }
    // Programmatic: shows `v` as valid without emitting.
    void setValue(double v);

signals:
    void committed(double value); // a valid value the user typed or set

private:
    void onValueChanged(double v);
    void commit();
    double typed() const;

    QAbstractSpinBox* box_;
    RequestField field_;
    QTimer* pause_;
    QString problem_;
    QString tooltip_; // the box's own tooltip, restored once the value is valid again
    double lastValid_ = 0;
    bool setting_ = false;
};

} // namespace acsel::gui
