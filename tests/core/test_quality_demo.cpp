// The synthetic demo generator: bf16 scores the capacity gap to the family's oracle, monotone in
// bits over every recipe of a model's configuration space, anchored damage levels, coverage,
// labelling, and the committed file is what the recorded command regenerates.
#include "bundled.h"
#include "core/data/workspacefile.h"
#include "core/model/configspace.h"
#include "core/quality/capacitygap.h"
#include "core/quality/demoquality.h"
#include "testmain.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

using namespace acsel;

namespace
{

// The default workspace's dense models: the generator has laws for dense decoders only (its
// MoE models get no rows).
Workspace denseWorkspace()
{
    Workspace ws = loadWorkspace(kWorkspace, "");
    std::erase_if(ws.models, [](const ModelArch& m) { return m.isMoe(); });
    return ws;
}

int modelIndex(const Workspace& ws, const char* name)
{
    return ws.findModel(name).value();
}

} // namespace

class TestQualityDemo : public QObject
{
    Q_OBJECT
private slots:
    void monotoneOverEveryRecipe();
    void layerCellsMonotoneForEveryModel();
    void bf16IsTheCapacityGapToTheFamilyOracle();
    void unknownFamilyOrOversizedModelIsRejected();
    void quantizedLargerModelBeatsBf16SmallerOne();
    void damageFollowsAnchors();
    void scopeAndGranularityEffects();
    void coverageSplitAndLabels();
    void deterministicAndCommittedFileReproduces();
};

void TestQualityDemo::monotoneOverEveryRecipe()
{
    // Every legal recipe of Qwen3-0.6B over all formats and scopes; every band moved one or more
    // steps down the ladder (any format with fewer bits, same scope); every algorithm that fits
    // both recipes; with and without lm_head / KV quantized.
    const Workspace ws = denseWorkspace();
    const int m = modelIndex(ws, "Qwen3-0.6B");
    const DemoQualityModel truth(ws.models, 2611);
    const ConfigSpace space(ws.models[static_cast<std::size_t>(m)].layers,
                            {.formats = {kAllFormats.begin(), kAllFormats.end()}});
    std::int64_t recipes = 0, checks = 0, violations = 0;
    space.forEachRecipe([&](const BandRecipe& r) {
        ++recipes;
        for (int i = 0; i < r.size(); ++i) {
            for (Format lower : kAllFormats) {
                if (facts(lower).bits >= facts(r[i].format).bits)
                    continue;
                BandRecipe moved = r;
                moved[i].format = lower; // a bf16 band keeps scope full
                for (Algorithm a : kAllAlgorithms) {
                    bool fits = true;
                    for (const Band& b : r)
                        fits = fits && algorithmFits(a, b.format);
                    fits = fits && algorithmFits(a, lower);
                    if (!fits)
                        continue;
                    const bool lmOk = r[r.size() - 1].format != Format::Bf16;
                    for (int flags = 0; flags < 4; ++flags) {
                        const bool lm = (flags & 1) && lmOk;
                        const KvFormat kv = flags & 2 ? KvFormat::Fp8 : KvFormat::Bf16;
                        ++checks;
                        if (truth.rmqd(m, moved, a, lm, kv) < truth.rmqd(m, r, a, lm, kv))
                            ++violations;
                    }
                }
            }
        }
    });
    QCOMPARE(recipes, space.recipeCount());
    QVERIFY(checks > 5'000'000);
    QCOMPARE(violations, std::int64_t{0});
}

void TestQualityDemo::layerCellsMonotoneForEveryModel()
{
    const Workspace ws = denseWorkspace();
    const DemoQualityModel truth(ws.models, 2611);
    for (int m = 0; m < static_cast<int>(ws.models.size()); ++m)
        for (int l = 0; l < ws.models[static_cast<std::size_t>(m)].layers; ++l)
            for (Scope s : kAllScopes)
                for (Algorithm a : kAllAlgorithms) {
                    QCOMPARE(truth.layerDamage(m, l, Format::Bf16, s, a), 0.0);
                    for (Format hi : kAllFormats)
                        for (Format lo : kAllFormats)
                            if (facts(lo).bits < facts(hi).bits && algorithmFits(a, hi) &&
                                algorithmFits(a, lo))
                                QVERIFY(truth.layerDamage(m, l, lo, s, a) >=
                                        truth.layerDamage(m, l, hi, s, a));
                }
}

