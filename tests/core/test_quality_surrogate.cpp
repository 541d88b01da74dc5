// Features phi(C) by hand, the O(bands) prefix-sum prediction against predict(config), the
// monotone fit, and the surrogate's JSON round trip.
#include "bundled.h"
#include "core/data/loaderror.h"
#include "core/data/workspacefile.h"
#include "core/model/configspace.h"
#include "core/quality/qualityreport.h"
#include "core/quality/rng.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

using namespace acsel;

namespace
{

ModelArch smallModel(int layers)
{
    ModelArch m;
    m.name = "tiny";
    m.layers = layers;
    m.hidden = 64;
    m.heads = 4;
    m.kvHeads = 2;
    m.headDim = 16;
    m.intermediate = 128;
    m.vocab = 1000;
    return m;
}

BandRecipe randomRecipe(SplitMix64& rng, int L, const std::vector<FormatScope>& choices)
{
    const int bands = 1 + rng.below(L >= 3 ? 3 : L);
    int cuts[2] = {1 + rng.below(L - 1), 1 + rng.below(L - 1)};
    if (cuts[0] > cuts[1])
        std::swap(cuts[0], cuts[1]);
    if (bands == 3 && cuts[0] == cuts[1])
        return BandRecipe::uniform(L, Format::Fp8);
    BandRecipe r;
    int begin = 0;
    for (int b = 0; b < bands; ++b) {
        const int end = b + 1 < bands ? cuts[bands == 2 ? 1 : b] : L;
        const FormatScope& c =
            choices[static_cast<std::size_t>(rng.below(static_cast<int>(choices.size())))];
        r.push({begin, end, c.format, c.scope});
        begin = end;
    }
    return r;
}

} // namespace

class TestQualitySurrogate : public QObject
{
    Q_OBJECT
private slots:
    void featureNamesAndMonotoneSet();
    void depthWeightsSumToOne();
    void featuresByHand();
    void prefixSumPredictionEqualsPredict();
    void constraintBindsWhenDataDisagrees();
    void demoFitHasNoNegativeBitWeight();
    void neverHelpsPriorKeepsBf16Best();
    void resplitStudyCountsBindingSplits();
    void modelOffsetsCarryBetweenModelError();
    void jsonRoundTripAndErrors();
};

void TestQualitySurrogate::featureNamesAndMonotoneSet()
{
    std::set<std::string> names;
    int bitFeatures = 0;
    for (int k = 0; k < kFeatureCount; ++k) {
        names.insert(std::string(featureName(FeatureCoding::Method, k)));
        if (isBitDeficitFeature(FeatureCoding::Method, k)) {
            ++bitFeatures;
            QVERIFY(featureName(FeatureCoding::Method, k).rfind("bit_deficit_", 0) == 0);
        }
    }
    QCOMPARE(names.size(), std::size_t{kFeatureCount});
    QCOMPARE(bitFeatures, 4);
    QCOMPARE(featureName(FeatureCoding::Method, layerFeatureIndex(LayerCode::Granularity, 3)),
             std::string_view("granularity_late"));
}

void TestQualitySurrogate::depthWeightsSumToOne()
{
    for (int L = 1; L <= 90; ++L)
        for (int a = 0; a < kAggregationCount; ++a) {
            double sum = 0.0;
            for (int l = 0; l < L; ++l) {
                QVERIFY(depthWeight(a, l, L) >= 0.0);
                sum += depthWeight(a, l, L);
            }
            QVERIFY(std::abs(sum - 1.0) < 1e-12);
        }
    // L = 6: each third is two whole layers; L = 4: layer 1 straddles the first boundary (4/3).
    QCOMPARE(depthWeight(1, 1, 6), 0.5);
    QCOMPARE(depthWeight(2, 1, 6), 0.0);
    QCOMPARE(depthWeight(1, 1, 4), 0.25); // covers [1/4, 1/3) of the first third's 1/3: 1/4
    QCOMPARE(depthWeight(2, 1, 4), 0.5);  // and [1/3, 1/2) of the middle: (1/6)/(1/3)
}

