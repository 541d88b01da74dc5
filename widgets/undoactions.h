// Undo and Redo actions of an undo stack that say what they undo in words a user reads at a
// glance ("Undo: band 2 format fp8"), and just "Undo" / "Redo" when there is nothing to.
#pragma once

class QAction;
class QObject;
class QUndoStack;

namespace acsel::gui
{

QAction* createUndoAction(QUndoStack* stack, QObject* parent);
QAction* createRedoAction(QUndoStack* stack, QObject* parent);

} // namespace acsel::gui
