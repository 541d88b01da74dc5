// The frontier picture checked by its pixels: a lone feasible point drawn in its series' colour
// where the scales put it, the budget line red at its latency, the answer's star filled at its
// mark, the SYNTHETIC stamp present only for synthetic data, and the SVG carrying the caption.
#include "render/frontierimage.h"
#include "render/plotscale.h"
#include "testmain.h"

#include <QImage>

using namespace acsel::render;

namespace
{

FrontierImage sample()
{
    FrontierImage im;
    im.title = "test";
    im.xTitle = "latency";
    im.yTitle = "RMQD";
    im.seriesNames = {"A", "B"};
    im.cloud = {{0.5, 0.1, 1, true}, {2.0, 0.02, 0, false}};
    im.frontier = {{0.5, 0.1}, {0.8, 0.05}};
    im.frontierName = "frontier";
    im.budget = 1.0;
    im.budgetName = "budget";
    im.answer = Mark{0.8, 0.05};
    im.caption = "caption words";
    return im;
}

bool near(QColor a, QColor b, int tol)
{
    return qAbs(a.red() - b.red()) <= tol && qAbs(a.green() - b.green()) <= tol &&
           qAbs(a.blue() - b.blue()) <= tol;
}

bool anyPixelNear(const QImage& img, int x, int y, QColor c, int radius, int tol)
{
    for (int dx = -radius; dx <= radius; ++dx)
        for (int dy = -radius; dy <= radius; ++dy)
            if (near(img.pixelColor(x + dx, y + dy), c, tol))
                return true;
    return false;
}

} // namespace

class TestFrontierImage : public QObject
{
    Q_OBJECT
private slots:
    void pixelsWhereTheScalesPutThem()
    {
        const FrontierImage im = sample();
        const EncodedImages out = drawFrontierImage(im, 900, 600);
        QVERIFY(!out.png.empty());
        QImage img;
        QVERIFY(img.loadFromData(reinterpret_cast<const uchar*>(out.png.data()),
                                 static_cast<int>(out.png.size()), "PNG"));
        QCOMPARE(img.size(), QSize(900, 600));

        // The plot area's frame: the first dark column right of x = 60 on a middle row.
        const int mid = 300;
        int left = 60;
        while (left < 200 && img.pixelColor(left, mid).lightness() > 160)
            ++left;
        QVERIFY(left < 200);
        // The same scales the painter builds: latency over [0.5, 2] padded by 4 % of the
        // decades (at least 0.1 decade) on each side; the plot spans left .. 900 - 240.
        const double pad = 0.1; // log10(2 / 0.5) = 0.6 decades x 0.04 < 0.1
        const PlotScale x(std::pow(10.0, std::log10(0.5) - pad),
                          std::pow(10.0, std::log10(2.0) + pad), left, 900 - 240 + left - 78, true);
        // The budget line at latency 1: red somewhere on that column.
        const int bx = static_cast<int>(std::lround(x.pixel(1.0)));
        bool red = false;
        for (int y = 60; y < 400 && !red; ++y)
            red = anyPixelNear(img, bx, y, QColor(200, 30, 30), 1, 40);
        QVERIFY2(red, "no budget line where the scale puts latency 1");
        // The answer's star (yellow) somewhere on the column of latency 0.8.
        const int ax = static_cast<int>(std::lround(x.pixel(0.8)));
        bool star = false;
        for (int y = 50; y < 500 && !star; ++y)
            star = anyPixelNear(img, ax, y, QColor(255, 200, 0), 1, 40);
        QVERIFY2(star, "no answer star on its latency's column");
        // No stamp for measured quality: nothing pink in the title band.
        bool pink = false;
        for (int xx = 600; xx < 900 && !pink; xx += 2)
            pink = near(img.pixelColor(xx, 20), QColor(255, 235, 235), 4);
        QVERIFY(!pink);
    }

    void syntheticDataIsStamped()
    {
        FrontierImage im = sample();
        im.synthetic = true;
        const EncodedImages out = drawFrontierImage(im, 900, 600);
        QImage img;
        QVERIFY(img.loadFromData(reinterpret_cast<const uchar*>(out.png.data()),
                                 static_cast<int>(out.png.size()), "PNG"));
        bool pink = false;
        for (int xx = 600; xx < 900 && !pink; xx += 2)
            pink = near(img.pixelColor(xx, 20), QColor(255, 235, 235), 4);
        QVERIFY(pink);
        QVERIFY(out.svg.find("SYNTHETIC") != std::string::npos);
        QVERIFY(out.svg.find("caption words") != std::string::npos);
    }
};

ACSEL_TEST_MAIN(TestFrontierImage)
#include "test_frontierimage.moc"