void TestQualitySurrogate::featuresByHand()
{
    const ModelArch m = smallModel(6);
    const BandRecipe r = BandRecipe::fromCuts(
        6, {2, 4},
        {{Format::Int4Wo, Scope::Mlp}, {Format::Bf16, Scope::Full}, {Format::Fp8, Scope::Attn}});
    const FeatureVector phi =
        qualityFeatures(FeatureCoding::Method, m, r, Algorithm::Awq, false, KvFormat::Fp8);
    QCOMPARE(phi[0], std::log(static_cast<double>(m.paramCount())));
    QCOMPARE(phi[3], 4.0 / 6.0); // algo_awq: 4 of the 6 layers are quantized
    QCOMPARE(phi[1] + phi[2] + phi[4], 0.0);
    // A bf16 model calibrates nothing: no algorithm term, whatever algorithm it names.
    for (FeatureCoding coding : {FeatureCoding::Method, FeatureCoding::ScopeAware}) {
        const FeatureVector bf16 =
            qualityFeatures(coding, m, BandRecipe::uniform(6, Format::Bf16, Scope::Full),
                            Algorithm::Awq, false, KvFormat::Bf16);
        for (int k = 1; k < kFeatureCount; ++k)
            QCOMPARE(bf16[static_cast<std::size_t>(k)], 0.0);
    }
    QCOMPARE(phi[5], 0.0);
    QCOMPARE(phi[6], 1.0);
    auto at = [&](LayerCode c, int a) {
        return phi[static_cast<std::size_t>(layerFeatureIndex(c, a))];
    };
    // Bit deficit: int4 0.75 on layers 0-1, bf16 0 on 2-3, fp8 0.5 on 4-5.
    QVERIFY(std::abs(at(LayerCode::BitDeficit, 0) - (2 * 0.75 + 2 * 0.5) / 6.0) < 1e-15);
    QVERIFY(std::abs(at(LayerCode::BitDeficit, 1) - 0.75) < 1e-15);
    QVERIFY(std::abs(at(LayerCode::BitDeficit, 2) - 0.0) < 1e-15);
    QVERIFY(std::abs(at(LayerCode::BitDeficit, 3) - 0.5) < 1e-15);
    // Scope: mlp 2/3, bf16 0, attn 1/3.
    QVERIFY(std::abs(at(LayerCode::Scope, 0) - (2 * 2.0 / 3 + 2 * 1.0 / 3) / 6.0) < 1e-15);
    QVERIFY(std::abs(at(LayerCode::Scope, 3) - 1.0 / 3) < 1e-15);
    // Granularity: int4_wo block-128 0.5, bf16 0, fp8 per-tensor 1.
    QVERIFY(std::abs(at(LayerCode::Granularity, 0) - (2 * 0.5 + 2 * 1.0) / 6.0) < 1e-15);
    QVERIFY(std::abs(at(LayerCode::Granularity, 1) - 0.5) < 1e-15);
}

void TestQualitySurrogate::prefixSumPredictionEqualsPredict()
{
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    const QualityReport rep = evaluateQualitySurrogates(set, ws.models);
    const std::vector<FormatScope> choices =
        ConfigSpace(2, {.formats = {kAllFormats.begin(), kAllFormats.end()}}).bandChoices();
    SplitMix64 rng(1);
    int checked = 0;
    for (const RidgeSurrogate* s :
         {&rep.constrained.surrogate, &rep.unconstrained.surrogate, &rep.engine.surrogate})
        for (const ModelArch& m : ws.models)
            for (Algorithm a : kAllAlgorithms)
                for (int flags = 0; flags < 4; ++flags) {
                    const bool lm = flags & 1;
                    const KvFormat kv = flags & 2 ? KvFormat::Fp8 : KvFormat::Bf16;
                    const SurrogateTerms t = s->terms(m, a, lm, kv);
                    for (int k = 0; k < 60; ++k) {
                        const BandRecipe r = randomRecipe(rng, m.layers, choices);
                        const double direct = s->predict(m, r, a, lm, kv);
                        const double fast = predictRecipe(t, r);
                        QVERIFY2(std::abs(fast - direct) <= 1e-12 * direct, r.describe().c_str());
                        ++checked;
                    }
                }
    QVERIFY(checked > 15000);
}