void TestQualityDemo::bf16IsTheCapacityGapToTheFamilyOracle()
{
    // The law worked out here from its definition: 406.4 (N^-0.34 - N_oracle^-0.34) with the
    // oracles' dense-equivalent sizes 405e9 (Llama-3.1-405B) and 110e9 (Qwen3-235B-A22B, 5 x 22B
    // active); the frozen per-model noise is at most 3 sigma = 0.3 in log.
    const Workspace ws = denseWorkspace();
    const DemoQualityModel truth(ws.models, 2611);
    for (int m = 0; m < static_cast<int>(ws.models.size()); ++m) {
        const ModelArch& a = ws.models[static_cast<std::size_t>(m)];
        const double oracle = a.family == "llama" ? 405e9 : 110e9;
        const double law = 406.4 * (std::pow(static_cast<double>(a.paramCount()), -0.34) -
                                    std::pow(oracle, -0.34));
        QVERIFY(std::abs(capacityGapNats(a) - law) <= 1e-12 * law);
        const double bf16 = truth.rmqd(m, BandRecipe::uniform(a.layers, Format::Bf16),
                                       Algorithm::Max, false, KvFormat::Bf16);
        QCOMPARE(bf16, truth.gap(m));
        QVERIFY2(std::abs(std::log(bf16 / law)) <= 0.3 + 1e-12, a.name.c_str());
    }
    // Hand values: Llama-3.1-8B (8.03e9 params) 0.128 nats, Qwen3-0.6B (0.596e9) 0.350.
    QVERIFY(std::abs(capacityGapNats(
                         ws.models[static_cast<std::size_t>(modelIndex(ws, "Llama-3.1-8B"))]) -
                     0.128) < 0.001);
    QVERIFY(std::abs(
                capacityGapNats(ws.models[static_cast<std::size_t>(modelIndex(ws, "Qwen3-0.6B"))]) -
                0.350) < 0.001);
    // Within a family, bigger bf16 models are closer to the oracle.
    auto gapOf = [&](const char* name) { return truth.gap(modelIndex(ws, name)); };
    QVERIFY(gapOf("Qwen3-0.6B") > gapOf("Qwen3-1.7B"));
    QVERIFY(gapOf("Qwen3-1.7B") > gapOf("Qwen3-8B"));
    QVERIFY(gapOf("Qwen3-8B") > gapOf("Qwen3-32B"));
    QVERIFY(gapOf("Llama-3.1-8B") > gapOf("Llama-3.1-70B"));
}

void TestQualityDemo::unknownFamilyOrOversizedModelIsRejected()
{
    const Workspace ws = denseWorkspace();
    std::vector<ModelArch> models = ws.models;
    models[2].family = "mistral";
    try {
        const DemoQualityModel truth(models, 1);
        QFAIL("an unknown family must be rejected");
    } catch (const std::invalid_argument& e) {
        QVERIFY2(std::string(e.what()).find("model Qwen3-8B: no oracle known for family "
                                            "'mistral'") != std::string::npos,
                 e.what());
    }
    ModelArch huge = ws.models[static_cast<std::size_t>(modelIndex(ws, "Llama-3.1-70B"))];
    huge.layers = 600; // ~0.5T parameters: not smaller than the 405B oracle
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, capacityGapNats(huge));
}

