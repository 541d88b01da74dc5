// The engine's scope-aware features: codes and features by hand, and on the default workspace
// the monotonicity property: no move to fewer bits lowers the engine's prediction (a brute-force
// check beside the exact one), and attn / mlp / full predictions of one format differ.
#include "bundled.h"
#include "core/data/workspacefile.h"
#include "core/model/configspace.h"
#include "core/quality/qualityreport.h"
#include "core/quality/rng.h"
#include "core/quality/scopecodes.h"
#include "testmain.h"

#include <cmath>

using namespace acsel;

namespace
{

ModelArch smallModel()
{
    ModelArch m;
    m.name = "tiny";
    m.layers = 6;
    m.hidden = 64;
    m.heads = 4;
    m.kvHeads = 2;
    m.headDim = 16;
    m.intermediate = 128;
    m.vocab = 1000;
    return m;
}

} // namespace

class TestQualityScopeAware : public QObject
{
    Q_OBJECT
private slots:
    void codesByHand();
    void featuresByHand();
    void engineNeverLowersOnFewerBits();
    void engineSeparatesScopes();
    void quantizingAnyTensorCostsQuality();
    void moeExpertsShareAndWiderScopes();
};

void TestQualityScopeAware::codesByHand()
{
    // e = -1/2 log2(4^-b_w + 4^-b_a): nvfp4 4.5 + 4.5 bits -> 4.5 - 1/2; weight-only: b_w.
    QCOMPARE(qualityEffectiveBits(Format::Nvfp4), 4.0);
    QCOMPARE(qualityEffectiveBits(Format::Int4Wo), 4.25);
    QCOMPARE(qualityEffectiveBits(Format::Int8Wo), 8.0);
    QCOMPARE(qualityEffectiveBits(Format::Int8), 7.5);
    QCOMPARE(qualityEffectiveBits(Format::Fp8), 7.5);
    QCOMPARE(qualityEffectiveBits(Format::Bf16), 16.0);
    // fp8_block: weights 8 + 32/16384 bits, activations 8 + 32/128.
    const double block = -0.5 * std::log2(std::pow(2.0, -16.00390625) + std::pow(2.0, -16.5));
    QVERIFY(std::abs(qualityEffectiveBits(Format::Fp8Block) - block) < 1e-12);
    QVERIFY(block > 7.5 && block < 8.0); // finer scales than per-tensor fp8 at equal bits
    QCOMPARE(deficitCode(Format::Nvfp4), 0.75);
    QCOMPARE(deficitCode(Format::Fp8), 8.5 / 16.0);
    QCOMPARE(noiseCode(Format::Nvfp4), 1.0);
    QCOMPARE(noiseCode(Format::Int8Wo), 1.0 / 256.0);
    QCOMPARE(noiseCode(Format::Bf16), 0.0);
    QCOMPARE(deficitCode(Format::Bf16), 0.0);
    // Oriented: a format with fewer nominal bits has both codes at least as large.
    for (Format hi : kAllFormats)
        for (Format lo : kAllFormats)
            if (facts(lo).bits < facts(hi).bits) {
                QVERIFY(deficitCode(lo) > deficitCode(hi));
                QVERIFY(noiseCode(lo) > noiseCode(hi));
            }
    // Shares: attention q 64x64, k and v 64x32 each, o 64x64 = 12288; MLP 3 x 64 x 128 = 24576.
    const ModelArch m = smallModel();
    QCOMPARE(groupShare(m, 0, TensorGroup::Attention), 1.0 / 3.0);
    QCOMPARE(groupShare(m, 0, TensorGroup::Mlp), 2.0 / 3.0);
    // An MoE layer: the experts' share. 8 experts of 3 x 64 x 32 = 49152 against 12288: 4/5.
    // Layer 1 listed in mlp_only_layers keeps its dense MLP.
    ModelArch moe = m;
    moe.moe = {.experts = 8, .topk = 2, .expertIntermediate = 32, .mlpOnlyLayers = {1}};
    QCOMPARE(groupShare(moe, 0, TensorGroup::Mlp), 4.0 / 5.0);
    QCOMPARE(groupShare(moe, 0, TensorGroup::Attention), 1.0 / 5.0);
    QCOMPARE(groupShare(moe, 1, TensorGroup::Mlp), 2.0 / 3.0);
    QVERIFY(scopeQuantizes(Scope::Full, TensorGroup::Attention));
    QVERIFY(scopeQuantizes(Scope::Full, TensorGroup::Mlp));
    QVERIFY(scopeQuantizes(Scope::Attn, TensorGroup::Attention));
    QVERIFY(!scopeQuantizes(Scope::Attn, TensorGroup::Mlp));
    QVERIFY(!scopeQuantizes(Scope::Mlp, TensorGroup::Attention));
}

