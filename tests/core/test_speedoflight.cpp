// The speed-of-light floor (core/latency/speedoflight.h): below every latency the cost models
// give, homogeneous in the GPU's speed, and what belowSpeedOfLight refuses.
#include "core/latency/servingmodel.h"
#include "core/latency/solopcosts.h"
#include "core/latency/speedoflight.h"
#include "modelfixtures.h"
#include "testmain.h"

#include <cmath>
#include <limits>

using namespace acsel;
using namespace acsel::test;

namespace
{

Platform gpu(double scale)
{
    Platform p;
    p.id = "gpu";
    p.memBandwidth = 2e12 * scale;
    p.memBwScaling = 0.8;
    p.memConstantLatencyS = 3e-6;
    p.memCapacityBytes = 80e9;
    p.tensorFlops = {1e15 * scale, 2e15 * scale, 2e15 * scale, 0};
    return p;
}

const std::vector<Format> kSolFormats = {Format::Bf16, Format::Fp8};

Config solConfig()
{
    BandRecipe r;
    r.push({0, 4, Format::Fp8, Scope::Full});
    r.push({4, 8, Format::Bf16, Scope::Full});
    return configOf(r, 4);
}

Request request(ServingMode mode)
{
    Request q;
    q.isl = 512;
    q.osl = 64;
    q.concurrency = 4;
    q.mode = mode;
    return q;
}

} // namespace

class TestSpeedOfLight : public QObject
{
    Q_OBJECT
private slots:
    void floorIsBelowTheSpecModel();
    void floorScalesWithTheGpu();
    void belowTheFloorIsRefused();
};

void TestSpeedOfLight::floorIsBelowTheSpecModel()
{
    for (const ServingMode mode : {ServingMode::Static, ServingMode::Continuous}) {
        const LatencyEstimate floor =
            speedOfLightFloor(gpu(1), kSolFormats, tinyArch(8), solConfig(), request(mode));
        const LatencyEstimate sol = estimateServingLatency(SolOpCosts(gpu(1), kSolFormats),
                                                           tinyArch(8), solConfig(), request(mode));
        QVERIFY(floor.ttftMs > 0 && std::isfinite(floor.ttftMs));
        QVERIFY(floor.tpotMs > 0 && std::isfinite(floor.tpotMs));
        // The spec model adds a 5 us constant per call and scales memory ops by 0.8.
        QVERIFY(floor.ttftMs < sol.ttftMs);
        QVERIFY(floor.tpotMs < sol.tpotMs);
        QCOMPARE(belowSpeedOfLight(sol.ttftMs, sol.tpotMs, floor), std::string());
    }
}

void TestSpeedOfLight::floorScalesWithTheGpu()
{
    // Every roofline term is max(flops / peak, bytes / bandwidth): a GPU twice as fast in both
    // halves each operator, so the static floor (a sum of operators) halves exactly.
    const Request q = request(ServingMode::Static);
    const LatencyEstimate one = speedOfLightFloor(gpu(1), kSolFormats, tinyArch(8), solConfig(), q);
    const LatencyEstimate two = speedOfLightFloor(gpu(2), kSolFormats, tinyArch(8), solConfig(), q);
    QVERIFY(std::abs(two.ttftMs * 2 - one.ttftMs) <= 1e-12 * one.ttftMs);
    QVERIFY(std::abs(two.tpotMs * 2 - one.tpotMs) <= 1e-12 * one.tpotMs);
}

void TestSpeedOfLight::belowTheFloorIsRefused()
{
    LatencyEstimate floor;
    floor.ttftMs = 2.0;
    floor.tpotMs = 0.5;
    QCOMPARE(belowSpeedOfLight(2.0, 0.5, floor), std::string());
    QCOMPARE(belowSpeedOfLight(1.0, 0.5, floor),
             std::string("TTFT 1 ms is below the GPU's speed of light (2 ms)"));
    QCOMPARE(belowSpeedOfLight(2.0, 0.25, floor),
             std::string("TPOT 0.25 ms is below the GPU's speed of light (0.5 ms)"));
    QCOMPARE(belowSpeedOfLight(0.0, 0.5, floor),
             std::string("TTFT 0 ms is not a finite positive time"));
    QCOMPARE(belowSpeedOfLight(std::numeric_limits<double>::infinity(), 0.5, floor),
             std::string("TTFT inf ms is not a finite positive time"));
    QCOMPARE(belowSpeedOfLight(3.0, std::nan(""), floor),
             std::string("TPOT nan ms is not a finite positive time"));
    floor.tpotMs = 0; // osl 1: no token after the first
    QCOMPARE(belowSpeedOfLight(3.0, 0.0, floor), std::string());
}

ACSEL_TEST_APPLESS_MAIN(TestSpeedOfLight)
#include "test_speedoflight.moc"
