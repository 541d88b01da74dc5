#include "render/frontierimage.h"

#include "render/plotscale.h"

#include <QBuffer>
#include <QFontMetrics>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_set>

namespace acsel::render
{
namespace
{

// Colour-blind-safe qualitative palette (Okabe-Ito, its black made grey: black is the
// frontier's), then repeated.
const QColor kSeries[] = {QColor(0, 114, 178),   QColor(230, 159, 0),  QColor(0, 158, 115),
                          QColor(204, 121, 167), QColor(86, 180, 233), QColor(213, 94, 0),
                          QColor(240, 228, 66),  QColor(140, 140, 140)};
const QColor kBudget(200, 30, 30);
const QColor kAnswer(255, 200, 0);

QColor seriesColour(int i)
{
    return kSeries[static_cast<std::size_t>(i) % std::size(kSeries)];
}

QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

QPolygonF star(QPointF c, double outer)
{
    QPolygonF p;
    for (int i = 0; i < 10; ++i) {
        const double r = i % 2 == 0 ? outer : outer * 0.45;
        const double a = -M_PI / 2 + i * M_PI / 5;
        p << QPointF(c.x() + r * std::cos(a), c.y() + r * std::sin(a));
    }
    return p;
}

QPolygonF diamond(QPointF c, double r)
{
    return QPolygonF({QPointF(c.x(), c.y() - r), QPointF(c.x() + r, c.y()),
                      QPointF(c.x(), c.y() + r), QPointF(c.x() - r, c.y())});
}

class Painter
{
public:
    Painter(const FrontierImage& image, int width, int height)
        : im_(image), width_(width), height_(height)
    {
    }

    void paint(QPainter& p) const
    {
        p.setRenderHint(QPainter::Antialiasing);
        p.fillRect(QRect(0, 0, width_, height_), Qt::white);
        QFont font = p.font();
        font.setPixelSize(13);
        p.setFont(font);
        const QFontMetrics fm(font);

        const int captionHeight = captionBox(fm).height() + 12;
        const QRect plot(78, 44, width_ - 78 - kLegendWidth, height_ - 44 - 50 - captionHeight);
        const PlotScale x = xScale(plot), y = yScale(plot);

        drawTitle(p);
        drawAxes(p, fm, plot, x, y);
        p.save();
        p.setClipRect(plot);
        drawCloud(p, x, y);
        drawBudget(p, plot, x);
        drawFrontier(p, x, y);
        drawMarks(p, x, y);
        p.restore();
        drawLegend(p, fm, plot);
        p.setPen(Qt::black);
        p.drawText(captionBox(fm).translated(0, height_ - captionHeight + 4),
                   Qt::TextWordWrap | Qt::AlignLeft, q(im_.caption));
    }

private:
    static constexpr int kLegendWidth = 240;

    QRect captionBox(const QFontMetrics& fm) const
    {
        return fm.boundingRect(QRect(12, 0, width_ - 24, 400), Qt::TextWordWrap, q(im_.caption));
    }

    std::vector<Mark> allMarks() const
    {
        std::vector<Mark> m = im_.frontier;
        for (const CloudPoint& c : im_.cloud)
            m.push_back({c.latency, c.rmqd});
        for (const auto& o : {im_.answer, im_.bestUniform})
            if (o)
                m.push_back(*o);
        return m;
    }

    PlotScale xScale(const QRect& plot) const
    {
        std::vector<double> v;
        for (const Mark& m : allMarks())
            if (m.latency > 0)
                v.push_back(m.latency);
        if (im_.budget)
            v.push_back(*im_.budget);
        const Range r = paddedRange(v, 0.04, true);
        return {r.lo, r.hi, double(plot.left()), double(plot.right()), true};
    }

    PlotScale yScale(const QRect& plot) const
    {
        std::vector<double> v{0.0}; // RMQD 0 (the unquantized model) stays in view
        for (const Mark& m : allMarks())
            v.push_back(m.rmqd);
        const Range r = paddedRange(v, 0.04, false);
        return {r.lo, r.hi, double(plot.bottom()), double(plot.top()), false};
    }