void TestQualityScopeAware::featuresByHand()
{
    // 6 layers: the thirds are layer pairs, each layer weighing 1/2 in its third.
    const ModelArch m = smallModel();
    const BandRecipe r = BandRecipe::fromCuts(
        6, {2, 4},
        {{Format::Int4Wo, Scope::Mlp}, {Format::Bf16, Scope::Full}, {Format::Fp8, Scope::Attn}});
    const FeatureVector phi =
        qualityFeatures(FeatureCoding::ScopeAware, m, r, Algorithm::Awq, true, KvFormat::Bf16);
    auto at = [&](const char* name) {
        for (int k = 0; k < kFeatureCount; ++k)
            if (featureName(FeatureCoding::ScopeAware, k) == name)
                return phi[static_cast<std::size_t>(k)];
        qFatal("no feature %s", name);
    };
    QCOMPARE(at("algo_awq"), 4.0 / 6.0);
    QCOMPARE(at("lm_head_quantized"), 1.0);
    QCOMPARE(at("kv_quantized"), 0.0);
    const double int4Deficit = (16.0 - 4.25) / 16.0, int4Noise = std::pow(4.0, -0.25);
    const double fp8Deficit = 8.5 / 16.0, fp8Noise = std::pow(4.0, -3.5);
    QVERIFY(std::abs(at("mlp_deficit_early") - 2.0 / 3.0 * int4Deficit) < 1e-15);
    QVERIFY(std::abs(at("mlp_noise_early") - 2.0 / 3.0 * int4Noise) < 1e-15);
    QVERIFY(std::abs(at("attn_deficit_late") - 1.0 / 3.0 * fp8Deficit) < 1e-15);
    QVERIFY(std::abs(at("attn_noise_late") - 1.0 / 3.0 * fp8Noise) < 1e-15);
    for (const char* zero : {"attn_deficit_early", "attn_noise_early", "attn_deficit_middle",
                             "mlp_deficit_middle", "mlp_deficit_late", "mlp_noise_late"})
        QCOMPARE(at(zero), 0.0);
    // Every quantization feature is what the monotone prior bounds in the engine's fit.
    for (int k = kFirstLayerFeature; k < kFeatureCount; ++k)
        QVERIFY(isBitDeficitFeature(FeatureCoding::ScopeAware, k));
}

void TestQualityScopeAware::engineNeverLowersOnFewerBits()
{
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    const QualityReport rep = evaluateQualitySurrogates(set, ws.models);
    const RidgeSurrogate& e = rep.engine.surrogate;
    QVERIFY(e.coding() == FeatureCoding::ScopeAware);
    // The search's own fit is this one.
    QVERIFY(fitOnTrainingRows(set, ws.models, engineSurrogateOptions()).weights() == e.weights());
    // The exact check over every band interval, scope and format pair.
    QVERIFY(rep.engine.monotonicity.moves > 100000);
    QCOMPARE(rep.engine.monotonicity.drops, std::int64_t{0});
    // Brute force on whole configurations through the direct prediction (not the prefix sums):
    // random recipes, one band moved to every format with fewer bits, any algorithm and flags.
    const ConfigSpace space(2, {.formats = {kAllFormats.begin(), kAllFormats.end()}});
    const std::vector<FormatScope> choices = space.bandChoices();
    SplitMix64 rng(19);
    int moves = 0;
    for (const ModelArch& m : ws.models)
        for (int k = 0; k < 150; ++k) {
            BandRecipe r;
            const int cut = 1 + rng.below(m.layers - 1);
            for (int b = 0; b < 2; ++b) {
                const FormatScope& c =
                    choices[static_cast<std::size_t>(rng.below(static_cast<int>(choices.size())))];
                r.push({b == 0 ? 0 : cut, b == 0 ? cut : m.layers, c.format, c.scope});
            }
            const auto a = static_cast<Algorithm>(rng.below(kAlgorithmCount));
            const bool lm = rng.uniform() < 0.5;
            const KvFormat kv = rng.uniform() < 0.5 ? KvFormat::Fp8 : KvFormat::Bf16;
            const double before = e.predict(m, r, a, lm, kv);
            const int band = rng.below(2);
            for (Format to : kAllFormats) {
                if (facts(to).bits >= facts(r[band].format).bits)
                    continue;
                BandRecipe moved;
                for (int b = 0; b < r.size(); ++b)
                    moved.push(b == band ? Band{r[b].begin, r[b].end, to, r[b].scope} : r[b]);
                QVERIFY2(e.predict(m, moved, a, lm, kv) >= before * (1.0 - 1e-12),
                         (r.describe() + " -> " + moved.describe()).c_str());
                ++moves;
            }
        }
    QVERIFY(moves > 1000);
}

