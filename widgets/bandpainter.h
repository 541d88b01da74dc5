// A recipe's bands as coloured segments of a rectangle, layer 0 at its left edge, each labelled
// format/scope and hatched when its scope is partial: the band editor's strip and each row of
// Compare draw them the same way.
#pragma once

#include "core/model/bandrecipe.h"

#include <QString>

class QFontMetrics;
class QPainter;
class QPalette;
class QRect;

namespace acsel::gui
{

// x of the left edge of `layer` (layer == layers: the right edge) in r.
int bandLayerX(const QRect& r, int layers, int layer);
// "bf16", "fp8/full", "nvfp4/experts" (the MLP scope of a model with experts).
QString bandLabel(const acsel::Band& b, bool moe);
// What a band's label shows in `width` pixels: with withLayers the label and its layer range
// ("fp8/full  ·  6-63") when it fits, else the label alone, elided at the right if need be
// (never a cut range); empty when not even an ellipsis fits.
QString shownBandLabel(const acsel::Band& b, bool moe, bool withLayers, const QFontMetrics& fm,
                       int width);
// The bands filling r; withLayers adds each band's layer range to its label ("fp8/full · 6-63").
void paintBands(QPainter& p, const QRect& r, const acsel::BandRecipe& recipe, const QPalette& pal,
                bool moe, bool withLayers);

} // namespace acsel::gui