void TestQualitySurrogate::constraintBindsWhenDataDisagrees()
{
    // Made-up data whose log RMQD falls with the bit deficit in the late third (as noise or a
    // confounder could make it): the unconstrained fit follows, the monotone one stops at 0.
    const ModelArch m = smallModel(6);
    std::vector<FeatureVector> X;
    std::vector<double> y;
    const Format ladder[3] = {Format::Bf16, Format::Fp8, Format::Nvfp4};
    for (int early = 0; early < 3; ++early)
        for (int late = 0; late < 3; ++late) {
            if (early == late)
                continue;
            const BandRecipe r = BandRecipe::fromCuts(
                6, {3}, {{ladder[early], Scope::Full}, {ladder[late], Scope::Full}});
            X.push_back(qualityFeatures(FeatureCoding::Method, m, r, Algorithm::Max, false,
                                        KvFormat::Bf16));
            y.push_back(
                std::exp(-8.0 + 6.0 * bitDeficit(ladder[early]) - 2.0 * bitDeficit(ladder[late])));
        }
    SurrogateOptions opt;
    opt.folds = 3;
    opt.monotone = false;
    const RidgeSurrogate free = RidgeSurrogate::fit(X, y, opt);
    opt.monotone = true;
    const RidgeSurrogate mono = RidgeSurrogate::fit(X, y, opt);
    const int late = layerFeatureIndex(LayerCode::BitDeficit, 3);
    QVERIFY(free.weights()[static_cast<std::size_t>(late)] < 0.0);
    for (int k = 0; k < kFeatureCount; ++k)
        if (isBitDeficitFeature(FeatureCoding::Method, k))
            QVERIFY(mono.weights()[static_cast<std::size_t>(k)] >= 0.0);
    QVERIFY(mono.trainingMdape() >= free.trainingMdape());
}

void TestQualitySurrogate::demoFitHasNoNegativeBitWeight()
{
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    const QualityReport rep = evaluateQualitySurrogates(set, ws.models);
    QCOMPARE(rep.trainRows, 226);
    for (int k = 0; k < kFeatureCount; ++k)
        if (isBitDeficitFeature(FeatureCoding::Method, k))
            QVERIFY(rep.constrained.surrogate.weights()[static_cast<std::size_t>(k)] >= 0.0);
    QVERIFY(rep.constrained.heldoutMdape > 0.0);
    QCOMPARE(rep.constrained.monotonicity.moves, rep.unconstrained.monotonicity.moves);
    QVERIFY(rep.constrained.monotonicity.moves > 100000);
}

void TestQualitySurrogate::neverHelpsPriorKeepsBf16Best()
{
    // With every quantization feature bounded, no configuration of a model (any recipe,
    // algorithm, lm_head, KV) is predicted better than its bf16 configuration, and quantizing the
    // KV cache or lm_head on top of a recipe never predicts better either. Checked on random
    // recipes against the direct prediction, not the fast path.
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    for (FeatureCoding coding : {FeatureCoding::Method, FeatureCoding::ScopeAware}) {
        std::vector<FeatureVector> X;
        std::vector<double> y;
        for (const QualityRow& row : set.rows) {
            X.push_back(
                qualityFeatures(coding, ws.models[static_cast<std::size_t>(row.model)], row));
            y.push_back(row.rmqd);
        }
        SurrogateOptions opt;
        opt.coding = coding;
        opt.quantizationNeverHelps = true;
        const RidgeSurrogate s = RidgeSurrogate::fit(X, y, opt);
        for (int k = 1; k < kFeatureCount; ++k)
            QVERIFY(s.constrained(k) && s.weights()[static_cast<std::size_t>(k)] >= 0.0);
        QVERIFY(!s.constrained(0));
        const std::vector<FormatScope> choices =
            ConfigSpace(2, {.formats = {kAllFormats.begin(), kAllFormats.end()}}).bandChoices();
        SplitMix64 rng(7);
        for (const ModelArch& m : ws.models) {
            const double bf16 =
                s.predict(m, BandRecipe::uniform(m.layers, Format::Bf16, Scope::Full),
                          Algorithm::Max, false, KvFormat::Bf16);
            for (int k = 0; k < 500; ++k) {
                const BandRecipe r = randomRecipe(rng, m.layers, choices);
                const auto a = static_cast<Algorithm>(rng.next() % kAlgorithmCount);
                const double plain = s.predict(m, r, a, false, KvFormat::Bf16);
                QVERIFY2(plain >= bf16 * (1 - 1e-12), r.describe().c_str());
                QVERIFY(s.predict(m, r, a, false, KvFormat::Fp8) >= plain * (1 - 1e-12));
                QVERIFY(s.predict(m, r, a, true, KvFormat::Bf16) >= plain * (1 - 1e-12));
            }
        }
    }
}

