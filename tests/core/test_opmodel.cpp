// The operator model: a prefill estimate equals the hand-summed operator lookups; per-band
// formats and scopes; band-boundary conversions; equal bands give the uniform estimate
// exactly; the decode schedule; and the fast path equals the naive per-layer baseline.
#include "core/data/tablesdir.h"
#include "core/latency/naiveestimate.h"
#include "core/latency/opmodel.h"
#include "core/latency/tableopcosts.h"
#include "latencyfixtures.h"
#include "modelfixtures.h"
#include "nearly.h"
#include "testmain.h"

#include <QFileInfo>
#include <cmath>
#include <memory>
#include <stdexcept>

using namespace acsel;
using acsel::test::configOf;
using acsel::test::llama31_8b;
using acsel::test::tinyArch;

namespace
{

// Closed-form operator costs, so expected values can be written down independently.
class OpModelCosts final : public test::FakeCostsBase
{
public:
    bool supports(Format f) const override
    {
        return f == Format::Bf16 || f == Format::Fp8 || f == Format::Fp8Block;
    }
    static double factor(Format f)
    {
        return f == Format::Bf16 ? 1.0 : f == Format::Fp8 ? 0.5 : 0.6;
    }
    double gemmMs(Format f, double m, double n, double k) const override
    {
        return factor(f) * (1e-9 * m * n * k + 1e-3);
    }
    double contextAttentionMs(double b, double isl, int heads, int, int, KvFormat kv) const override
    {
        return (kv == KvFormat::Fp8 ? 0.9 : 1.0) * 1e-6 * b * isl * isl * heads;
    }
    double generationAttentionMs(double b, double kvLen, int, int, int, KvFormat kv) const override
    {
        return (kv == KvFormat::Fp8 ? 0.5 : 1.0) * 1e-5 * b * kvLen;
    }
};

// One layer's GEMMs, written out by hand with the formats of its attention and MLP linears.
double layerGemms(const OpCosts& c, const ModelArch& a, double T, Format fa, Format fm)
{
    const double h = a.hidden;
    return c.gemmMs(fa, T, (a.heads + 2 * a.kvHeads) * a.headDim, h) +
           c.gemmMs(fa, T, h, a.heads * a.headDim) + c.gemmMs(fm, T, 2.0 * a.intermediate, h) +
           c.gemmMs(fm, T, h, a.intermediate);
}

double layerMemOps(const OpCosts& c, const ModelArch& a, double T)
{
    return 2 * c.memoryOpMs(8.0 * a.hidden * T) + c.memoryOpMs(6.0 * a.intermediate * T);
}

std::unique_ptr<TableOpCosts> realCosts(const std::string& id)
{
    const std::string aic = ACSEL_SHARED_DIR "/aic";
    if (!QFileInfo::exists(QString::fromStdString(aic)))
        return nullptr;
    for (const DiscoveredStack& d : discoverStacks(aic))
        if (d.stack.id == id)
            return std::make_unique<TableOpCosts>(TableOpCosts::load(d.stack, d.platform));
    return nullptr;
}

} // namespace

class TestOpModel : public QObject
{
    Q_OBJECT
private slots:
    void prefillEqualsHandSummedLookups();
    void bandsAndScopesUseTheirFormats();
    void conversionsOnlyWhereActivationFormatChanges();
    void equalBandsGiveTheUniformEstimateExactly();
    void fracMixPlusConversionsIsTheBandEstimate();
    void decodeScheduleAsAic();
    void longOutputsWidenTheStride();
    void fastPathEqualsNaiveBaseline();
    void rejectsWhatItCannotCost();
};

