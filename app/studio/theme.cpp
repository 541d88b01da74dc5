#include "theme.h"

#include <QColor>

namespace acsel::studio
{

Theme themeFromName(const QString& name)
{
    for (int i = 0; i < 3; ++i)
        if (name == QLatin1String(kThemeNames[i]))
            return static_cast<Theme>(i);
    return Theme::System;
}

QPalette paletteOf(Theme theme, const QPalette& system)
{
    if (theme == Theme::System)
        return system;
    const bool dark = theme == Theme::Dark;
    const QColor window = dark ? QColor(45, 45, 48) : QColor(239, 239, 239);
    const QColor base = dark ? QColor(30, 30, 32) : QColor(255, 255, 255);
    const QColor text = dark ? QColor(230, 230, 230) : QColor(20, 20, 20);
    const QColor button = dark ? QColor(55, 55, 58) : QColor(239, 239, 239);
    const QColor highlight = dark ? QColor(42, 130, 218) : QColor(48, 140, 198);
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, dark ? QColor(40, 40, 43) : QColor(247, 247, 247));
    p.setColor(QPalette::ToolTipBase, dark ? QColor(60, 60, 40) : QColor(255, 255, 220));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, dark ? QColor(140, 140, 140) : QColor(120, 120, 120));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, button);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, highlight);
    p.setColor(QPalette::Mid, dark ? QColor(90, 90, 95) : QColor(160, 160, 160));
    p.setColor(QPalette::Dark, dark ? QColor(20, 20, 22) : QColor(120, 120, 120));
    p.setColor(QPalette::Light, dark ? QColor(75, 75, 80) : QColor(255, 255, 255));
    const QColor disabled = dark ? QColor(120, 120, 120) : QColor(150, 150, 150);
    for (const QPalette::ColorRole r : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, r, disabled);
    return p;
}

} // namespace acsel::studio
