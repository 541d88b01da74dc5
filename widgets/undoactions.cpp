#include "widgets/undoactions.h"

#include <QAction>
#include <QUndoStack>

namespace acsel::gui
{

namespace
{
// word: "&Undo" or "&Redo"; the stack's own actions read "Undo fp8".
template <typename CanChanged, typename TextChanged, typename Trigger>
QAction* action(QUndoStack* stack, QObject* parent, const QString& word, bool can,
                const QString& text, CanChanged canChanged, TextChanged textChanged,
                Trigger trigger)
{
    auto* a = new QAction(parent);
    auto setText = [a, word](const QString& t) {
        a->setText(t.isEmpty() ? word : QStringLiteral("%1: %2").arg(word, t));
    };
    a->setEnabled(can);
    setText(text);
    QObject::connect(stack, canChanged, a, &QAction::setEnabled);
    QObject::connect(stack, textChanged, a, setText);
    QObject::connect(a, &QAction::triggered, stack, trigger);
    return a;
}
} // namespace

QAction* createUndoAction(QUndoStack* stack, QObject* parent)
{
    return action(stack, parent, QObject::tr("&Undo"), stack->canUndo(), stack->undoText(),
                  &QUndoStack::canUndoChanged, &QUndoStack::undoTextChanged, &QUndoStack::undo);
}

QAction* createRedoAction(QUndoStack* stack, QObject* parent)
{
    return action(stack, parent, QObject::tr("&Redo"), stack->canRedo(), stack->redoText(),
                  &QUndoStack::canRedoChanged, &QUndoStack::redoTextChanged, &QUndoStack::redo);
}

} // namespace acsel::gui