void TestQualityDemo::quantizedLargerModelBeatsBf16SmallerOne()
{
    // The point of a shared oracle: the search chooses the model too, and a quantized bigger
    // model can be closer to the oracle than a smaller model in bf16 (with a self reference
    // every bf16 model would score ~0 and always win).
    const Workspace ws = denseWorkspace();
    const DemoQualityModel truth(ws.models, 2611);
    auto uniform = [&](const char* name, Format f, Algorithm a) {
        const int m = modelIndex(ws, name);
        return truth.rmqd(m, BandRecipe::uniform(ws.models[static_cast<std::size_t>(m)].layers, f),
                          a, false, KvFormat::Bf16);
    };
    QVERIFY(uniform("Qwen3-8B", Format::Int4Wo, Algorithm::Awq) <
            uniform("Qwen3-1.7B", Format::Bf16, Algorithm::Max));
    QVERIFY(uniform("Qwen3-32B", Format::Nvfp4, Algorithm::Max) <
            uniform("Qwen3-8B", Format::Bf16, Algorithm::Max));
    QVERIFY(uniform("Llama-3.1-70B", Format::Int4Wo, Algorithm::Gptq) <
            uniform("Llama-3.1-8B", Format::Bf16, Algorithm::Max));
    // Quantization still costs something on top of the gap at every format.
    for (Format f : {Format::Fp8Block, Format::Int8Wo, Format::Nvfp4})
        QVERIFY(uniform("Qwen3-8B", f, Algorithm::Max) >
                uniform("Qwen3-8B", Format::Bf16, Algorithm::Max));
}

void TestQualityDemo::damageFollowsAnchors()
{
    const Workspace ws = denseWorkspace();
    const DemoQualityModel truth(ws.models, 2611);
    const int llama8 = modelIndex(ws, "Llama-3.1-8B");
    const int L = ws.models[static_cast<std::size_t>(llama8)].layers;
    // Damage = RMQD - the bf16 gap: what the anchors measured against the model's own weights.
    auto damage = [&](int m, Format f, Algorithm a) {
        return truth.rmqd(m, BandRecipe::uniform(ws.models[static_cast<std::size_t>(m)].layers, f),
                          a, false, KvFormat::Bf16) -
               truth.gap(m);
    };
    // An 8B model's damage sits at the cited levels within the documented noise (3 sigma of
    // 0.15 plus cell noise): Q8_0 1.4e-3, Q4_K_M ~0.03, NVFP4 ~0.055.
    auto near = [](double v, double anchor) { return v > anchor / 1.7 && v < anchor * 1.7; };
    QVERIFY(near(damage(llama8, Format::Int8Wo, Algorithm::Max), 1.4e-3));
    QVERIFY(near(damage(llama8, Format::Int4Wo, Algorithm::Awq), 0.030));
    QVERIFY(near(damage(llama8, Format::Nvfp4, Algorithm::Max), 0.055));
    QCOMPARE(damage(llama8, Format::Bf16, Algorithm::Max), 0.0);
    // Smaller models lose more at every format.
    const int small = modelIndex(ws, "Qwen3-0.6B"), big = modelIndex(ws, "Llama-3.1-70B");
    for (Format f : {Format::Nvfp4, Format::Int8Wo, Format::Fp8, Format::Int8}) {
        const Algorithm a = f == Format::Int8 ? Algorithm::SmoothQuant : Algorithm::Max;
        QVERIFY(damage(small, f, a) > 2.0 * damage(big, f, a));
    }
    // The first layer and the last are more sensitive than the median layer; MLP scope (down_proj)
    // costs more than attention scope.
    std::vector<double> d;
    for (int l = 0; l < L; ++l)
        d.push_back(truth.layerDamage(llama8, l, Format::Fp8, Scope::Full, Algorithm::Max));
    std::vector<double> sorted = d;
    std::nth_element(sorted.begin(), sorted.begin() + L / 2, sorted.end());
    const double median = sorted[static_cast<std::size_t>(L / 2)];
    QVERIFY(d.front() > 2.0 * median);
    QVERIFY(d.back() > 1.5 * median);
    QVERIFY(truth.rmqd(llama8, BandRecipe::uniform(L, Format::Fp8, Scope::Mlp), Algorithm::Max,
                       false, KvFormat::Bf16) >
            truth.rmqd(llama8, BandRecipe::uniform(L, Format::Fp8, Scope::Attn), Algorithm::Max,
                       false, KvFormat::Bf16));
}

