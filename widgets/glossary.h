// The window's words a newcomer may not know, each in one or two sentences: the tooltips of the
// controls and columns that use them (the card, Compare, the plot) say the same thing.
#pragma once

#include <QString>

namespace acsel::gui
{

enum class Term { Rmqd, Fmc, FracMix, Scope, Gate, CalibrationAlgorithm, Screened };

QString whatIs(Term t);

} // namespace acsel::gui