void TestQualityScopeAware::engineSeparatesScopes()
{
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    const QualityReport rep = evaluateQualitySurrogates(set, ws.models);
    const ScopeSeparation& s = rep.engine.scopes;
    // The six dense models the set has rows of (not the MoE models: no demo rows).
    QCOMPARE(s.spreads.size(), std::size_t{6} * (kFormatCount - 1));
    for (const ScopeSpread& p : s.spreads) {
        QVERIFY2(p.separated(), (p.model + " " + std::string(toString(p.format))).c_str());
        // Recomputed here from the surrogate, not taken from the spread.
        const ModelArch& m = *std::find_if(ws.models.begin(), ws.models.end(),
                                           [&](const ModelArch& x) { return x.name == p.model; });
        auto predict = [&](Scope scope) {
            return rep.engine.surrogate.predict(m, BandRecipe::uniform(m.layers, p.format, scope),
                                                p.algorithm, false, KvFormat::Bf16);
        };
        QCOMPARE(p.full, predict(Scope::Full));
        QVERIFY(predict(Scope::Full) > predict(Scope::Mlp));
        QVERIFY(predict(Scope::Full) > predict(Scope::Attn));
    }
    QCOMPARE(s.separated, static_cast<int>(s.spreads.size()));
    // Some weight of each tensor group is non-zero: the scopes separate through the data.
    double attn = 0.0, mlp = 0.0;
    for (int k = kFirstLayerFeature; k < kFeatureCount; ++k) {
        const std::string name(featureName(FeatureCoding::ScopeAware, k));
        (name.rfind("attn_", 0) == 0 ? attn : mlp) +=
            rep.engine.surrogate.weights()[static_cast<std::size_t>(k)];
    }
    QVERIFY(attn > 0.0 && mlp > 0.0);
}

void TestQualityScopeAware::quantizingAnyTensorCostsQuality()
{
    // Every (model, format, scope) of the demo workspace, every algorithm the format takes and
    // every single layer quantized alone: the engine's surrogate predicts strictly more RMQD
    // than the model's bf16 configuration, by at least the floor the one layer's features
    // carry (each weight >= kQuantizationWeightFloor, each of the layer's features > 0).
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    const RidgeSurrogate s = fitOnTrainingRows(set, ws.models, engineSurrogateOptions());
    for (int k = 1; k < kFeatureCount; ++k)
        QVERIFY(s.weights()[static_cast<std::size_t>(k)] >= kQuantizationWeightFloor);
    int cases = 0;
    for (const ModelArch& m : ws.models) {
        const double bf16 = s.predict(m, BandRecipe::uniform(m.layers, Format::Bf16),
                                      Algorithm::Max, false, KvFormat::Bf16);
        for (Format f : kAllFormats) {
            if (f == Format::Bf16)
                continue;
            for (Algorithm a :
                 {Algorithm::Max, Algorithm::SmoothQuant, Algorithm::Awq, Algorithm::Gptq}) {
                if (!algorithmFits(a, f))
                    continue;
                const SurrogateTerms t = s.terms(m, a, false, KvFormat::Bf16);
                for (Scope scope : kAllScopes) {
                    const std::string what = m.name + " " + std::string(toString(f)) + "/" +
                                             std::string(toString(scope));
                    QVERIFY2(s.predict(m, BandRecipe::uniform(m.layers, f, scope), a, false,
                                       KvFormat::Bf16) > bf16,
                             what.c_str());
                    for (int l = 0; l < m.layers; ++l) {
                        BandRecipe r;
                        if (l == 0)
                            r = BandRecipe::fromCuts(m.layers, {1},
                                                     {{f, scope}, {Format::Bf16, Scope::Full}});
                        else if (l == m.layers - 1)
                            r = BandRecipe::fromCuts(m.layers, {l},
                                                     {{Format::Bf16, Scope::Full}, {f, scope}});
                        else
                            r = BandRecipe::fromCuts(m.layers, {l, l + 1},
                                                     {{Format::Bf16, Scope::Full},
                                                      {f, scope},
                                                      {Format::Bf16, Scope::Full}});
                        QVERIFY2(predictRecipe(t, r) > bf16,
                                 (what + " layer " + std::to_string(l)).c_str());
                        ++cases;
                    }
                }
            }
        }
    }
    QVERIFY(cases > 5000);
    // The answer that priced a 4-bit band at nothing: Qwen3-8B, int4_wo attention in the
    // middle third (AWQ), predicted exactly the bf16 RMQD before the floor.
    const ModelArch& q = ws.models[static_cast<std::size_t>(*ws.findModel("Qwen3-8B"))];
    const BandRecipe band = BandRecipe::fromCuts(
        36, {12, 24},
        {{Format::Bf16, Scope::Full}, {Format::Int4Wo, Scope::Attn}, {Format::Bf16, Scope::Full}});
    const double bf16 =
        s.predict(q, BandRecipe::uniform(36, Format::Bf16), Algorithm::Max, false, KvFormat::Bf16);
    const double banded = s.predict(q, band, Algorithm::Awq, false, KvFormat::Bf16);
    // At least the floor on attn_deficit_middle + attn_noise_middle (attention share x
    // deficit and noise codes) and algo_awq (a third of the layers quantized).
    const auto attn = static_cast<double>(q.attnLinearParams());
    const double share = attn / (attn + static_cast<double>(q.mlpLinearParams()));
    const double least = kQuantizationWeightFloor *
                         (share * (16 - 4.25) / 16 + share * std::pow(4.0, 4 - 4.25) + 1.0 / 3);
    QVERIFY2(std::log(banded / bf16) >= least - 1e-12,
             (std::to_string(banded) + " vs " + std::to_string(bf16)).c_str());
}

