#include "widgets/plotcolours.h"

#include <array>

namespace acsel::gui
{

namespace
{
// Okabe-Ito without its yellow (unreadable on white), plus two extra hues.
constexpr std::array<QRgb, 9> kCategory = {0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00,
                                           0x56B4E9, 0x8C6D1F, 0x7F7F7F, 0x4B0092};

QColor adapt(QColor c, const QPalette& p)
{
    return isDarkPalette(p) ? c.lighter(135) : c;
}
} // namespace

bool isDarkPalette(const QPalette& p)
{
    return p.color(QPalette::Base).lightness() < 128;
}

QColor categoryColour(int i, const QPalette& p)
{
    const auto n = static_cast<int>(kCategory.size());
    return adapt(QColor(kCategory[static_cast<std::size_t>(((i % n) + n) % n)]), p);
}

QColor formatColour(acsel::Format f, const QPalette& p)
{
    // Ladder order: low bits warm, bf16 grey-blue.
    static constexpr std::array<QRgb, kFormatCount> kFormat = {
        0xD55E00, /*nvfp4*/ 0xCC79A7, /*int4_wo*/ 0x009E73,  /*int8_wo*/ 0xE69F00, /*int8*/
        0x0072B2, /*fp8*/ 0x56B4E9,   /*fp8_block*/ 0x7F7F7F /*bf16*/};
    return adapt(QColor(kFormat[static_cast<std::size_t>(f)]), p);
}

QColor recommendedColour(const QPalette& p)
{
    return isDarkPalette(p) ? QColor(0xFFD54F) : QColor(0xC62828);
}

QColor selectedColour(const QPalette& p)
{
    return p.color(QPalette::Highlight);
}

} // namespace acsel::gui