namespace
{

// Three small models of different sizes.
std::vector<ModelArch> threeModels()
{
    std::vector<ModelArch> models = {smallModel(6), smallModel(6), smallModel(6)};
    models[1].hidden = 128;
    models[2].hidden = 256;
    models[1].name = "small-128";
    models[2].name = "small-256";
    return models;
}

// Every 3-band recipe (cuts 2, 4) over bf16 / fp8 / nvfp4 for each model, with
// log RMQD = offset[model] + slopeEarly * early + 0.3 * middle + slopeLate * late bit deficit
// (the thirds of 6 layers are whole layer pairs, so the law is exactly linear in phi).
QualitySet linearSet(const double offset[3], double slopeEarly, double slopeLate)
{
    QualitySet set;
    const Format ladder[3] = {Format::Bf16, Format::Fp8, Format::Nvfp4};
    for (int m = 0; m < 3; ++m)
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b)
                for (int c = 0; c < 3; ++c) {
                    const BandRecipe r = BandRecipe::fromCuts(6, {2, 4},
                                                              {{ladder[a], Scope::Full},
                                                               {ladder[b], Scope::Full},
                                                               {ladder[c], Scope::Full}});
                    const double y = offset[m] + slopeEarly * bitDeficit(ladder[a]) +
                                     0.3 * bitDeficit(ladder[b]) +
                                     slopeLate * bitDeficit(ladder[c]);
                    set.rows.push_back({m, r, Algorithm::Max, false, KvFormat::Bf16, std::exp(y),
                                        (a + b + c + m) % 2 == 0 ? Split::Train : Split::Heldout});
                }
    return set;
}

} // namespace

void TestQualitySurrogate::resplitStudyCountsBindingSplits()
{
    const std::vector<ModelArch> models = threeModels();
    SurrogateOptions opt;
    opt.folds = 3;
    // Offsets log-linear in the parameter count, so log_params expresses them.
    double offset[3];
    for (int m = 0; m < 3; ++m)
        offset[m] =
            -0.5 * std::log(static_cast<double>(models[static_cast<std::size_t>(m)].paramCount()));
    const QualityReport agree =
        evaluateQualitySurrogates(linearSet(offset, 2.0, 1.0), models, opt, 6);
    QCOMPARE(agree.resplit.resplits, 6);
    QCOMPARE(agree.resplit.constrainedMdape.size(), std::size_t{6});
    QCOMPARE(agree.resplit.nonMonotone, 0); // the data's bit trend is positive in every third
    for (double slope : bitSlopesByThird(agree.unconstrained.surrogate))
        QVERIFY(slope > 0.0);
    // A late trend reversed in the data (as a confounder could make it): every split binds.
    const QualitySet set = linearSet(offset, 2.0, -1.5);
    const QualityReport reversed = evaluateQualitySurrogates(set, models, opt, 6);
    QCOMPARE(reversed.resplit.binding, 6);
    QCOMPARE(reversed.resplit.nonMonotone, 6);
    QVERIFY(reversed.resplit.boundWeights >= 6);
    QVERIFY(boundBitWeights(reversed.constrained.surrogate) >= 1);
    QVERIFY(bitSlopesByThird(reversed.unconstrained.surrogate)[2] < 0.0);
    for (double slope : bitSlopesByThird(reversed.constrained.surrogate))
        QVERIFY(slope >= 0.0);
    QVERIFY(reversed.resplit.constrainedBetter + reversed.resplit.constrainedWorse <= 6);
    // No study requested: nothing run.
    QCOMPARE(evaluateQualitySurrogates(set, models, opt).resplit.resplits, 0);
}