void TestQualityScopeAware::moeExpertsShareAndWiderScopes()
{
    // The MoE models of the workspace are in the strictness and monotonicity checks above (they
    // loop over ws.models); here what is MoE's own. Qwen3-30B-A3B's experts-scope features carry
    // the expert-parameter share, by hand: attention 2048 x (4096 + 2 x 512) + 4096 x 2048 =
    // 18,874,368; experts 128 x 3 x 2048 x 768 = 603,979,776.
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const ModelArch& a3b = ws.models[static_cast<std::size_t>(*ws.findModel("Qwen3-30B-A3B"))];
    const double experts = 603979776.0, attn = 18874368.0;
    QCOMPARE(groupShare(a3b, 0, TensorGroup::Mlp), experts / (experts + attn));
    const FeatureVector phi = qualityFeatures(FeatureCoding::ScopeAware, a3b,
                                              BandRecipe::uniform(48, Format::Fp8, Scope::Mlp),
                                              Algorithm::Max, false, KvFormat::Bf16);
    for (int k = kFirstLayerFeature; k < kFeatureCount; ++k) {
        const std::string name(featureName(FeatureCoding::ScopeAware, k));
        const double code = name.find("deficit") != std::string::npos ? 8.5 / 16.0 : 1.0 / 128.0;
        const double want = name.rfind("mlp_", 0) == 0 ? experts / (experts + attn) * code : 0.0;
        QVERIFY2(std::abs(phi[static_cast<std::size_t>(k)] - want) < 1e-12, name.c_str());
    }
    // Quantizing more never lowers the engine's prediction on an MoE model: full against
    // experts and attn alone, for every format, layer span and algorithm it takes.
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    const RidgeSurrogate s = fitOnTrainingRows(set, ws.models, engineSurrogateOptions());
    int moeModels = 0, cases = 0;
    for (const ModelArch& m : ws.models) {
        if (!m.isMoe())
            continue;
        ++moeModels;
        for (Format f : kAllFormats)
            for (Algorithm a : kAllAlgorithms) {
                if (f == Format::Bf16 || !algorithmFits(a, f))
                    continue;
                for (int cut = 1; cut < m.layers; cut += 7) {
                    auto predict = [&](Scope scope) {
                        return s.predict(
                            m,
                            BandRecipe::fromCuts(m.layers, {cut},
                                                 {{Format::Bf16, Scope::Full}, {f, scope}}),
                            a, false, KvFormat::Bf16);
                    };
                    const double full = predict(Scope::Full);
                    QVERIFY(full > predict(Scope::Mlp) && full > predict(Scope::Attn));
                    ++cases;
                }
            }
    }
    QCOMPARE(moeModels, 2);
    QVERIFY(cases > 100);
}

ACSEL_TEST_APPLESS_MAIN(TestQualityScopeAware)
#include "test_quality_scopeaware.moc"
