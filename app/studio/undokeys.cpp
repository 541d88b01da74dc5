#include "undokeys.h"

#include <QAction>
#include <QApplication>
#include <QKeyEvent>
#include <QWidget>

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

bool UndoKeys::inside(const QObject* o) const
{
    // By parent, not by window(): a floating dock is a window of its own.
    for (; o; o = o->parent())
        if (o == window_)
            return true;
    return false;
}

UndoKeys::UndoKeys(QWidget* window, QAction* undo, QAction* redo)
    : QObject(window), window_(window), undo_(undo), redo_(redo)
{
    qApp->installEventFilter(this);
}

bool UndoKeys::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::ShortcutOverride)
        return false;
    if (!watched->isWidgetType() || !inside(watched))
        return false;
    auto* key = static_cast<QKeyEvent*>(event);
    if (!matches(undo_, *key) && !matches(redo_, *key))
        return false;
    // Not overridden: the key becomes the window's shortcut.
    key->ignore();
    return true;
}

} // namespace acsel::studio
