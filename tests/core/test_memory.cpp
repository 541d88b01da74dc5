// The memory model against hand-computed byte counts (docs/METHOD.md 3, LATENCY.md "Memory").
#include "core/latency/memorymodel.h"
#include "modelfixtures.h"
#include "testmain.h"

#include <cmath>

using namespace acsel;
using acsel::test::configOf;
using acsel::test::llama31_8b;

namespace
{

ModelArch qwen06b()
{
    ModelArch a;
    a.name = "Qwen3-0.6B";
    a.layers = 28;
    a.hidden = 1024;
    a.heads = 16;
    a.kvHeads = 8;
    a.headDim = 128;
    a.intermediate = 3072;
    a.vocab = 151936;
    a.tiedEmbeddings = true;
    a.qkNorm = true;
    return a;
}

Platform testGpu()
{
    Platform p;
    p.memCapacityBytes = 80e9;
    p.otherMemBytes = 3.5 * kGiB;
    return p;
}

Request req(int isl, int osl)
{
    Request q;
    q.isl = isl;
    q.osl = osl;
    return q;
}

} // namespace

class TestMemory : public QObject
{
    Q_OBJECT
private slots:
    void llama8bBf16WeightsAre16GB();
    void quantizedWeightsAtEffectiveBits();
    void tiedEmbeddingsCountedOnce();
    void kvCacheAndActivations();
    void fitsAgainstBudgetAndCapacity();
};

void TestMemory::llama8bBf16WeightsAre16GB()
{
    const ModelArch a = llama31_8b();
    const MemoryEstimate m = estimateMemory(a, configOf(BandRecipe::uniform(32, Format::Bf16), 1),
                                            req(128, 128), testGpu());
    const double weights = m.weightBytes + m.embeddingBytes + m.lmHeadBytes;
    QVERIFY2(std::abs(weights - 16.06e9) < 0.01 * 16.06e9, std::to_string(weights).c_str());
    // Exactly 2 bytes per parameter of the HF model (8,030,261,248 parameters).
    QCOMPARE(weights, 2.0 * 8030261248.0);
    QCOMPARE(weights, 2.0 * static_cast<double>(a.paramCount()));
}

void TestMemory::quantizedWeightsAtEffectiveBits()
{
    const ModelArch a = llama31_8b();
    const double attn = 4096.0 * (32 + 16) * 128 + 32.0 * 128 * 4096; // q, k, v, o
    const double mlp = 3.0 * 4096 * 14336;
    const double norms = 2.0 * 4096;
    // fp8 full: 1 byte per linear weight.
    MemoryEstimate m =
        estimateMemory(a, configOf(BandRecipe::uniform(32, Format::Fp8), 1), req(1, 1), testGpu());
    QCOMPARE(m.weightBytes, 32 * (attn + mlp + 2 * norms) + 2 * 4096.0);
    QCOMPARE(m.lmHeadBytes, 2.0 * 128256 * 4096); // not quantized: bf16
    // Bands: 0-15 nvfp4 on the MLP only (4.5 bits), 16-31 int4_wo full (4.25 bits).
    const BandRecipe r = BandRecipe::fromCuts(
        32, {16}, {{Format::Nvfp4, Scope::Mlp}, {Format::Int4Wo, Scope::Full}});
    Config c = configOf(r, 1);
    c.lmHeadQuantized = true; // at the last band's format
    m = estimateMemory(a, c, req(1, 1), testGpu());
    const double expected = 16 * (2 * attn + mlp * 4.5 / 8 + 2 * norms) +
                            16 * ((attn + mlp) * 4.25 / 8 + 2 * norms) + 2 * 4096.0;
    QVERIFY(std::abs(m.weightBytes - expected) < 1e-6 * expected);
    QCOMPARE(m.lmHeadBytes, 128256.0 * 4096 * 4.25 / 8);
}

void TestMemory::tiedEmbeddingsCountedOnce()
{
    const ModelArch a = qwen06b();
    Config c = configOf(BandRecipe::uniform(28, Format::Bf16), 1);
    MemoryEstimate m = estimateMemory(a, c, req(1, 1), testGpu());
    QCOMPARE(m.embeddingBytes, 2.0 * 151936 * 1024);
    QCOMPARE(m.lmHeadBytes, 0.0);
    QCOMPARE(m.weightBytes + m.embeddingBytes, 2.0 * static_cast<double>(a.paramCount()));
    // A quantized lm_head of a tied model is a separate quantized copy.
    c.recipe = BandRecipe::uniform(28, Format::Fp8);
    c.lmHeadQuantized = true;
    m = estimateMemory(a, c, req(1, 1), testGpu());
    QCOMPARE(m.lmHeadBytes, 151936.0 * 1024);
}

void TestMemory::kvCacheAndActivations()
{
    const ModelArch a = llama31_8b();
    Config c = configOf(BandRecipe::uniform(32, Format::Bf16), 4);
    // 4 x (1000 + 24) tokens x 32 layers x 2 (K, V) x 8 heads x 128 x 2 bytes = 512 MiB.
    MemoryEstimate m = estimateMemory(a, c, req(1000, 24), testGpu());
    QCOMPARE(m.kvCacheBytes, 512.0 * 1024 * 1024);
    QCOMPARE(m.activationBytes, 2.0 * 4000 * 32 * 128 * 11); // 360 MB, above the 70 MiB floor
    m = estimateMemory(a, c, req(10, 24), testGpu());
    QCOMPARE(m.activationBytes, 70.0 * 1024 * 1024); // 2 x 40 x 32 x 128 x 11 = 3.6 MB: the floor
    c.kv = KvFormat::Fp8;
    m = estimateMemory(a, c, req(1000, 24), testGpu());
    QCOMPARE(m.kvCacheBytes, 256.0 * 1024 * 1024);
    c.batch = 8;
    m = estimateMemory(a, c, req(8192, 1), testGpu());
    QCOMPARE(m.activationBytes, 2.0 * 8 * 8192 * 32 * 128 * 11);
    QCOMPARE(m.runtimeBytes, 3.5 * kGiB);
    QCOMPARE(m.total(), m.weightBytes + m.embeddingBytes + m.lmHeadBytes + m.kvCacheBytes +
                            m.activationBytes + m.runtimeBytes);
}

void TestMemory::fitsAgainstBudgetAndCapacity()
{
    const ModelArch a = llama31_8b();
    const MemoryEstimate m = estimateMemory(a, configOf(BandRecipe::uniform(32, Format::Bf16), 1),
                                            req(128, 128), testGpu());
    // About 16.06 GB weights + 3.5 GiB overhead + 70 MiB: fits 24 GiB, not 18 GiB.
    QVERIFY(m.fits(24 * kGiB));
    QVERIFY(!m.fits(18 * kGiB));
    QVERIFY(m.fits(1e15)); // budget above the device: capacity decides
    MemoryEstimate small = m;
    small.capacityBytes = 16e9; // a device smaller than the model
    QVERIFY(!small.fits(1e15));
}

ACSEL_TEST_APPLESS_MAIN(TestMemory)
#include "test_memory.moc"