void TestQualityDemo::scopeAndGranularityEffects()
{
    // Per layer, full scope is attention plus MLP (KL adds over tensor groups); the MLP, with
    // down_proj and most of the weights, costs more than attention; the attention share is larger
    // where the MLP is relatively small. By hand for Llama-3.1-8B (hidden 4096, 32 heads of 128,
    // 8 KV heads, intermediate 14336), weighting v_proj and down_proj 2x: attention
    // 4096 x 128 x (32 + 8 + 2 x 8 + 32) = 46.1M, MLP 4096 x 14336 x (2 + 2) = 234.9M, so the
    // attention share of the damage is 88 / (88 + 4 x 14336 / 128) = 0.1642.
    const Workspace ws = denseWorkspace();
    const DemoQualityModel truth(ws.models, 2611);
    for (int m = 0; m < static_cast<int>(ws.models.size()); ++m)
        for (Format f : kAllFormats)
            for (Algorithm a : kAllAlgorithms) {
                double attnSum = 0.0, mlpSum = 0.0;
                for (int l = 0; l < ws.models[static_cast<std::size_t>(m)].layers; ++l) {
                    const double full = truth.layerDamage(m, l, f, Scope::Full, a);
                    const double attn = truth.layerDamage(m, l, f, Scope::Attn, a);
                    const double mlp = truth.layerDamage(m, l, f, Scope::Mlp, a);
                    QVERIFY(std::abs(full - attn - mlp) <= 1e-12 * full);
                    attnSum += attn;
                    mlpSum += mlp;
                }
                if (f != Format::Bf16)
                    QVERIFY(mlpSum > attnSum);
            }
    const int llama8 = modelIndex(ws, "Llama-3.1-8B");
    const int L = ws.models[static_cast<std::size_t>(llama8)].layers;
    double attn = 0.0, full = 0.0;
    for (int l = 0; l < L; ++l) {
        attn += truth.layerDamage(llama8, l, Format::Int8Wo, Scope::Attn, Algorithm::Max);
        full += truth.layerDamage(llama8, l, Format::Int8Wo, Scope::Full, Algorithm::Max);
    }
    const double share = 88.0 / (88.0 + 4.0 * 14336.0 / 128.0);
    // Only the frozen cell noise (sigma 0.12 per layer and group) separates the ratio from it.
    QVERIFY2(std::abs(attn / full / share - 1.0) < 0.15, std::to_string(attn / full).c_str());
    // Block scales beat per-tensor ones at equal bits in every model: fp8_block below fp8 in
    // uniform full-scope damage (the per-(model, bit width) noise is shared by the two; only the
    // cell noise, averaged over the layers, moves the ratio off 0.0015 / 0.0018).
    for (int m = 0; m < static_cast<int>(ws.models.size()); ++m) {
        const int layers = ws.models[static_cast<std::size_t>(m)].layers;
        auto damage = [&](Format f) {
            return truth.rmqd(m, BandRecipe::uniform(layers, f), Algorithm::Max, false,
                              KvFormat::Bf16) -
                   truth.gap(m);
        };
        QVERIFY(damage(Format::Fp8Block) < damage(Format::Fp8));
    }
}

