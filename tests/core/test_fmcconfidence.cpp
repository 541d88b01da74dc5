// The confidence gate at a request's concurrency (fmcconfidence.h): a fitted concurrency's
// p-quantile, the larger neighbour between two fitted ones, the larger of the nearest and the
// stack's outside them, the largest over the tensor-parallel degrees a request may use; every
// shift worked out by hand from printed Student t tables.
#include "core/latency/fmcconfidence.h"
#include "testmain.h"

#include <cmath>

using namespace acsel;

namespace
{

// Printed tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2): one-sided 0.9 quantiles.
constexpr double kT4 = 1.5332, kT9 = 1.3830, kT19 = 1.3277;

// The stack: 20 profiles, scale 0.5; c8: centre 0.3, 5 profiles, scale 0.1; c64: centre -0.1,
// 10 profiles, scale 0.2; c16 at tp 2: centre 0.05, 5 profiles, scale 0.1.
const FmcSpread kStack{20, 19, 0.5};
const std::vector<FmcLoadSpread> kLoads{
    {"c8", 0.3, {5, 4, 0.1}}, {"c64", -0.1, {10, 9, 0.2}}, {"c16|tp2", 0.05, {5, 4, 0.1}}};
// Their 0.9-quantile shifts: centre + t_dof(0.9) x scale x sqrt(1 + 1/profiles).
const double kAt8 = 0.3 + kT4 * 0.1 * std::sqrt(1.2);      // 0.46795
const double kAt64 = -0.1 + kT9 * 0.2 * std::sqrt(1.1);    // 0.19010
const double kAtStack = kT19 * 0.5 * std::sqrt(1.05);      // 0.68024
const double kAt16Tp2 = 0.05 + kT4 * 0.1 * std::sqrt(1.2); // 0.21795

bool near(std::optional<double> v, double want)
{
    return v && std::abs(*v - want) < 1e-3;
}

} // namespace

class TestFmcConfidence : public QObject
{
    Q_OBJECT
private slots:
    void loadKeysParse();
    void fittedBetweenAndOutside();
    void theMedianIsTheCentre();
    void anUnknownSpreadGivesNoShift();
    void gateLinesTakeTheLargestDegree();
};

void TestFmcConfidence::loadKeysParse()
{
    const auto c64 = parseFmcLoad("c64");
    QVERIFY(c64 && c64->concurrency == 64 && c64->tp == 1);
    const auto tp2 = parseFmcLoad("c64|tp2");
    QVERIFY(tp2 && tp2->concurrency == 64 && tp2->tp == 2);
    for (const char* bad : {"", "64", "c", "c0", "c-1", "c8x", "c8|tp", "c8|x2", "c8|tp0"})
        QVERIFY2(!parseFmcLoad(bad), bad);
}

void TestFmcConfidence::fittedBetweenAndOutside()
{
    QVERIFY(near(confidenceShift(kLoads, kStack, {8, 1}, 0.9), kAt8));
    QVERIFY(near(confidenceShift(kLoads, kStack, {64, 1}, 0.9), kAt64));
    // Between c8 and c64: the larger, c8's (an interpolation would give less).
    QVERIFY(near(confidenceShift(kLoads, kStack, {32, 1}, 0.9), kAt8));
    // Below c8 and above c64: the stack's, wider than the nearest here.
    QVERIFY(near(confidenceShift(kLoads, kStack, {4, 1}, 0.9), kAtStack));
    QVERIFY(near(confidenceShift(kLoads, kStack, {128, 1}, 0.9), kAtStack));
    // The nearest when it is the wider: c64 moved to centre 1.0 (shift 1.29010).
    std::vector<FmcLoadSpread> high = kLoads;
    high[1].centre = 1.0;
    QVERIFY(near(confidenceShift(high, kStack, {128, 1}, 0.9), kAt64 + 1.1));
    // tp 2 has only c16: exact there, the stack's beside it; tp 4 has none: the stack's.
    QVERIFY(near(confidenceShift(kLoads, kStack, {16, 2}, 0.9), kAt16Tp2));
    QVERIFY(near(confidenceShift(kLoads, kStack, {32, 2}, 0.9), kAtStack));
    QVERIFY(near(confidenceShift(kLoads, kStack, {16, 4}, 0.9), kAtStack));
    QVERIFY(near(confidenceShift({}, kStack, {16, 1}, 0.9), kAtStack));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, confidenceShift(kLoads, kStack, {8, 1}, 1.0));
}

void TestFmcConfidence::theMedianIsTheCentre()
{
    QVERIFY(near(confidenceShift(kLoads, kStack, {64, 1}, 0.5), -0.1));
    QVERIFY(near(confidenceShift(kLoads, kStack, {32, 1}, 0.5), 0.3));  // max(0.3, -0.1)
    QVERIFY(near(confidenceShift(kLoads, kStack, {128, 1}, 0.5), 0.0)); // max(0, -0.1)
    QVERIFY(near(confidenceShift(kLoads, kStack, {4, 1}, 0.5), 0.3));   // max(0, 0.3)
}

void TestFmcConfidence::anUnknownSpreadGivesNoShift()
{
    const FmcSpread none{2, 1, 0.5}; // dof 1: no interval
    QVERIFY(!confidenceShift(kLoads, none, {4, 1}, 0.9));
    QVERIFY(!confidenceShift({}, none, {8, 1}, 0.9));
    // Bracketed by two fitted loads it needs no stack spread.
    QVERIFY(near(confidenceShift(kLoads, none, {32, 1}, 0.9), kAt8));
}

void TestFmcConfidence::gateLinesTakeTheLargestDegree()
{
    FmcEntry e;
    e.stack = "h100_sxm/trtllm";
    e.ttft = {1.0, 0.2};
    e.tpot = {0.9, -0.1};
    e.ttftInfo.spread = kStack;
    e.ttftInfo.loads = kLoads;
    e.tpotInfo.spread = kStack;
    // One GPU at c32: TTFT at c8's shift, TPOT (no loads) at the stack's.
    auto l = confidenceLines(e, 32, 1, 0.9);
    QVERIFY(l);
    QCOMPARE(l->ttft.gamma, 1.0);
    QVERIFY(std::abs(l->ttft.delta - (0.2 + kAt8)) < 1e-3);
    QCOMPARE(l->tpot.gamma, 0.9);
    QVERIFY(std::abs(l->tpot.delta - (-0.1 + kAtStack)) < 1e-3);
    // Two GPUs: tp 2 at c32 is outside its fitted c16, so the stack's, the larger.
    l = confidenceLines(e, 32, 2, 0.9);
    QVERIFY(l && std::abs(l->ttft.delta - (0.2 + kAtStack)) < 1e-3);
    // Two GPUs at c16: tp 1 between c8 and c64 (c8's 0.46795), tp 2 fitted (0.21795).
    l = confidenceLines(e, 16, 2, 0.9);
    QVERIFY(l && std::abs(l->ttft.delta - (0.2 + kAt8)) < 1e-3);
    // The median: the file's lines.
    l = confidenceLines(e, 32, 1, 0.5);
    QVERIFY(l && l->ttft.delta == 0.2 && l->tpot.delta == -0.1);
    // A metric without a spread: no lines.
    e.tpotInfo.spread = {};
    QVERIFY(!confidenceLines(e, 32, 1, 0.9));
}

ACSEL_TEST_APPLESS_MAIN(TestFmcConfidence)
#include "test_fmcconfidence.moc"
