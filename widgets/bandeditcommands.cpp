#include "widgets/bandeditcommands.h"

#include "widgets/bandstrip.h"

namespace acsel::gui
{

RecipeEditCommand::RecipeEditCommand(BandStrip* strip, const BandRecipe& before,
                                     const BandRecipe& after, const QString& text)
    : QUndoCommand(text), strip_(strip), before_(before), after_(after)
{
}

void RecipeEditCommand::undo()
{
    strip_->showRecipe(before_);
}
void RecipeEditCommand::redo()
{
    strip_->showRecipe(after_);
}

} // namespace acsel::gui
