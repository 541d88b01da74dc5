// The undo command for band recipe edits (drag, keyboard nudge, format/scope change, split,
// merge). It stores the recipe before and after, so undo restores exactly what the user saw,
// also after canonical merging of equal neighbours.
#pragma once

#include "core/model/bandrecipe.h"

#include <QUndoCommand>

namespace acsel::gui
{

class BandStrip;

class RecipeEditCommand : public QUndoCommand
{
public:
    RecipeEditCommand(BandStrip* strip, const acsel::BandRecipe& before,
                      const acsel::BandRecipe& after, const QString& text);
    void undo() override;
    void redo() override;

private:
    BandStrip* strip_;
    acsel::BandRecipe before_;
    acsel::BandRecipe after_;
};

} // namespace acsel::gui
