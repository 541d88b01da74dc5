#include "widgets/bandpainter.h"

#include "viewmodel/predictiontext.h"
#include "widgets/plotcolours.h"

#include <QPainter>
#include <QPalette>
#include <algorithm>
#include <cmath>

namespace acsel::gui
{

int bandLayerX(const QRect& r, int layers, int layer)
{
    return r.left() + static_cast<int>(std::lround(static_cast<double>(r.width()) * layer /
                                                   std::max(1, layers)));
}

QString bandLabel(const Band& b, bool moe)
{
    return b.format == Format::Bf16
               ? QStringLiteral("bf16")
               : fromView(toString(b.format)) + QLatin1Char('/') + fromView(toString(b.scope, moe));
}

QString shownBandLabel(const Band& b, bool moe, bool withLayers, const QFontMetrics& fm, int width)
{
    const QString label = bandLabel(b, moe);
    const QString full =
        label + (withLayers ? QStringLiteral("  ·  %1-%2").arg(b.begin).arg(b.end - 1) : QString());
    // A cut layer range would read as another range ("bf16 · 5…" for 54-63): drop it whole.
    return fm.horizontalAdvance(full) <= width ? full : fm.elidedText(label, Qt::ElideRight, width);
}

void paintBands(QPainter& p, const QRect& r, const BandRecipe& recipe, const QPalette& pal,
                bool moe, bool withLayers)
{
    const int layers = recipe.numLayers();
    for (int i = 0; i < recipe.size(); ++i) {
        const Band& b = recipe[i];
        const QRect band(QPoint(bandLayerX(r, layers, b.begin), r.top()),
                         QPoint(bandLayerX(r, layers, b.end) - 1, r.bottom()));
        const QColor c = formatColour(b.format, pal);
        p.fillRect(band, c);
        // Partial scopes: hatched, since only part of each layer is quantized.
        if (b.scope != Scope::Full)
            p.fillRect(band, QBrush(pal.color(QPalette::Base),
                                    b.scope == Scope::Mlp ? Qt::BDiagPattern : Qt::FDiagPattern));
        const QString shown =
            shownBandLabel(b, moe, withLayers, p.fontMetrics(), band.width() - 10);
        if (shown.isEmpty())
            continue;
        // The label sits on a plain patch of the band colour so hatching never crosses it.
        QRect label = p.fontMetrics().boundingRect(shown).adjusted(-4, -1, 4, 1);
        label.moveCenter(band.center());
        p.fillRect(label.intersected(band), c);
        p.setPen(c.lightness() > 150 ? Qt::black : Qt::white);
        p.drawText(band.adjusted(3, 0, -3, 0), Qt::AlignCenter, shown);
    }
}

} // namespace acsel::gui
