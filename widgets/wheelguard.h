// Inside a scrolled panel the mouse wheel scrolls the panel: a slider, spin box or combo box
// under the pointer takes the wheel only once it has focus (a click or Tab). Scrolling the
// Request panel past a budget slider used to change the budget (TPOT 60 -> 52.88 ms).
#pragma once

#include <QObject>

class QWidget;

namespace acsel::gui
{

class WheelGuard : public QObject
{
    Q_OBJECT
public:
    // Guards the sliders, spin boxes and combo boxes inside root (those it has now): they take
    // focus on a click or Tab but no longer on the wheel, and ignore the wheel until focused,
    // which leaves it to the scroll area around them.
    static void install(QWidget* root);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};

} // namespace acsel::gui