    void drawTitle(QPainter& p) const
    {
        QFont bold = p.font();
        bold.setBold(true);
        bold.setPixelSize(15);
        p.save();
        p.setFont(bold);
        p.setPen(Qt::black);
        p.drawText(QRect(12, 8, width_ - 24, 26), Qt::AlignLeft | Qt::AlignVCenter, q(im_.title));
        if (im_.synthetic) {
            const QString stamp = QStringLiteral("SYNTHETIC quality data");
            const int w = QFontMetrics(bold).horizontalAdvance(stamp) + 16;
            const QRect box(width_ - 12 - w, 8, w, 26);
            p.fillRect(box, QColor(255, 235, 235));
            p.setPen(kBudget);
            p.drawRect(box);
            p.drawText(box, Qt::AlignCenter, stamp);
        }
        p.restore();
    }

    void drawAxes(QPainter& p, const QFontMetrics& fm, const QRect& plot, const PlotScale& x,
                  const PlotScale& y) const
    {
        p.setPen(QColor(225, 225, 225));
        for (const double t : x.ticks())
            p.drawLine(QPointF(x.pixel(t), plot.top()), QPointF(x.pixel(t), plot.bottom()));
        for (const double t : y.ticks())
            p.drawLine(QPointF(plot.left(), y.pixel(t)), QPointF(plot.right(), y.pixel(t)));
        p.setPen(Qt::black);
        p.drawRect(plot);
        for (const double t : x.ticks()) {
            const QString label = q(tickLabel(t));
            const double px = x.pixel(t);
            p.drawLine(QPointF(px, plot.bottom()), QPointF(px, plot.bottom() + 4));
            p.drawText(QRectF(px - 40, plot.bottom() + 6, 80, fm.height()), Qt::AlignHCenter,
                       label);
        }
        for (const double t : y.ticks()) {
            const double py = y.pixel(t);
            p.drawLine(QPointF(plot.left() - 4, py), QPointF(plot.left(), py));
            p.drawText(QRectF(0, py - fm.height() / 2.0, plot.left() - 7, fm.height()),
                       Qt::AlignRight | Qt::AlignVCenter, q(tickLabel(t)));
        }
        p.drawText(QRect(plot.left(), plot.bottom() + 8 + fm.height(), plot.width(), fm.height()),
                   Qt::AlignHCenter, q(im_.xTitle));
        p.save();
        p.translate(14, plot.center().y());
        p.rotate(-90);
        p.drawText(QRect(-plot.height() / 2, -fm.height() / 2, plot.height(), fm.height() + 4),
                   Qt::AlignHCenter, q(im_.yTitle));
        p.restore();
    }

    // One dot per 2-pixel cell, series and feasibility: the same picture as every point, and
    // an SVG whose size follows the picture, not the number of candidates.
    void drawCloud(QPainter& p, const PlotScale& x, const PlotScale& y) const
    {
        p.setPen(Qt::NoPen);
        std::unordered_set<std::uint64_t> drawn;
        // Infeasible first, feasible over them.
        for (const bool feasible : {false, true})
            for (const CloudPoint& c : im_.cloud) {
                if (c.feasible != feasible || c.latency <= 0)
                    continue;
                const QPointF at(x.pixel(c.latency), y.pixel(c.rmqd));
                const auto cell = (static_cast<std::uint64_t>(at.x() / 2) << 40) ^
                                  (static_cast<std::uint64_t>(at.y() / 2) << 20) ^
                                  (static_cast<std::uint64_t>(c.series) << 1) ^
                                  static_cast<std::uint64_t>(feasible);
                if (!drawn.insert(cell).second)
                    continue;
                QColor col = seriesColour(c.series);
                col.setAlpha(feasible ? 170 : 45);
                p.setBrush(col);
                p.drawEllipse(at, 2.2, 2.2);
            }
    }

    void drawBudget(QPainter& p, const QRect& plot, const PlotScale& x) const
    {
        if (!im_.budget)
            return;
        p.setPen(QPen(kBudget, 1.5, Qt::DashLine));
        const double px = x.pixel(*im_.budget);
        p.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
    }

    void drawFrontier(QPainter& p, const PlotScale& x, const PlotScale& y) const
    {
        if (im_.frontier.empty())
            return;
        std::vector<Mark> f = im_.frontier;
        std::sort(f.begin(), f.end(),
                  [](const Mark& a, const Mark& b) { return a.latency < b.latency; });
        // A step: each point's RMQD holds until the next, faster-is-worse point.
        QPainterPath path(QPointF(x.pixel(f[0].latency), y.pixel(f[0].rmqd)));
        for (std::size_t i = 1; i < f.size(); ++i) {
            path.lineTo(x.pixel(f[i].latency), y.pixel(f[i - 1].rmqd));
            path.lineTo(x.pixel(f[i].latency), y.pixel(f[i].rmqd));
        }
        p.setPen(QPen(Qt::black, 2));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        p.setBrush(Qt::black);
        for (const Mark& m : f)
            p.drawEllipse(QPointF(x.pixel(m.latency), y.pixel(m.rmqd)), 2.5, 2.5);
    }

