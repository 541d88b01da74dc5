// Category colours that stay distinguishable on light and dark palettes (Okabe-Ito based),
// and the plot's text/grid colours taken from the widget palette.
#pragma once

#include "core/model/format.h"

#include <QColor>
#include <QPalette>

namespace acsel::gui
{

bool isDarkPalette(const QPalette& p);
// The i-th category colour (cycles), lightened on dark palettes.
QColor categoryColour(int i, const QPalette& p);
// A stable colour per format, so "fp8" looks the same in every widget.
QColor formatColour(acsel::Format f, const QPalette& p);
// Highlight colours for marks drawn over the points.
QColor recommendedColour(const QPalette& p);
QColor selectedColour(const QPalette& p);

} // namespace acsel::gui