void TestOpModel::prefillEqualsHandSummedLookups()
{
    const auto c = realCosts("h100_sxm/trtllm");
    if (!c)
        QSKIP("../shared/aic not present");
    const ModelArch a = llama31_8b();
    const Config cfg = configOf(BandRecipe::uniform(a.layers, Format::Bf16), 2);
    Request q;
    q.isl = 512;
    q.osl = 64;
    const double T = 2.0 * 512;
    const double h = a.hidden;
    double expected = 0;
    for (int layer = 0; layer < a.layers; ++layer)
        expected += layerGemms(*c, a, T, Format::Bf16, Format::Bf16) +
                    c->contextAttentionMs(2, 512, 32, 8, 128, KvFormat::Bf16) +
                    layerMemOps(*c, a, T);
    expected += c->memoryOpMs(T * h * 2) + c->gemmMs(Format::Bf16, 2, a.vocab, h);
    const LatencyEstimate e = estimateLatency(*c, a, cfg, q);
    QVERIFY2(nearRelative(e.ttftMs, expected),
             (std::to_string(e.ttftMs) + " vs " + std::to_string(expected)).c_str());
    // The breakdown accounts for the whole step.
    const StepBreakdown& b = e.prefill;
    QVERIFY(
        nearRelative(b.gemm() + b.attention + b.memoryOps + b.lmHead + b.embedding + b.conversion,
                     e.ttftMs, 1e-9));
    QCOMPARE(b.conversion, 0.0);
}

void TestOpModel::bandsAndScopesUseTheirFormats()
{
    const OpModelCosts c;
    const ModelArch a = tinyArch(6);
    // Layers 0-1 fp8 full, 2-3 bf16, 4-5 fp8_block on the MLP only.
    const BandRecipe r = BandRecipe::fromCuts(
        6, {2, 4},
        {{Format::Fp8, Scope::Full}, {Format::Bf16, Scope::Full}, {Format::Fp8Block, Scope::Mlp}});
    Config cfg = configOf(r, 3);
    cfg.kv = KvFormat::Fp8;
    cfg.lmHeadQuantized = true; // lm_head at the last band's format: fp8_block
    Request q;
    q.isl = 100;
    q.osl = 1;
    const double T = 300;
    StepBreakdown b;
    const StepModel model(c, a, cfg);
    const double ttft = model.prefillStepMs(3, 100, &b);
    QVERIFY(nearRelative(b.gemmByBand[0], 2 * layerGemms(c, a, T, Format::Fp8, Format::Fp8)));
    QVERIFY(nearRelative(b.gemmByBand[1], 2 * layerGemms(c, a, T, Format::Bf16, Format::Bf16)));
    QVERIFY(nearRelative(b.gemmByBand[2], 2 * layerGemms(c, a, T, Format::Bf16, Format::Fp8Block)));
    QVERIFY(nearRelative(b.attention, 6 * 0.9 * 1e-6 * 3 * 100 * 100 * 4));
    QVERIFY(nearRelative(b.lmHead, 0.6 * (1e-9 * 3 * 1000 * 256 + 1e-3)));
    // Two boundaries, both change the activation format: fp8 -> bf16, and bf16 -> fp8 (the
    // fp8_block band's GEMMs consume fp8 activations).
    QVERIFY(nearRelative(b.conversion, 2 * c.memoryOpMs(T * 256 * 2)));
    const double expected = b.gemmByBand[0] + b.gemmByBand[1] + b.gemmByBand[2] +
                            6 * layerMemOps(c, a, T) + b.attention + c.memoryOpMs(T * 256 * 2) +
                            b.lmHead + b.conversion;
    QVERIFY(nearRelative(ttft, expected, 1e-12));
    const LatencyEstimate e = estimateLatency(c, a, cfg, q);
    QVERIFY(e.ttftMs == ttft);
    QCOMPARE(e.tpotMs, 0.0); // osl 1: no token after the first
    QCOMPARE(e.decodeSamples, 0);
}