void TestQualityDemo::coverageSplitAndLabels()
{
    const Workspace ws = denseWorkspace();
    const QualitySet set = generateDemoQualitySet(ws.models, {}, "test");
    QVERIFY(set.synthetic);
    QVERIFY(set.provenance.find("SYNTHETIC") != std::string::npos);
    QCOMPARE(set.generator["seed"].get<int>(), 2611);
    QVERIFY(set.generator["reference"].get<std::string>().find("oracle") != std::string::npos);
    QCOMPARE(set.generator["capacity_gaps"].size(), ws.models.size());
    QVERIFY(set.generator["anchors"].dump().find("ASSUMPTION") != std::string::npos);
    QVERIFY(set.generator["anchors"].size() >= 10);
    int train = 0;
    std::set<std::pair<int, Format>> uniformSeen, trainSeen;
    std::set<std::pair<int, int>> bandCounts;
    bool lm = false, kv = false;
    for (const QualityRow& r : set.rows) {
        QVERIFY(r.recipe.validate(ws.models[static_cast<std::size_t>(r.model)].layers).empty());
        for (const Band& b : r.recipe)
            QVERIFY(algorithmFits(r.algorithm, b.format));
        if (r.recipe.isUniform())
            uniformSeen.insert({r.model, r.recipe[0].format});
        bandCounts.insert({r.model, r.recipe.size()});
        if (r.split == Split::Train) {
            ++train;
            for (const Band& b : r.recipe)
                trainSeen.insert({r.model, b.format});
        }
        lm = lm || r.lmHeadQuantized;
        kv = kv || r.kv == KvFormat::Fp8;
    }
    QCOMPARE(train, 226);
    QVERIFY(set.rows.size() > 400);
    QCOMPARE(uniformSeen.size(), ws.models.size() * kFormatCount);
    QCOMPARE(trainSeen.size(), ws.models.size() * kFormatCount);
    QCOMPARE(bandCounts.size(), ws.models.size() * 3); // 1, 2 and 3 bands for every model
    QVERIFY(lm && kv);
    // Training and held-out configurations are disjoint: no configuration is in both splits.
    std::set<std::string> trainKeys;
    auto key = [](const QualityRow& r) {
        return std::to_string(r.model) + "|" + r.recipe.describe() + "|" +
               std::string(toString(r.algorithm)) + "|" + (r.lmHeadQuantized ? "lm" : "") + "|" +
               std::string(toString(r.kv));
    };
    for (const QualityRow& r : set.rows)
        if (r.split == Split::Train)
            trainKeys.insert(key(r));
    for (const QualityRow& r : set.rows)
        if (r.split == Split::Heldout)
            QVERIFY2(!trainKeys.count(key(r)), key(r).c_str());
    // Both splits hold attention-only and MLP-only recipes, so scope effects are fitted and tested.
    std::set<std::pair<Split, Scope>> scopes;
    for (const QualityRow& r : set.rows)
        for (const Band& b : r.recipe)
            if (b.format != Format::Bf16)
                scopes.insert({r.split, b.scope});
    QCOMPARE(scopes.size(), std::size_t{6});
}

void TestQualityDemo::deterministicAndCommittedFileReproduces()
{
    const Workspace ws = denseWorkspace();
    const QualitySet committed = loadQualitySet(ws.qualityFile, ws.models);
    QVERIFY(committed.synthetic && ws.qualitySynthetic);
    DemoQualityOptions opt;
    opt.seed = committed.generator["seed"].get<std::uint64_t>();
    opt.trainRows = committed.generator["train_rows"].get<int>();
    opt.bandConfigsPerModel = committed.generator["band_configs_per_model"].get<int>();
    const QualitySet again = generateDemoQualitySet(ws.models, opt, "test");
    QCOMPARE(again.rows.size(), committed.rows.size());
    for (std::size_t i = 0; i < again.rows.size(); ++i) {
        const QualityRow &a = again.rows[i], &c = committed.rows[i];
        QVERIFY(a.model == c.model && a.recipe == c.recipe && a.algorithm == c.algorithm &&
                a.lmHeadQuantized == c.lmHeadQuantized && a.kv == c.kv && a.split == c.split);
        QVERIFY(std::abs(a.rmqd - c.rmqd) <= 1e-15 * c.rmqd);
    }
    opt.seed += 1;
    const QualitySet other = generateDemoQualitySet(ws.models, opt, "test");
    QVERIFY(other.rows[0].rmqd != again.rows[0].rmqd);
}

ACSEL_TEST_APPLESS_MAIN(TestQualityDemo)
#include "test_quality_demo.moc"
