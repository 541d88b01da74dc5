#include "undokeys.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QKeyEvent>

namespace acsel::studio
{

namespace
{
bool matches(const QAction* a, const QKeyEvent& e)
{
    const QKeySequence pressed(e.keyCombination());
    for (const QKeySequence& k : a->shortcuts())
        if (k == pressed)
            return true;
    return false;
}
} // namespace

UndoKeys::UndoKeys(QWidget* window, QAction* undo, QAction* redo)
    : QObject(window), window_(window), undo_(undo), redo_(redo)
{
    qApp->installEventFilter(this);
}

bool UndoKeys::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ShortcutOverride)
        return false;
    auto* box = qobject_cast<QAbstractSpinBox*>(watched);
    if (!box || box->window() != window_)
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    if (!matches(undo_, *key) && !matches(redo_, *key))
        return false;
    // Not overridden: the key becomes the window's shortcut.
    key->ignore();
    return true;
}

} // namespace acsel::studio
