// Format facts, recipe validation, parameter counts and configuration-space counts.
#include "core/model/configspace.h"
#include "core/model/modelarch.h"
#include "testmain.h"

#include <cmath>
#include <set>

using namespace acsel;

class TestModel : public QObject
{
    Q_OBJECT
private slots:
    void formatFacts();
    void formatParsing();
    void choiceListsFollowTheTables();
    void algorithmFit();
    void recipeValidation_data();
    void recipeValidation();
    void recipeDescribe();
    void paramCounts_data();
    void paramCounts();
    void spaceCountsMatchBruteForce_data();
    void spaceCountsMatchBruteForce();
    void spaceRecipesAreLegalAndDistinct();
    void spaceBlocksPartitionTheRecipes();
};

void TestModel::formatFacts()
{
    QCOMPARE(facts(Format::Bf16).bits, 16);
    QCOMPARE(facts(Format::Nvfp4).effectiveBits, 4.5);
    QCOMPARE(facts(Format::Nvfp4).gemmBytesPerElement, 9.0 / 16.0);
    QCOMPARE(facts(Format::Int4Wo).effectiveBits, 4.25);
    QVERIFY(facts(Format::Int4Wo).granularity == Granularity::Block128);
    QVERIFY(facts(Format::Fp8).granularity == Granularity::PerTensor);
    QVERIFY(facts(Format::Int8Wo).granularity == Granularity::PerChannel);
    QCOMPARE(facts(Format::Int8).aicDtype, std::string_view("sq"));
    QCOMPARE(bitDeficit(Format::Bf16), 0.0);
    QCOMPARE(bitDeficit(Format::Fp8), 0.5);
    QCOMPARE(bitDeficit(Format::Nvfp4), 0.75);
    QVERIFY(facts(Format::Nvfp4).quantizesActivations);
    QVERIFY(!facts(Format::Int4Wo).quantizesActivations);
}

void TestModel::formatParsing()
{
    for (Format f : kAllFormats) {
        QVERIFY(parseFormat(toString(f)) == std::optional<Format>(f));
        QVERIFY(parseFormat(facts(f).aicDtype) == std::optional<Format>(f));
    }
    QVERIFY(parseFormat("bfloat16") == std::optional<Format>(Format::Bf16));
    QVERIFY(!parseFormat("fp8_static"));
    QVERIFY(!parseFormat("int3"));
    QVERIFY(parseScope("mlp") == std::optional<Scope>(Scope::Mlp));
    QVERIFY(!parseScope("ffn"));
}

void TestModel::choiceListsFollowTheTables()
{
    // Spelled out by hand: the lists messages show are the tables' names, in ladder order.
    QCOMPARE(formatChoices(), std::string("nvfp4, int4_wo, int8_wo, int8, fp8, fp8_block or bf16"));
    QCOMPARE(scopeChoices(), std::string("full, mlp or attn"));
    QCOMPARE(kvFormatChoices(), std::string("bf16 or fp8"));
    // Every name listed parses back to a distinct value.
    std::set<Format> seen;
    for (const Format f : kAllFormats)
        QVERIFY(formatChoices().find(std::string(toString(f))) != std::string::npos &&
                seen.insert(*parseFormat(toString(f))).second);
}

