// The window's Undo and Redo keys (Ctrl+Z, Ctrl+Y, ...) wherever the focus is in the window
// and its docks: a spin box or a line edit takes them for its own text, so
// right after typing a budget or a batch they did nothing. What is typed is applied at once,
// so the keys go to the window's actions instead.
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
    // Watches every widget inside window (installed on the application, so widgets created
    // later count too); undo and redo carry the keys.
    UndoKeys(QWidget* window, QAction* undo, QAction* redo);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    bool inside(const QObject* o) const; // window_ or one of its descendants
    QWidget* window_;
    QAction* undo_;
    QAction* redo_;
};

} // namespace acsel::studio
