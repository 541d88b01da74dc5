// spreadMarks: marks with room stay on their points; coinciding ones move to the nearest free
// place, up and to the right first, and every pair ends at least the gap apart.
#include "testmain.h"
#include "widgets/markspread.h"

#include <cmath>

using acsel::gui::spreadMarks;

class TestMarkSpread : public QObject
{
    Q_OBJECT

    static double distance(QPointF a, QPointF b)
    {
        return std::hypot(a.x() - b.x(), a.y() - b.y());
    }

private slots:
    void marksWithRoomStay()
    {
        const std::vector<QPointF> points{{0, 0}, {20, 0}, {0, 20}, {100, 100}};
        const std::vector<QPointF> at = spreadMarks(points, 18);
        QCOMPARE(at, points);
    }

    void coincidingMarksMoveApart()
    {
        const double gap = 18;
        const std::vector<QPointF> points(7, QPointF(50, 50));
        const std::vector<QPointF> at = spreadMarks(points, gap);
        QCOMPARE(at.size(), points.size());
        QCOMPARE(at[0], QPointF(50, 50)); // the first keeps its point
        // The second: one gap up and to the right, (cos -45 deg, sin -45 deg) x 18.
        QVERIFY(std::abs(at[1].x() - (50 + gap / std::sqrt(2.0))) < 1e-9);
        QVERIFY(std::abs(at[1].y() - (50 - gap / std::sqrt(2.0))) < 1e-9);
        for (std::size_t i = 0; i < at.size(); ++i) {
            // Seven marks: the first ring's six places are a gap from the point and a gap from
            // each other (a hexagon), so all fit within one gap.
            QVERIFY(distance(at[i], points[i]) <= gap + 1e-9);
            for (std::size_t j = i + 1; j < at.size(); ++j)
                QVERIFY2(distance(at[i], at[j]) >= gap - 1e-9,
                         qPrintable(QStringLiteral("marks %1 and %2 are %3 apart")
                                        .arg(i)
                                        .arg(j)
                                        .arg(distance(at[i], at[j]))));
        }
    }

    void nearlyCoincidingMarksToo()
    {
        // Four pins 3 pixels apart on a line: the brute-force check of every pair.
        const std::vector<QPointF> points{{10, 10}, {13, 10}, {16, 10}, {19, 10}};
        const std::vector<QPointF> at = spreadMarks(points, 18);
        for (std::size_t i = 0; i < at.size(); ++i)
            for (std::size_t j = i + 1; j < at.size(); ++j)
                QVERIFY(distance(at[i], at[j]) >= 18 - 1e-9);
        QCOMPARE(at[0], points[0]);
    }

    void marksStayInsideTheirBounds()
    {
        // Two marks on the bottom-left corner of the area: the second goes up and right (the
        // first free places, down or left of the corner, are outside).
        const QRectF area(0, 0, 100, 100);
        const std::vector<QPointF> at = spreadMarks({{0, 100}, {0, 100}, {0, 100}}, 18, area);
        for (const QPointF& p : at)
            QVERIFY2(area.contains(p), qPrintable(QStringLiteral("%1,%2").arg(p.x()).arg(p.y())));
        for (std::size_t i = 0; i < at.size(); ++i)
            for (std::size_t j = i + 1; j < at.size(); ++j)
                QVERIFY(distance(at[i], at[j]) >= 18 - 1e-9);
    }
};

ACSEL_TEST_APPLESS_MAIN(TestMarkSpread)
#include "test_markspread.moc"