void TestModel::algorithmFit()
{
    QVERIFY(algorithmFits(Algorithm::SmoothQuant, Format::Int8));
    QVERIFY(!algorithmFits(Algorithm::Max, Format::Int8));
    QVERIFY(algorithmFits(Algorithm::Awq, Format::Int4Wo));
    QVERIFY(!algorithmFits(Algorithm::Awq, Format::Fp8));
    for (Algorithm a : kAllAlgorithms)
        QVERIFY(algorithmFits(a, Format::Bf16));
    // int4 AWQ mixed with fp8 has no common algorithm: not exportable.
    const auto mixed =
        BandRecipe::fromCuts(10, {5}, {{Format::Int4Wo, Scope::Full}, {Format::Fp8, Scope::Full}});
    QVERIFY(!ConfigSpace::hasFittingAlgorithm(mixed));
    const auto wo = BandRecipe::fromCuts(
        10, {5}, {{Format::Int4Wo, Scope::Full}, {Format::Int8Wo, Scope::Full}});
    QVERIFY(ConfigSpace::fittingAlgorithms(wo) == std::vector<Algorithm>{Algorithm::Gptq});
    // An all-bf16 recipe calibrates nothing: one algorithm, not four.
    QVERIFY(ConfigSpace::fittingAlgorithms(BandRecipe::uniform(4, Format::Bf16)) ==
            std::vector<Algorithm>{Algorithm::Max});
}

void TestModel::recipeValidation_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<QList<int>>("bounds"); // begin,end,format,scope per band
    QTest::addColumn<QString>("errorFragment");
    const int fp8 = static_cast<int>(Format::Fp8), bf16 = static_cast<int>(Format::Bf16),
              nv = static_cast<int>(Format::Nvfp4), full = 0, mlp = 1;
    QTest::newRow("uniform") << 36 << QList<int>{0, 36, fp8, full} << "";
    QTest::newRow("three bands") << 36 << QList<int>{0,  10,   fp8, full, 10,   28,
                                                     nv, full, 28,  36,   bf16, full}
                                 << "";
    QTest::newRow("gap") << 36 << QList<int>{0, 10, fp8, full, 11, 36, bf16, full}
                         << "starts at layer 11";
    QTest::newRow("short") << 36 << QList<int>{0, 30, fp8, full} << "model has 36 layers";
    QTest::newRow("empty band") << 36 << QList<int>{0, 0, fp8, full, 0, 36, bf16, full}
                                << "is empty";
    QTest::newRow("repeat") << 36 << QList<int>{0, 10, fp8, mlp, 10, 36, fp8, mlp} << "merge them";
    QTest::newRow("bf16 scope") << 36 << QList<int>{0, 36, bf16, mlp} << "bf16 with scope";
    QTest::newRow("none") << 36 << QList<int>{} << "1 to 3 bands";
}

void TestModel::recipeValidation()
{
    QFETCH(int, layers);
    QFETCH(QList<int>, bounds);
    QFETCH(QString, errorFragment);
    BandRecipe r;
    for (qsizetype i = 0; i + 3 < bounds.size(); i += 4)
        r.push({bounds[i], bounds[i + 1], static_cast<Format>(bounds[i + 2]),
                static_cast<Scope>(bounds[i + 3])});
    const QString err = QString::fromStdString(r.validate(layers));
    if (errorFragment.isEmpty())
        QVERIFY2(err.isEmpty(), qPrintable(err));
    else
        QVERIFY2(err.contains(errorFragment), qPrintable(err));
}

void TestModel::recipeDescribe()
{
    const auto r = BandRecipe::fromCuts(
        36, {10, 28},
        {{Format::Fp8, Scope::Full}, {Format::Nvfp4, Scope::Mlp}, {Format::Bf16, Scope::Full}});
    QCOMPARE(QString::fromStdString(r.describe()),
             QString("0-9 fp8/full | 10-27 nvfp4/mlp | 28-35 bf16"));
    QVERIFY(r.bandOf(9).format == Format::Fp8);
    QVERIFY(r.bandOf(10).format == Format::Nvfp4);
    QVERIFY(r.bandOf(35).format == Format::Bf16);
}