void TestOpModel::conversionsOnlyWhereActivationFormatChanges()
{
    const OpModelCosts c;
    const ModelArch a = tinyArch(6);
    StepBreakdown b;
    const BandRecipe sameActivations =
        BandRecipe::fromCuts(6, {3}, {{Format::Fp8, Scope::Full}, {Format::Fp8Block, Scope::Full}});
    StepModel(c, a, configOf(sameActivations, 2)).prefillStepMs(2, 10, &b);
    QCOMPARE(b.conversion, 0.0);
    const BandRecipe change =
        BandRecipe::fromCuts(6, {3}, {{Format::Bf16, Scope::Full}, {Format::Fp8, Scope::Attn}});
    StepModel(c, a, configOf(change, 2)).decodeStepMs(2, 50, &b);
    QVERIFY(nearRelative(b.conversion, c.memoryOpMs(2 * 256 * 2)));
}

void TestOpModel::equalBandsGiveTheUniformEstimateExactly()
{
    const OpModelCosts fake;
    const auto real = realCosts("h100_sxm/trtllm");
    std::vector<const OpCosts*> costs{&fake};
    if (real)
        costs.push_back(real.get());
    for (const OpCosts* c : costs) {
        const ModelArch a = c == &fake ? tinyArch(6) : llama31_8b();
        const int L = a.layers;
        for (Format f : {Format::Bf16, Format::Fp8}) {
            const BandRecipe split = BandRecipe::fromCuts(
                L, {1, L - 2}, {{f, Scope::Full}, {f, Scope::Full}, {f, Scope::Full}});
            Request q;
            q.isl = 777;
            q.osl = 300;
            const LatencyEstimate u =
                estimateLatency(*c, a, configOf(BandRecipe::uniform(L, f), 4), q);
            const LatencyEstimate s = estimateLatency(*c, a, configOf(split, 4), q);
            QVERIFY(u.ttftMs == s.ttftMs);
            QVERIFY(u.tpotMs == s.tpotMs);
        }
    }
}

// The search relies on it (core/search/engine.h): with a bf16 lm_head the band estimate is
// the layer-fraction mix of uniform estimates plus the non-negative boundary conversions.
void TestOpModel::fracMixPlusConversionsIsTheBandEstimate()
{
    const auto c = realCosts("h100_sxm/trtllm");
    if (!c)
        QSKIP("../shared/aic not present");
    const ModelArch a = llama31_8b();
    const BandRecipe r = BandRecipe::fromCuts(
        32, {7, 19},
        {{Format::Fp8, Scope::Full}, {Format::Bf16, Scope::Full}, {Format::Fp8Block, Scope::Mlp}});
    Request q;
    q.isl = 2000;
    q.osl = 300;
    const LatencyEstimate band = estimateLatency(*c, a, configOf(r, 4), q);
    double ttft = 0, tpot = 0;
    for (const Band& b : r) {
        const BandRecipe u = BandRecipe::fromCuts(32, {}, {{b.format, b.scope}});
        const LatencyEstimate e = estimateLatency(*c, a, configOf(u, 4), q);
        ttft += b.layers() / 32.0 * e.ttftMs;
        tpot += b.layers() / 32.0 * e.tpotMs;
    }
    QVERIFY(band.prefill.conversion > 0 && band.decode.conversion > 0);
    QVERIFY(nearRelative(band.ttftMs, ttft + band.prefill.conversion, 1e-12));
    QVERIFY(nearRelative(band.tpotMs, tpot + band.decode.conversion, 1e-12));
}

void TestOpModel::decodeScheduleAsAic()
{
    const OpModelCosts c;
    const ModelArch a = tinyArch(6);
    const Config cfg = configOf(BandRecipe::uniform(6, Format::Bf16), 4);
    Request q;
    q.isl = 1000;
    q.osl = 100;
    // 99 steps after the first token: contexts 1001, 1033, 1065, 1097 weighted 32, 32, 32, 3.
    const double attention =
        6 * 1e-5 * 4 * (32.0 * 1001 + 32.0 * 1033 + 32.0 * 1065 + 3.0 * 1097) / 99.0;
    const double fixed =
        6 * (layerGemms(c, a, 4, Format::Bf16, Format::Bf16) + layerMemOps(c, a, 4)) +
        c.memoryOpMs(4 * 256 * 2) + c.gemmMs(Format::Bf16, 4, 1000, 256);
    const LatencyEstimate e = estimateLatency(c, a, cfg, q);
    QCOMPARE(e.decodeSamples, 4);
    QVERIFY(nearRelative(e.tpotMs, fixed + attention, 1e-12));
    QVERIFY(nearRelative(e.decode.attention, attention, 1e-12));
}

