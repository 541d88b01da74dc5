#include "widgets/wheelguard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QWidget>

namespace acsel::gui
{

void WheelGuard::install(QWidget* root)
{
    auto* guard = new WheelGuard(root);
    for (QWidget* w : root->findChildren<QWidget*>()) {
        if (!qobject_cast<QAbstractSlider*>(w) && !qobject_cast<QAbstractSpinBox*>(w) &&
            !qobject_cast<QComboBox*>(w))
            continue;
        w->setFocusPolicy(Qt::StrongFocus); // not Qt::WheelFocus: the wheel gives no focus
        w->installEventFilter(guard);
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Wheel || static_cast<QWidget*>(watched)->hasFocus())
        return false;
    // Not the control's: ignored, Qt hands it to the parents, the scroll area scrolls.
    event->ignore();
    return true;
}

} // namespace acsel::gui
