// A QCustomPlot layerable that draws tens of thousands of markers by stamping pre-rendered
// sprites straight into an image: QCustomPlot's scatter graphs call QPainter::drawEllipse per
// point (~6 us each here), which cannot redraw 50k points within a frame; stamping costs tens
// of nanoseconds per point (bench_gui_plot). Exports (PDF, SVG) draw true vector markers.
#pragma once

#include <QColor>
#include <QImage>
#include <cstdint>
#include <qcustomplot.h>
#include <vector>

namespace acsel::gui
{

class PointCloud : public QCPLayerable
{
    Q_OBJECT
public:
    struct Style {
        QColor colour;
        bool diamond = false;
        double size = 5; // marker diameter in device-independent pixels
    };
    struct Point {
        double key;
        double value;
        std::uint16_t style; // index into the styles
    };

    static constexpr qreal kExportDpr = 2;

    PointCloud(QCPAxis* keyAxis, QCPAxis* valueAxis);
    void setStyles(std::vector<Style> styles);
    // Drawn in this order (later points on top).
    std::vector<Point>& points() { return points_; }

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override;
    void draw(QCPPainter* painter) override;
    QRect clipRect() const override;

private:
    struct Sprite {
        int half;                           // sprite centre offset in device pixels
        std::vector<std::int32_t> dx, dy;   // covered pixels relative to the centre
        std::vector<std::uint32_t> argb;    // premultiplied colour of each covered pixel
        std::vector<std::ptrdiff_t> offset; // dy * stride + dx for the current canvas
    };
    void buildSprites(qreal dpr);

    QCPAxis* keyAxis_;
    QCPAxis* valueAxis_;
    std::vector<Style> styles_;
    std::vector<Sprite> sprites_;
    qreal spriteDpr_ = 0;
    std::ptrdiff_t spriteStride_ = 0;
    std::vector<Point> points_;
    QImage canvas_;
};

} // namespace acsel::gui