void TestQualitySurrogate::modelOffsetsCarryBetweenModelError()
{
    // Offsets that are not linear in log(params): log_params cannot express them, the engine's
    // per-model offsets can, so its held-out error is near 0 while the plain ridge's is not.
    const std::vector<ModelArch> models = threeModels();
    const double offset[3] = {-3.0, -2.0, -3.0};
    const QualitySet set = linearSet(offset, 2.0, 1.0);
    SurrogateOptions opt;
    opt.folds = 3;
    const QualityReport rep = evaluateQualitySurrogates(set, models, opt);
    QVERIFY2(rep.engine.heldoutMdape < 1.0, std::to_string(rep.engine.heldoutMdape).c_str());
    QVERIFY(rep.unconstrained.heldoutMdape > 20.0);
    QCOMPARE(rep.engine.surrogate.modelOffsets().size(), std::size_t{3});
    // The data's bf16 RMQD is exp(offset): model 1 sits e times above models 0 and 2.
    const RidgeSurrogate& e = rep.engine.surrogate;
    auto bf16 = [&](int m) {
        return e.predict(models[static_cast<std::size_t>(m)], BandRecipe::uniform(6, Format::Bf16),
                         Algorithm::Max, false, KvFormat::Bf16);
    };
    QVERIFY2(std::abs(bf16(1) / bf16(0) / std::exp(1.0) - 1.0) < 0.02,
             std::to_string(bf16(1) / bf16(0)).c_str());
    QVERIFY(std::abs(bf16(2) / bf16(0) - 1.0) < 0.02);
    // A model without training rows gets no offset: it is predicted from the shared terms.
    QualitySet unseen = set;
    for (QualityRow& r : unseen.rows)
        if (r.model == 2)
            r.split = Split::Heldout;
    const QualityReport without = evaluateQualitySurrogates(unseen, models, opt);
    QCOMPARE(without.engine.surrogate.modelOffsets().size(), std::size_t{2});
    QCOMPARE(without.engine.surrogate.modelOffset(models[2].name), 0.0);
    const QualityRow& r = unseen.rows.back();
    const ModelArch& m = models[static_cast<std::size_t>(r.model)];
    QCOMPARE(without.engine.surrogate.predict(m, r.recipe, r.algorithm, r.lmHeadQuantized, r.kv),
             without.engine.surrogate.predict(without.engine.surrogate.features(
                 m, r.recipe, r.algorithm, r.lmHeadQuantized, r.kv)));
}

