// View > Theme: the system palette, or a light or dark one chosen here (the plot, the band
// strip and the tables follow palette changes). Saved in the settings as "view/theme".
#pragma once

#include <QPalette>
#include <QString>

namespace acsel::studio
{

enum class Theme { System, Light, Dark };

inline constexpr const char* kThemeNames[] = {"system", "light", "dark"};
// "system" for an unknown name (a hand-edited setting is a hint, not an error).
Theme themeFromName(const QString& name);
// The palette of a theme; System gives back the palette the application started with.
QPalette paletteOf(Theme theme, const QPalette& system);

} // namespace acsel::studio
