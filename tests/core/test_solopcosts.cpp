// Speed-of-light operator costs against hand-computed roofline formulas (docs/GPUS.md).
#include "core/data/platformsfile.h"
#include "core/latency/solopcosts.h"
#include "nearly.h"
#include "testmain.h"

#include <cmath>

using namespace acsel;

namespace
{

// RTX A6000 as in its data sheet: 154.8 TFLOPS bf16, 309.7 TOPS int8, 768 GB/s.
Platform a6000()
{
    Platform p;
    p.id = "a6000";
    p.memBandwidth = 768e9;
    p.memBwScaling = 0.8;
    p.memConstantLatencyS = 3e-6;
    p.tensorFlops = {154.8e12, 309.7e12, 0, 0};
    return p;
}

// Jetson AGX Thor, dense: bf16 258.75, fp8 517.5, fp4 1035 TFLOPS; 273 GB/s.
Platform thor()
{
    Platform p;
    p.id = "thor";
    p.memBandwidth = 273e9;
    p.tensorFlops = {258.75e12, 0, 517.5e12, 1035e12};
    return p;
}

} // namespace

class TestSolOpCosts : public QObject
{
    Q_OBJECT
private slots:
    void gemmComputeBoundIsFlopsOverPeakPlusConstant();
    void gemmMemoryBoundCountsWeightAndActivationBytes();
    void gemmNvfp4OnThor();
    void unsupportedFormatIsNaN();
    void attentionHandFormulas();
    void memoryOpIsAicFormula();
    void specFileFeedsTheModel();
};

void TestSolOpCosts::gemmComputeBoundIsFlopsOverPeakPlusConstant()
{
    const SolOpCosts sol(a6000(), {Format::Bf16}, 0.005);
    // 2 * 4096^3 = 137438953472 flops / 154.8e12 = 0.887848536 ms; bytes 3 * 4096^2 * 2 =
    // 100663296 / 768e9 = 0.131 ms is less: compute bound.
    QVERIFY(nearScaled(sol.gemmMs(Format::Bf16, 4096, 4096, 4096),
                       137438953472.0 / 154.8e12 * 1e3 + 0.005, 1e-9));
    QVERIFY(nearScaled(sol.gemmMs(Format::Bf16, 4096, 4096, 4096), 0.892848536, 1e-9));
}

void TestSolOpCosts::gemmMemoryBoundCountsWeightAndActivationBytes()
{
    const SolOpCosts sol(a6000(), {Format::Int4Wo, Format::Int8}, 0.005);
    // int4_wo, m = 1, n = k = 4096: weights 4096^2 * 0.5 = 8388608 B, activations in 4096 * 2
    // and out 4096 * 2 (bf16) = 16384 B; 8404992 B / 768e9 B/s = 0.010944 ms.
    QVERIFY(nearScaled(sol.gemmMs(Format::Int4Wo, 1, 4096, 4096), 8404992.0 / 768e9 * 1e3 + 0.005,
                       1e-9));
    // int8 (W8A8): activations in at 1 byte: 4096^2 + 4096 + 2 * 4096 = 16789504 B.
    QVERIFY(nearScaled(sol.gemmMs(Format::Int8, 1, 4096, 4096), 16789504.0 / 768e9 * 1e3 + 0.005,
                       1e-9));
    // Without the constant.
    QVERIFY(nearScaled(solGemmRoofMs(a6000(), Format::Int4Wo, 1, 4096, 4096), 0.010944, 1e-9));
}

