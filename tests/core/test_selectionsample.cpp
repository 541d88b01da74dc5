// Selection sampling (core/search/selectionsample.h): the sample's shape, its determinism, and
// that every k-subset is equally likely (counted over many seeds against the exact 1 / C(n, k)).
#include "core/search/selectionsample.h"
#include "testmain.h"

#include <map>

using namespace acsel;

class TestSelectionSample : public QObject
{
    Q_OBJECT
private slots:
    void shapeAndDeterminism();
    void everySubsetEquallyLikely();
};

void TestSelectionSample::shapeAndDeterminism()
{
    for (std::uint64_t seed : {1u, 2u, 99u}) {
        const std::vector<std::size_t> s = selectionSample(1000, 37, seed);
        QCOMPARE(s.size(), std::size_t{37});
        for (std::size_t i = 1; i < s.size(); ++i)
            QVERIFY(s[i - 1] < s[i]); // ascending, distinct
        QVERIFY(s.back() < 1000);
        QCOMPARE(selectionSample(1000, 37, seed), s);
    }
    QVERIFY(selectionSample(1000, 37, 1) != selectionSample(1000, 37, 2));
    QCOMPARE(selectionSample(4, 9, 1), (std::vector<std::size_t>{0, 1, 2, 3}));
    QCOMPARE(selectionSample(4, 4, 1), (std::vector<std::size_t>{0, 1, 2, 3}));
    QVERIFY(selectionSample(0, 3, 1).empty());
    QVERIFY(selectionSample(5, 0, 1).empty());
}

void TestSelectionSample::everySubsetEquallyLikely()
{
    // 3 of 5: C(5, 3) = 10 subsets, each 1/10; over 20000 seeds each count is 2000 with a
    // binomial sd of sqrt(20000 x 0.1 x 0.9) = 42, so +-200 (4.7 sd) bounds a fair sampler; a
    // sampler that prefers early indices (e.g. taking each with probability k / n) fails it.
    std::map<std::vector<std::size_t>, int> counts;
    constexpr int kDraws = 20000;
    for (int seed = 0; seed < kDraws; ++seed)
        ++counts[selectionSample(5, 3, static_cast<std::uint64_t>(seed))];
    QCOMPARE(counts.size(), std::size_t{10});
    for (const auto& [subset, n] : counts)
        QVERIFY2(n > 1800 && n < 2200, qPrintable(QString::number(n)));
}

ACSEL_TEST_APPLESS_MAIN(TestSelectionSample)
#include "test_selectionsample.moc"