void TestModel::paramCounts_data()
{
    // Architectures as in the default workspace; published sizes from the model cards
    // (Qwen3: 0.6B, 1.7B, 8.2B, 32.8B; Llama 3.1: 8.03B, 70.6B).
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("hidden");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("inter");
    QTest::addColumn<int>("vocab");
    QTest::addColumn<bool>("tied");
    QTest::addColumn<bool>("qkNorm");
    QTest::addColumn<double>("published");
    QTest::newRow("Qwen3-0.6B") << 28 << 1024 << 16 << 3072 << 151936 << true << true << 0.596e9;
    QTest::newRow("Qwen3-1.7B") << 28 << 2048 << 16 << 6144 << 151936 << true << true << 1.72e9;
    QTest::newRow("Qwen3-8B") << 36 << 4096 << 32 << 12288 << 151936 << false << true << 8.19e9;
    QTest::newRow("Qwen3-32B") << 64 << 5120 << 64 << 25600 << 151936 << false << true << 32.8e9;
    QTest::newRow("Llama-3.1-8B") << 32 << 4096 << 32 << 14336 << 128256 << false << false
                                  << 8.03e9;
    QTest::newRow("Llama-3.1-70B")
        << 80 << 8192 << 64 << 28672 << 128256 << false << false << 70.6e9;
}

void TestModel::paramCounts()
{
    QFETCH(int, layers);
    QFETCH(int, hidden);
    QFETCH(int, heads);
    QFETCH(int, inter);
    QFETCH(int, vocab);
    QFETCH(bool, tied);
    QFETCH(bool, qkNorm);
    QFETCH(double, published);
    ModelArch m;
    m.layers = layers;
    m.hidden = hidden;
    m.heads = heads;
    m.kvHeads = 8;
    m.headDim = 128;
    m.intermediate = inter;
    m.vocab = vocab;
    m.tiedEmbeddings = tied;
    m.qkNorm = qkNorm;
    const double rel = std::abs(static_cast<double>(m.paramCount()) - published) / published;
    QVERIFY2(rel < 0.02, qPrintable(QString("%1 vs %2").arg(m.paramCount()).arg(published)));
}

namespace
{

// Brute force: every assignment of a (format, scope) choice to every layer, kept when it
// forms 1-3 maximal runs and some algorithm fits all of them.
std::int64_t bruteForceRecipes(int layers, const std::vector<FormatScope>& choices)
{
    std::int64_t count = 0;
    std::vector<int> pick(static_cast<std::size_t>(layers), 0);
    const auto n = static_cast<int>(choices.size());
    while (true) {
        int runs = 1;
        for (int i = 1; i < layers; ++i)
            runs += pick[static_cast<std::size_t>(i)] != pick[static_cast<std::size_t>(i - 1)];
        if (runs <= 3) {
            bool ok = false;
            for (Algorithm a : kAllAlgorithms) {
                bool all = true;
                for (int p : pick)
                    all = all && algorithmFits(a, choices[static_cast<std::size_t>(p)].format);
                ok = ok || all;
            }
            count += ok;
        }
        int i = 0;
        while (i < layers && ++pick[static_cast<std::size_t>(i)] == n)
            pick[static_cast<std::size_t>(i++)] = 0;
        if (i == layers)
            return count;
    }
}

} // namespace

void TestModel::spaceCountsMatchBruteForce_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<QList<int>>("formats");
    QTest::addColumn<int>("scopes");
    using F = Format;
    QTest::newRow("ampere 5 layers")
        << 5 << QList<int>{int(F::Int4Wo), int(F::Int8Wo), int(F::Int8), int(F::Bf16)} << 3;
    QTest::newRow("blackwell 6 layers")
        << 6 << QList<int>{int(F::Nvfp4), int(F::Fp8), int(F::Bf16)} << 3;
    QTest::newRow("full scope only")
        << 7 << QList<int>{int(F::Fp8), int(F::Int4Wo), int(F::Bf16)} << 1;
    QTest::newRow("one layer") << 1 << QList<int>{int(F::Fp8), int(F::Bf16)} << 3;
}

