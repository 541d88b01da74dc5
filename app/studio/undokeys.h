// The window's Undo and Redo keys (Ctrl+Z, Ctrl+Y, ...) while a spin box has focus: a spin
// box takes them for its own text, so right after typing a budget or a batch they did nothing.
// Its value is already applied when typed, so the keys go to the window's actions instead.
#pragma once

#include <QObject>

class QAction;
class QWidget;

namespace acsel::studio
{

class UndoKeys : public QObject
{
    Q_OBJECT
public:
    // Watches the spin boxes inside window (installed on the application, so spin boxes
    // created later count too); undo and redo carry the keys.
    UndoKeys(QWidget* window, QAction* undo, QAction* redo);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* window_;
    QAction* undo_;
    QAction* redo_;
};

} // namespace acsel::studio