void TestSolOpCosts::gemmNvfp4OnThor()
{
    const SolOpCosts sol(thor(), {Format::Nvfp4, Format::Fp8, Format::Bf16}, 0.0);
    // 2 * 8192^3 = 1099511627776 flops / 1035e12 = 1.062330 ms; bytes 8192^2 * (9/16 + 9/16 + 2)
    // = 209715200 / 273e9 = 0.768 ms: compute bound.
    QVERIFY(nearScaled(sol.gemmMs(Format::Nvfp4, 8192, 8192, 8192), 1099511627776.0 / 1035e12 * 1e3,
                       1e-9));
    // m = 16: memory bound, 8192^2 * 9/16 + 16 * 8192 * (9/16 + 2) = 38084608 B.
    QVERIFY(nearScaled(sol.gemmMs(Format::Nvfp4, 16, 8192, 8192), 38084608.0 / 273e9 * 1e3, 1e-9));
    // fp8 runs at the fp8 peak, bf16 at the bf16 peak.
    QVERIFY(nearScaled(sol.gemmMs(Format::Fp8, 8192, 8192, 8192), 1099511627776.0 / 517.5e12 * 1e3,
                       1e-9));
    QVERIFY(nearScaled(sol.gemmMs(Format::Bf16, 8192, 8192, 8192),
                       1099511627776.0 / 258.75e12 * 1e3, 1e-9));
}

void TestSolOpCosts::unsupportedFormatIsNaN()
{
    const SolOpCosts sol(a6000(), {Format::Bf16, Format::Fp8}, 0.005);
    QVERIFY(sol.supports(Format::Bf16));
    QVERIFY(!sol.supports(Format::Fp8)); // listed, but the A6000 has no fp8 tensor cores
    QVERIFY(!sol.supports(Format::Int8));
    QVERIFY(std::isnan(sol.gemmMs(Format::Fp8, 16, 1024, 1024)));
}

void TestSolOpCosts::attentionHandFormulas()
{
    const SolOpCosts sol(a6000(), {Format::Bf16}, 0.0);
    // Context, b 1, isl 4096, 32 heads, 8 KV heads, d 128: flops 2 * 32 * 4096^2 * 128 =
    // 137438953472 / 154.8e12; bytes 2 * 4096 * 32 * 128 * 2 + 2 * 4096 * 8 * 128 * 2 =
    // 83886080 B / 768e9 = 0.109 ms is less.
    QVERIFY(nearScaled(sol.contextAttentionMs(1, 4096, 32, 8, 128, KvFormat::Bf16),
                       137438953472.0 / 154.8e12 * 1e3, 1e-9));
    // Generation, b 64, KV 4096, 32 heads, 8 KV heads, fp8 KV: bytes 2 * 64 * 4096 * 8 * 128 * 1
    // + 2 * 64 * 32 * 128 * 2 = 536870912 + 1048576 = 537919488 B; flops 4 * 64 * 32 * 4096 *
    // 128 = 4294967296 (0.028 ms) is less.
    QVERIFY(nearScaled(sol.generationAttentionMs(64, 4096, 32, 8, 128, KvFormat::Fp8),
                       537919488.0 / 768e9 * 1e3, 1e-9));
    // bf16 KV doubles the cache bytes.
    QVERIFY(nearScaled(sol.generationAttentionMs(64, 4096, 32, 8, 128, KvFormat::Bf16),
                       (2.0 * 536870912.0 + 1048576.0) / 768e9 * 1e3, 1e-9));
}

void TestSolOpCosts::memoryOpIsAicFormula()
{
    const SolOpCosts sol(a6000(), {Format::Bf16}, 0.005);
    // 1 MB / (768e9 * 0.8) + 3 us.
    QVERIFY(nearScaled(sol.memoryOpMs(1e6), (1e6 / (768e9 * 0.8) + 3e-6) * 1e3, 1e-9));
}

void TestSolOpCosts::specFileFeedsTheModel()
{
    const PlatformsFile f = loadPlatformsFile(ACSEL_DATASETS "/platforms.json");
    const PlatformSpec* s = f.find("rtx_a6000");
    QVERIFY(s);
    const SolOpCosts sol(s->platform, s->nativeFormats);
    QCOMPARE(sol.constantMs(), kDefaultSolConstantMs);
    QVERIFY(nearScaled(sol.gemmMs(Format::Bf16, 4096, 4096, 4096), 0.892848536, 1e-9));
}

ACSEL_TEST_APPLESS_MAIN(TestSolOpCosts)
#include "test_solopcosts.moc"