    void drawMarks(QPainter& p, const PlotScale& x, const PlotScale& y) const
    {
        p.setPen(QPen(Qt::black, 1.2));
        if (im_.bestUniform) {
            p.setBrush(Qt::white);
            p.drawPolygon(diamond(
                QPointF(x.pixel(im_.bestUniform->latency), y.pixel(im_.bestUniform->rmqd)), 8));
        }
        if (im_.answer) {
            p.setBrush(kAnswer);
            p.drawPolygon(
                star(QPointF(x.pixel(im_.answer->latency), y.pixel(im_.answer->rmqd)), 11));
        }
    }

    void drawLegend(QPainter& p, const QFontMetrics& fm, const QRect& plot) const
    {
        const int left = plot.right() + 16, width = kLegendWidth - 28;
        int top = plot.top();
        auto entry = [&](const QString& text, auto&& symbol) {
            symbol(QPointF(left + 8, top + fm.height() / 2.0));
            const QRect box =
                fm.boundingRect(QRect(left + 22, top, width - 22, 200), Qt::TextWordWrap, text);
            p.setPen(Qt::black);
            p.drawText(box, Qt::TextWordWrap, text);
            top += box.height() + 6;
        };
        for (std::size_t i = 0; i < im_.seriesNames.size(); ++i)
            entry(q(im_.seriesNames[i]), [&](QPointF c) {
                p.setPen(Qt::NoPen);
                p.setBrush(seriesColour(static_cast<int>(i)));
                p.drawEllipse(c, 4, 4);
            });
        if (!im_.cloudName.empty())
            entry(q(im_.cloudName), [&](QPointF c) {
                p.setPen(Qt::NoPen);
                QColor faded = seriesColour(0);
                faded.setAlpha(45);
                p.setBrush(faded);
                p.drawEllipse(c, 4, 4);
            });
        top += 6;
        if (!im_.frontier.empty())
            entry(q(im_.frontierName), [&](QPointF c) {
                p.setPen(QPen(Qt::black, 2));
                p.drawLine(c - QPointF(8, 0), c + QPointF(8, 0));
            });
        if (im_.budget)
            entry(q(im_.budgetName), [&](QPointF c) {
                p.setPen(QPen(kBudget, 1.5, Qt::DashLine));
                p.drawLine(c - QPointF(0, 7), c + QPointF(0, 7));
            });
        if (im_.answer)
            entry(QStringLiteral("answer"), [&](QPointF c) {
                p.setPen(QPen(Qt::black, 1.2));
                p.setBrush(kAnswer);
                p.drawPolygon(star(c, 8));
            });
        if (im_.bestUniform)
            entry(QStringLiteral("best uniform configuration"), [&](QPointF c) {
                p.setPen(QPen(Qt::black, 1.2));
                p.setBrush(Qt::white);
                p.drawPolygon(diamond(c, 6));
            });
    }

    const FrontierImage& im_;
    int width_, height_;
};

} // namespace

EncodedImages drawFrontierImage(const FrontierImage& image, int width, int height)
{
    const Painter painter(image, width, height);
    EncodedImages out;
    QImage png(width, height, QImage::Format_ARGB32);
    {
        QPainter p(&png);
        painter.paint(p);
    }
    QBuffer pngBytes;
    pngBytes.open(QIODevice::WriteOnly);
    const bool pngOk = png.save(&pngBytes, "PNG");

    QBuffer svgBytes;
    QSvgGenerator svg;
    svg.setOutputDevice(&svgBytes);
    svg.setSize(QSize(width, height));
    svg.setViewBox(QRect(0, 0, width, height));
    svg.setTitle(QString::fromStdString(image.title));
    svg.setDescription(QString::fromStdString(image.caption));
    {
        QPainter p(&svg);
        painter.paint(p);
    }
    if (!pngOk || svgBytes.data().isEmpty())
        return out;
    out.png.assign(pngBytes.data().constData(), static_cast<std::size_t>(pngBytes.size()));
    out.svg.assign(svgBytes.data().constData(), static_cast<std::size_t>(svgBytes.size()));
    return out;
}

} // namespace acsel::render
