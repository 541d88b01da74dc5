// The edits a user can make to a band recipe, as pure functions: each returns the new recipe in
// canonical form (equal neighbours merged), or nothing when the edit would make it illegal
// (empty band, more than three bands, or no calibration algorithm fitting every band).
#pragma once

#include "core/model/bandrecipe.h"

#include <optional>

namespace acsel::gui
{

// Merges neighbouring bands with the same format and scope; bf16 bands get scope full.
acsel::BandRecipe canonical(const acsel::BandRecipe& r);
// Moves cut `cut` (the first layer of band cut+1) to layer `layer`, clamped so both bands keep
// at least one layer.
std::optional<acsel::BandRecipe> moveCut(const acsel::BandRecipe& r, int cut, int layer);
std::optional<acsel::BandRecipe> setBand(const acsel::BandRecipe& r, int band, acsel::Format f,
                                         acsel::Scope s);
// Splits band `band` at `layer` (first layer of the new right part) and gives the right part
// (format, scope).
std::optional<acsel::BandRecipe> splitBand(const acsel::BandRecipe& r, int band, int layer,
                                           acsel::Format f, acsel::Scope s);
// Band `band` takes over band `band + 1` (keeping its own format and scope).
std::optional<acsel::BandRecipe> mergeWithNext(const acsel::BandRecipe& r, int band);
// Band `band + 1` takes over band `band` (keeping the right band's format and scope).
std::optional<acsel::BandRecipe> mergeIntoNext(const acsel::BandRecipe& r, int band);

} // namespace acsel::gui