void TestQualitySurrogate::jsonRoundTripAndErrors()
{
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    const RidgeSurrogate s = evaluateQualitySurrogates(set, ws.models).constrained.surrogate;
    QTemporaryDir dir;
    const std::string file = dir.filePath("surrogate.json").toStdString();
    s.save(file);
    const RidgeSurrogate back = RidgeSurrogate::load(file);
    QCOMPARE(back.lambda(), s.lambda());
    QCOMPARE(back.trainingRows(), 226);
    QCOMPARE(back.cvCurve().size(), s.cvCurve().size());
    // The demo set is synthetic: a saved surrogate keeps the label and where it came from.
    QVERIFY(set.synthetic);
    QVERIFY(back.trainingData().synthetic);
    QCOMPARE(back.trainingData().file, ws.qualityFile);
    for (const QualityRow& r : set.rows) {
        const FeatureVector phi =
            qualityFeatures(FeatureCoding::Method, ws.models[static_cast<std::size_t>(r.model)], r);
        QCOMPARE(back.predict(phi), s.predict(phi));
    }
    auto errorOf = [&](Json j) {
        try {
            RidgeSurrogate::fromJson(j, "s.json");
        } catch (const LoadError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    Json j = s.toJson();
    j["features"][3]["name"] = "algo_foo";
    QVERIFY(errorOf(j).find("s.json: /features/3/name: expected feature 'algo_awq' here") !=
            std::string::npos);
    j = s.toJson();
    j["features"][7]["weight"] = -0.5;
    QVERIFY(errorOf(j).find(
                "/features/7/weight: a weight constrained to be non-negative is negative") !=
            std::string::npos);
    j = s.toJson();
    j["features"][7]["constrained_nonnegative"] = false;
    QVERIFY(errorOf(j).find("/features/7/constrained_nonnegative: a monotone surrogate bounds "
                            "every bit-deficit weight") != std::string::npos);
    j = s.toJson();
    j.erase("training_data");
    QVERIFY(errorOf(j).find("training_data") != std::string::npos);
    j = s.toJson();
    j["training_data"]["synthetic"] = "yes";
    QVERIFY(errorOf(j).find("/training_data/synthetic") != std::string::npos);
    j = s.toJson();
    j["schema_version"] = 1; // one-hot algorithm features: refused, not misread
    QVERIFY(errorOf(j).find("/schema_version: schema 1 is no longer read (this build reads 2 to "
                            "4); an older surrogate") != std::string::npos);
    j["schema_version"] = 5;
    QVERIFY(errorOf(j).find("written by a newer ACSeL Studio (schema 5, this build reads up to "
                            "4)") != std::string::npos);
    j = s.toJson();
    j["feature_coding"] = "bits_only";
    QVERIFY(errorOf(j).find("s.json: /feature_coding: expected \"method\" or \"scope_aware\", "
                            "found \"bits_only\"") != std::string::npos);

    // The engine's surrogate keeps its per-model offsets through a file; a schema-2 file (no
    // offsets) still reads, as a surrogate without them.
    const RidgeSurrogate engine = evaluateQualitySurrogates(set, ws.models).engine.surrogate;
    QCOMPARE(engine.modelOffsets().size(), std::size_t{6}); // the dense models: no MoE rows
    const RidgeSurrogate engineBack = RidgeSurrogate::fromJson(engine.toJson(), "e.json");
    QVERIFY(engineBack.modelOffsets() == engine.modelOffsets());
    const QualityRow& r = set.rows.front();
    const ModelArch& m = ws.models[static_cast<std::size_t>(r.model)];
    QCOMPARE(engineBack.predict(m, r.recipe, r.algorithm, r.lmHeadQuantized, r.kv),
             engine.predict(m, r.recipe, r.algorithm, r.lmHeadQuantized, r.kv));
    j = engine.toJson();
    j["model_offsets"].push_back(j["model_offsets"][0]);
    QVERIFY(errorOf(j).find("has a second offset") != std::string::npos);
    // The engine's coding survives the file: its names, and the same predictions.
    QVERIFY(engine.coding() == FeatureCoding::ScopeAware);
    QVERIFY(engineBack.coding() == FeatureCoding::ScopeAware);
    QCOMPARE(engine.toJson()["features"][7]["name"].get<std::string>(),
             std::string("attn_deficit_early"));
    j = engine.toJson();
    j["features"][7]["name"] = "bit_deficit_mean"; // a Method name in a scope-aware file
    QVERIFY(errorOf(j).find("/features/7/name: expected feature 'attn_deficit_early' here") !=
            std::string::npos);
    // A schema-2 or 3 file (no feature_coding) reads as the Method coding.
    j = s.toJson();
    j["schema_version"] = 2;
    j.erase("model_offsets");
    j.erase("feature_coding");
    QVERIFY(RidgeSurrogate::fromJson(j, "old.json").modelOffsets().empty());
    QVERIFY(RidgeSurrogate::fromJson(j, "old.json").coding() == FeatureCoding::Method);
}

ACSEL_TEST_APPLESS_MAIN(TestQualitySurrogate)
#include "test_quality_surrogate.moc"
