#include "widgets/pointcloud.h"

#include <QPainter>
#include <cmath>

namespace acsel::gui
{

PointCloud::PointCloud(QCPAxis* keyAxis, QCPAxis* valueAxis)
    : QCPLayerable(keyAxis->parentPlot(), QString(), keyAxis->axisRect()), keyAxis_(keyAxis),
      valueAxis_(valueAxis)
{
}

void PointCloud::setStyles(std::vector<Style> styles)
{
    styles_ = std::move(styles);
    spriteDpr_ = 0; // rebuilt on the next draw
}

void PointCloud::applyDefaultAntialiasingHint(QCPPainter* painter) const
{
    painter->setAntialiasing(true);
}

QRect PointCloud::clipRect() const
{
    return keyAxis_->axisRect()->rect();
}

void PointCloud::buildSprites(qreal dpr)
{
    sprites_.clear();
    for (const Style& s : styles_) {
        const int px = static_cast<int>(std::ceil((s.size + 2) * dpr)) | 1; // odd: a centre pixel
        QImage img(px, px, QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::transparent);
        {
            QPainter p(&img);
            p.setRenderHint(QPainter::Antialiasing);
            p.setPen(Qt::NoPen);
            p.setBrush(s.colour);
            const double c = px / 2.0;
            const double r = s.size * dpr / 2.0;
            if (s.diamond)
                p.drawPolygon(QPolygonF(
                    {QPointF(c, c - r), QPointF(c + r, c), QPointF(c, c + r), QPointF(c - r, c)}));
            else
                p.drawEllipse(QPointF(c, c), r, r);
        }
        Sprite sp;
        sp.half = px / 2;
        for (int y = 0; y < px; ++y)
            for (int x = 0; x < px; ++x) {
                const QRgb v = reinterpret_cast<const QRgb*>(img.constScanLine(y))[x];
                if (qAlpha(v) == 0)
                    continue;
                sp.dx.push_back(x - sp.half);
                sp.dy.push_back(y - sp.half);
                sp.argb.push_back(v);
            }
        sprites_.push_back(std::move(sp));
    }
    spriteDpr_ = dpr;
    spriteStride_ = 0; // offsets follow on the next draw, for that canvas
}

namespace
{
// Premultiplied "source over": dst = src + dst * (1 - src alpha).
inline std::uint32_t over(std::uint32_t src, std::uint32_t dst)
{
    const std::uint32_t inv = 255 - (src >> 24);
    if (inv == 0)
        return src;
    const std::uint32_t rb = (((dst & 0x00FF00FFu) * inv + 0x00800080u) >> 8) & 0x00FF00FFu;
    const std::uint32_t ag = ((((dst >> 8) & 0x00FF00FFu) * inv + 0x00800080u)) & 0xFF00FF00u;
    return src + rb + ag;
}
} // namespace

void PointCloud::draw(QCPPainter* painter)
{
    if (points_.empty() || styles_.empty())
        return;
    const int dev = painter->device()->devType();
    const bool raster =
        dev == QInternal::Widget || dev == QInternal::Image || dev == QInternal::Pixmap;
    // Vector exports (SVG, PDF) get the cloud as one image at twice the resolution: tens of
    // thousands of vector markers made an 11 MB SVG. Frontier and marks stay vector.
    const bool vector = !raster || painter->modes().testFlag(QCPPainter::pmVectorized);
    const qreal dpr = vector ? kExportDpr : painter->device()->devicePixelRatioF();
    if (spriteDpr_ != dpr)
        buildSprites(dpr);
    const QRect clip = clipRect();
    const QSize size(static_cast<int>(std::ceil(clip.width() * dpr)),
                     static_cast<int>(std::ceil(clip.height() * dpr)));
    if (canvas_.size() != size)
        canvas_ = QImage(size, QImage::Format_ARGB32_Premultiplied);
    canvas_.fill(Qt::transparent);
    const int w = size.width(), h = size.height();
    // The axes' mapping as pixel = a * t(coord) + b, t = log10 on log axes: two calls to
    // coordToPixel instead of two per point.
    struct Map {
        double a, b;
        bool log;
    };
    auto mapOf = [dpr](const QCPAxis* axis, double origin) {
        const bool log = axis->scaleType() == QCPAxis::stLogarithmic;
        const QCPRange r = axis->range();
        const double p0 = axis->coordToPixel(r.lower), p1 = axis->coordToPixel(r.upper);
        const double t0 = log ? std::log10(r.lower) : r.lower,
                     t1 = log ? std::log10(r.upper) : r.upper;
        const double a = (p1 - p0) / (t1 - t0) * dpr;
        return Map{a, (p0 - origin) * dpr - a * t0, log};
    };
    const Map mx = mapOf(keyAxis_, clip.left());
    const Map my = mapOf(valueAxis_, clip.top());
    auto* bits = reinterpret_cast<std::uint32_t*>(canvas_.bits());
    const auto stride = static_cast<std::ptrdiff_t>(canvas_.bytesPerLine() / 4);
    if (stride != spriteStride_) {
        for (Sprite& sp : sprites_) {
            sp.offset.resize(sp.argb.size());
            for (std::size_t k = 0; k < sp.argb.size(); ++k)
                sp.offset[k] = sp.dy[k] * stride + sp.dx[k];
        }
        spriteStride_ = stride;
    }
    for (const Point& p : points_) {
        const double fx = mx.a * (mx.log ? std::log10(p.key) : p.key) + mx.b;
        const double fy = my.a * (my.log ? std::log10(p.value) : p.value) + my.b;
        if (!(fx > -16 && fy > -16 && fx < w + 16 && fy < h + 16)) // also drops NaN
            continue;
        const int cx = static_cast<int>(std::lround(fx));
        const int cy = static_cast<int>(std::lround(fy));
        const Sprite& s = sprites_[p.style < sprites_.size() ? p.style : 0];
        const bool inside =
            cx - s.half >= 0 && cy - s.half >= 0 && cx + s.half < w && cy + s.half < h;
        const std::size_t count = s.argb.size();
        if (inside) {
            std::uint32_t* centre = bits + cy * stride + cx;
            for (std::size_t k = 0; k < count; ++k) {
                std::uint32_t& d = centre[s.offset[k]];
                const std::uint32_t src = s.argb[k];
                d = (src >> 24) == 255 ? src : over(src, d); // opaque pixels need no blend
            }
            continue;
        }
        for (std::size_t k = 0; k < count; ++k) {
            const int x = cx + s.dx[k], y = cy + s.dy[k];
            if (x < 0 || y < 0 || x >= w || y >= h)
                continue;
            std::uint32_t& d = bits[y * stride + x];
            d = over(s.argb[k], d);
        }
    }
    canvas_.setDevicePixelRatio(dpr);
    painter->drawImage(QRectF(clip), canvas_, QRectF(canvas_.rect()));
}

} // namespace acsel::gui