void TestModel::spaceCountsMatchBruteForce()
{
    QFETCH(int, layers);
    QFETCH(QList<int>, formats);
    QFETCH(int, scopes);
    SpaceOptions o;
    for (int f : formats)
        o.formats.push_back(static_cast<Format>(f));
    o.scopes.assign(kAllScopes.begin(), kAllScopes.begin() + scopes);
    const ConfigSpace space(layers, o);
    std::int64_t enumerated = 0;
    space.forEachRecipe([&](const BandRecipe&) { ++enumerated; });
    const std::int64_t brute = bruteForceRecipes(layers, space.bandChoices());
    QCOMPARE(space.recipeCount(), brute);
    QCOMPARE(enumerated, brute);

    // With batches, KV formats and algorithms: sum over enumerated recipes.
    o.batches = {1, 4, 8};
    o.kvFormats = {KvFormat::Bf16, KvFormat::Fp8};
    o.lmHeadQuantizedToo = true;
    const ConfigSpace withDims(layers, o);
    std::int64_t configs = 0;
    withDims.forEachRecipe([&](const BandRecipe& r) {
        const auto algos = static_cast<std::int64_t>(ConfigSpace::fittingAlgorithms(r).size());
        const std::int64_t lm = r[r.size() - 1].format != Format::Bf16 ? 2 : 1;
        configs += algos * 3 * 2 * lm;
    });
    QCOMPARE(withDims.configCount(), configs);
}

void TestModel::spaceRecipesAreLegalAndDistinct()
{
    SpaceOptions o;
    o.formats = {Format::Nvfp4, Format::Fp8, Format::Bf16};
    const ConfigSpace space(8, o);
    std::set<std::string> seen;
    space.forEachRecipe([&](const BandRecipe& r) {
        QVERIFY2(r.validate(8).empty(), r.validate(8).c_str());
        QVERIFY(seen.insert(r.describe()).second);
    });
    QCOMPARE(static_cast<std::int64_t>(seen.size()), space.recipeCount());
}

// forEachRecipe's blocks, against the plain enumeration: each block is the next `n` recipes,
// the first is handed to enter, within it only the boundary between the last two bands moves
// up one layer at a time, the sizes are 1 (uniform), L - 1 (two bands) and L - 1 - first cut
// (three); a skipped block (every third) leaves out exactly its recipes.
void TestModel::spaceBlocksPartitionTheRecipes()
{
    SpaceOptions o;
    o.formats = {Format::Nvfp4, Format::Fp8, Format::Bf16};
    for (int layers : {1, 2, 3, 7}) {
        const ConfigSpace space(layers, o);
        std::vector<BandRecipe> all;
        space.forEachRecipe([&](const BandRecipe& r) { all.push_back(r); });
        std::vector<BandRecipe> walked, kept;
        std::size_t at = 0;
        int blocks = 0;
        bool good = true;
        space.forEachRecipe([&](const BandRecipe& r) { walked.push_back(r); },
                            [&](const BandRecipe& first, int n) -> bool {
                                const int bands = first.size();
                                good = good && n == (bands == 1   ? 1
                                                     : bands == 2 ? layers - 1
                                                                  : layers - 1 - first[0].end);
                                good = good && at + static_cast<std::size_t>(n) <= all.size();
                                for (int k = 0; good && k < n; ++k) {
                                    BandRecipe moved = first;
                                    if (bands > 1)
                                        moved[bands - 2].end = moved[bands - 1].begin =
                                            first[bands - 1].begin + k;
                                    good = all[at + static_cast<std::size_t>(k)] == moved;
                                }
                                const bool walk = blocks++ % 3 != 1;
                                if (good && walk)
                                    kept.insert(kept.end(), all.begin() + static_cast<long>(at),
                                                all.begin() + static_cast<long>(at) + n);
                                at += static_cast<std::size_t>(n);
                                return walk;
                            });
        QVERIFY(good);
        QCOMPARE(at, all.size());
        QVERIFY(blocks > 0);
        QVERIFY(walked == kept); // every recipe but those of every third block, in order
    }
}

ACSEL_TEST_APPLESS_MAIN(TestModel)
#include "test_model.moc"