void TestOpModel::longOutputsWidenTheStride()
{
    QCOMPARE(decodeStride(2), 32);
    QCOMPARE(decodeStride(513), 32);   // 512 steps = 16 strides of 32
    QCOMPARE(decodeStride(514), 33);   // 513 steps: ceil(513 / 16)
    QCOMPARE(decodeStride(8193), 512); // 8192 steps: 16 samples
    const OpModelCosts c;
    Request q;
    q.isl = 10;
    q.osl = 8193;
    const LatencyEstimate e =
        estimateLatency(c, tinyArch(6), configOf(BandRecipe::uniform(6, Format::Bf16), 2), q);
    QCOMPARE(e.decodeSamples, 16);
}

void TestOpModel::fastPathEqualsNaiveBaseline()
{
    const auto c = realCosts("h100_sxm/trtllm");
    if (!c)
        QSKIP("../shared/aic not present");
    ModelArch a = llama31_8b();
    std::vector<Config> configs;
    configs.push_back(configOf(BandRecipe::uniform(32, Format::Fp8), 8));
    configs.push_back(configOf(BandRecipe::fromCuts(32, {5, 20},
                                                    {{Format::Fp8, Scope::Mlp},
                                                     {Format::Bf16, Scope::Full},
                                                     {Format::Fp8Block, Scope::Attn}}),
                               3));
    configs.back().kv = KvFormat::Fp8;
    configs.back().lmHeadQuantized = true;
    configs.push_back(configs.back()); // over two GPUs: one GPU's share and its all-reduces
    configs.back().tp = 2;
    // Then as a mixture of experts on alternate layers (8 experts of 7168 columns, 2 per
    // token, a shared expert), the experts split by expert parallelism over the two GPUs.
    for (const bool moe : {false, true}) {
        if (moe) {
            a.family = "qwen2_moe";
            a.moe = {.experts = 8,
                     .topk = 2,
                     .expertIntermediate = 7168,
                     .sharedIntermediate = 2048,
                     .sparseStep = 2,
                     .mlpOnlyLayers = {}};
            configs.back().moeEp = 2;
        }
        for (const Config& cfg : configs)
            for (int osl : {1, 2, 100, 2000}) {
                Request q;
                q.isl = 3000;
                q.osl = osl;
                const LatencyEstimate fast = estimateLatency(*c, a, cfg, q);
                const LatencyEstimate naive = estimateLatencyNaive(*c, a, cfg, q);
                QVERIFY(nearRelative(fast.ttftMs, naive.ttftMs, 1e-12));
                QVERIFY(osl == 1 ? fast.tpotMs == 0 && naive.tpotMs == 0
                                 : nearRelative(fast.tpotMs, naive.tpotMs, 1e-12));
                QCOMPARE(fast.decodeSamples, naive.decodeSamples);
            }
    }
}

void TestOpModel::rejectsWhatItCannotCost()
{
    const OpModelCosts c;
    const ModelArch a = tinyArch(6);
    Request q;
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        estimateLatency(c, a, configOf(BandRecipe::uniform(6, Format::Nvfp4), 2), q));
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        estimateLatency(c, a, configOf(BandRecipe::uniform(5, Format::Bf16), 2), q));
    q.isl = 0;
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        estimateLatency(c, a, configOf(BandRecipe::uniform(6, Format::Bf16), 2), q));
}

ACSEL_TEST_APPLESS_MAIN(TestOpModel)
#include "test_opmodel.moc"
