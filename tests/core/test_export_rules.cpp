// The exportability rules (docs/EXPORT.md#exportability-rules): one message per violation, the fast
// check agreeing with the messages and with the rules restated independently over every
// configuration of a small model, the search space producing only exportable recipes, and no
// allocation on the fast path.
#include "core/data/hfconfig.h"
#include "core/export/exportability.h"
#include "core/model/configspace.h"
#include "test_export_fixtures.h"
#include "testmain.h"

#include <atomic>
#include <cstdlib>
#include <new>
#include <nlohmann/json.hpp>
#include <set>

// Counts every allocation of this test binary, to check that the fast path makes none.
namespace
{
std::atomic<long> gAllocations{0};
}
void* operator new(std::size_t n)
{
    ++gAllocations;
    if (void* p = std::malloc(n == 0 ? 1 : n))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept
{
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept
{
    std::free(p);
}

using namespace acsel;
using namespace exporttest;

namespace
{

Stack makeStack(std::vector<Format> formats, bool kvFp8)
{
    Stack s;
    s.id = "test_gpu/trtllm";
    s.formats = std::move(formats);
    s.kvFp8 = kvFp8;
    return s;
}

// EXPORT.md's calibration rule, restated: which algorithm calibrates which format.
bool fits(Algorithm a, Format f)
{
    switch (f) {
    case Format::Bf16:
        return true;
    case Format::Int8:
        return a == Algorithm::SmoothQuant;
    case Format::Int4Wo:
        return a == Algorithm::Awq || a == Algorithm::Gptq;
    case Format::Int8Wo:
        return a == Algorithm::Max || a == Algorithm::Gptq;
    default:
        return a == Algorithm::Max; // fp8, fp8_block, nvfp4
    }
}

bool expectedExportable(const ModelArch& arch, const Config& c, const Stack* s)
{
    bool allBf16 = true;
    for (const Band& b : c.recipe) {
        if (s && std::find(s->formats.begin(), s->formats.end(), b.format) == s->formats.end())
            return false;
        if (!fits(c.algorithm, b.format))
            return false;
        allBf16 = allBf16 && b.format == Format::Bf16;
    }
    if (allBf16 && c.algorithm != Algorithm::Max)
        return false;
    const Band& last = c.recipe[c.recipe.size() - 1];
    if (c.lmHeadQuantized && (last.format == Format::Bf16 || arch.tiedEmbeddings))
        return false;
    return !(c.kv == KvFormat::Fp8 && s && !s->kvFp8);
}

// Every canonical 1-3 band recipe of a 4-layer model over all formats and scopes, including
// those no algorithm can calibrate (the search never makes them; a hand edit can).
std::vector<BandRecipe> allRecipes(int L)
{
    std::vector<std::pair<Format, Scope>> choices{{Format::Bf16, Scope::Full}};
    for (Format f : kAllFormats)
        if (f != Format::Bf16)
            for (Scope s : kAllScopes)
                choices.push_back({f, s});
    std::vector<BandRecipe> out;
    const auto n = choices.size();
    for (std::size_t a = 0; a < n; ++a) {
        out.push_back(BandRecipe::fromCuts(L, {}, {choices[a]}));
        for (int c1 = 1; c1 < L; ++c1)
            for (std::size_t b = 0; b < n; ++b) {
                if (b == a)
                    continue;
                out.push_back(BandRecipe::fromCuts(L, {c1}, {choices[a], choices[b]}));
                for (int c2 = c1 + 1; c2 < L; ++c2)
                    for (std::size_t c = 0; c < n; ++c)
                        if (c != b)
                            out.push_back(BandRecipe::fromCuts(
                                L, {c1, c2}, {choices[a], choices[b], choices[c]}));
            }
    }
    return out;
}

} // namespace

class TestExportRules : public QObject
{
    Q_OBJECT
private slots:
    void eachRuleSaysWhy_data();
    void eachRuleSaysWhy();
    void fastCheckAgreesWithMessagesAndRules();
    void searchSpaceIsExportable();
    void fastCheckDoesNotAllocate();
    void moeWidthsMeetBlockSizes();
};

void TestExportRules::eachRuleSaysWhy_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("count");
    QTest::newRow("gap") << 0 << "recipe: band 2 starts at layer 3, expected 2" << 1;
    QTest::newRow("stack format")
        << 1
        << "band 1 (layers 0-1, fp8) uses fp8, which test_gpu/trtllm cannot run (its formats: "
           "int4_wo, int8_wo, int8, bf16)"
        << 1;
    QTest::newRow("algorithm") << 2
                               << "band 1 (layers 0-1, int8) needs smoothquant calibration, but "
                                  "the recipe's one global algorithm is max"
                               << 1;
    QTest::newRow("nothing to calibrate") << 3
                                          << "nothing is quantized, so there is nothing to "
                                             "calibrate: the algorithm must be max, not awq"
                                          << 1;
    QTest::newRow("lm_head bf16") << 4
                                  << "lm_head is quantized at the last band's format, but the "
                                     "last band (layers 2-3) is bf16"
                                  << 1;
    QTest::newRow("lm_head tied") << 5 << "tie_word_embeddings" << 1;
    QTest::newRow("nvfp4 block")
        << 6
        << "band 1 (layers 0-3, nvfp4): down_proj has 100 input features, not a multiple of "
           "the nvfp4 block size 16"
        << 1;
    QTest::newRow("int4 block") << 7
                                << "band 1 (layers 0-3, int4_wo): gate_proj has 200 input "
                                   "features, not a multiple of the int4_wo block size 128"
                                << 2; // gate_proj and up_proj
    QTest::newRow("kv fp8") << 8
                            << "the KV cache is fp8, but test_gpu/trtllm has no fp8 KV-cache "
                               "attention"
                            << 1;
}

void TestExportRules::eachRuleSaysWhy()
{
    QFETCH(int, which);
    QFETCH(QString, message);
    QFETCH(int, count);
    ModelArch arch = tinyArch();
    const Stack ampere =
        makeStack({Format::Int4Wo, Format::Int8Wo, Format::Int8, Format::Bf16}, false);
    const Stack* stack = nullptr;
    Config c = makeConfig(4, {2}, {{Format::Fp8, Scope::Full}, {Format::Bf16, Scope::Full}},
                          Algorithm::Max, KvFormat::Bf16);
    switch (which) {
    case 0:
        c.recipe = BandRecipe{};
        c.recipe.push({0, 2, Format::Fp8, Scope::Full});
        c.recipe.push({3, 4, Format::Bf16, Scope::Full});
        break;
    case 1:
        stack = &ampere;
        break;
    case 2:
        c.recipe[0].format = Format::Int8;
        break;
    case 3:
        c.recipe = BandRecipe::uniform(4, Format::Bf16);
        c.algorithm = Algorithm::Awq;
        break;
    case 4:
        c.lmHeadQuantized = true;
        break;
    case 5:
        c.recipe = BandRecipe::uniform(4, Format::Fp8);
        c.lmHeadQuantized = true;
        arch.tiedEmbeddings = true;
        break;
    case 6:
        c.recipe = BandRecipe::uniform(4, Format::Nvfp4, Scope::Mlp);
        arch.intermediate = 100;
        break;
    case 7:
        c.recipe = BandRecipe::uniform(4, Format::Int4Wo, Scope::Mlp);
        c.algorithm = Algorithm::Awq;
        arch.hidden = 200;
        break;
    case 8:
        c.recipe = BandRecipe::uniform(4, Format::Int8Wo);
        c.kv = KvFormat::Fp8;
        stack = &ampere;
        break;
    }
    const auto problems = exportProblems(arch, c, stack);
    QCOMPARE(static_cast<int>(problems.size()), count);
    QVERIFY2(problems[0].find(message.toStdString()) != std::string::npos, problems[0].c_str());
    QVERIFY(!isExportable(arch, c, stack));
}

void TestExportRules::fastCheckAgreesWithMessagesAndRules()
{
    const ModelArch arch = tinyArch();
    ModelArch tied = arch;
    tied.tiedEmbeddings = true;
    const Stack noFp8Block = makeStack(
        {Format::Nvfp4, Format::Int4Wo, Format::Int8Wo, Format::Int8, Format::Fp8, Format::Bf16},
        false);
    const std::vector<BandRecipe> recipes = allRecipes(4);
    QCOMPARE(recipes.size(), std::size_t{19 + 3 * 19 * 18 + 3 * 19 * 18 * 18});
    long exportable = 0, checked = 0;
    for (std::size_t ri = 0; ri < recipes.size(); ++ri)
        for (Algorithm a : kAllAlgorithms)
            for (KvFormat kv : {KvFormat::Bf16, KvFormat::Fp8})
                for (bool lm : {false, true})
                    for (const Stack* s : {static_cast<const Stack*>(nullptr), &noFp8Block}) {
                        Config c;
                        const BandRecipe& r = recipes[ri];
                        c.recipe = r;
                        c.algorithm = a;
                        c.kv = kv;
                        c.lmHeadQuantized = lm;
                        const ModelArch& m = (ri % 2) ? tied : arch; // half the recipes tied
                        const bool want = expectedExportable(m, c, s);
                        const auto problems = exportProblems(m, c, s);
                        ++checked;
                        exportable += want;
                        if (isExportable(m, c, s) != want || problems.empty() != want)
                            QFAIL(qPrintable(QString::fromStdString(
                                r.describe() + " / " + std::string(toString(a)) + ": expected " +
                                (want ? "exportable" : "not exportable"))));
                        const std::set<std::string> unique(problems.begin(), problems.end());
                        QCOMPARE(unique.size(), problems.size()); // one message per violation
                    }
    QVERIFY(exportable > 1000 && exportable < checked / 2);
}

void TestExportRules::searchSpaceIsExportable()
{
    const ModelArch arch = workspaceModel("Qwen3-8B");
    const Stack ampere =
        makeStack({Format::Int4Wo, Format::Int8Wo, Format::Int8, Format::Bf16}, false);
    SpaceOptions o;
    o.formats = ampere.formats;
    const ConfigSpace space(arch.layers, o);
    std::int64_t recipes = 0, configs = 0;
    space.forEachRecipe([&](const BandRecipe& r) {
        ++recipes;
        for (Algorithm a : ConfigSpace::fittingAlgorithms(r)) {
            Config c;
            c.recipe = r;
            c.algorithm = a;
            ++configs;
            if (!isExportable(arch, c, &ampere))
                QFAIL(qPrintable(
                    QString::fromStdString("search space recipe not exportable: " + r.describe())));
        }
    });
    QCOMPARE(recipes, space.recipeCount());
    QVERIFY(configs >= recipes);
}

void TestExportRules::fastCheckDoesNotAllocate()
{
    const ExportInput in = acceptanceInput();
    const Stack blackwell =
        makeStack({Format::Nvfp4, Format::Fp8, Format::Fp8Block, Format::Bf16}, true);
    Config c = in.config;
    c.lmHeadQuantized = false;
    QVERIFY(isExportable(in.arch, c, &blackwell));
    const long before = gAllocations.load();
    bool all = true;
    for (int i = 0; i < 1000; ++i)
        all = isExportable(in.arch, c, &blackwell) && all;
    QCOMPARE(gAllocations.load() - before, 0L);
    QVERIFY(all);
    // Nor does a rejection (here: the algorithm does not fit the fp8 and nvfp4 bands).
    c.algorithm = Algorithm::Awq;
    const long rejectBefore = gAllocations.load();
    QVERIFY(!isExportable(in.arch, c, &blackwell));
    QCOMPARE(gAllocations.load() - rejectBefore, 0L);
    // The counter works: the message-producing path allocates.
    const long mid = gAllocations.load();
    QVERIFY(!exportProblems(in.arch, c, &blackwell).empty());
    QVERIFY(gAllocations.load() > mid);
}

// An MoE layer's MLP linears are its routed experts' and its shared expert's: each width
// must meet a block format's block size. A hand-made qwen2_moe config: hidden 256, dense MLP
// 512 (layers 0, 2), routed experts of 128 and a shared expert of 200 (layers 1, 3).
void TestExportRules::moeWidthsMeetBlockSizes()
{
    const auto arch = [](int shared) {
        return parseHfConfig(nlohmann::json::parse(
                                 R"({"model_type": "qwen2_moe", "num_hidden_layers": 4,
            "hidden_size": 256, "num_attention_heads": 4, "num_key_value_heads": 2,
            "head_dim": 64, "intermediate_size": 512, "moe_intermediate_size": 128,
            "num_experts": 4, "num_experts_per_tok": 2, "decoder_sparse_step": 2,
            "vocab_size": 10, "shared_expert_intermediate_size": )" +
                                 std::to_string(shared) + "}"),
                             "config.json");
    };
    const ModelArch a = arch(200);
    // The messages, one per line, after checking that the fast check agrees with them.
    const auto problems = [](const ModelArch& m, const Config& c) {
        std::string out;
        for (const std::string& p : exportProblems(m, c))
            out += p + "\n";
        return out.empty() == isExportable(m, c) ? out : "fast check disagrees: " + out;
    };
    // nvfp4 experts: gate/up read hidden 256 (16 x 16), the routed experts' down 128 (8 x 16),
    // the dense down 512; the shared expert's down reads 200 = 12.5 x 16.
    const Config nvfp4 =
        makeConfig(4, {}, {{Format::Nvfp4, Scope::Mlp}}, Algorithm::Max, KvFormat::Bf16);
    QCOMPARE(problems(a, nvfp4),
             std::string("band 1 (layers 0-3, nvfp4): the shared expert's down_proj has 200 "
                         "input features, not a multiple of the nvfp4 block size 16\n"));
    // Attention only, or a band of dense layers only: no shared expert quantized.
    QCOMPARE(problems(a, makeConfig(4, {}, {{Format::Nvfp4, Scope::Attn}}, Algorithm::Max,
                                    KvFormat::Bf16)),
             std::string());
    QCOMPARE(
        problems(a, makeConfig(4, {1}, {{Format::Nvfp4, Scope::Full}, {Format::Bf16, Scope::Full}},
                               Algorithm::Max, KvFormat::Bf16)),
        std::string());
    // A shared expert of 208 = 13 x 16 passes nvfp4 but not int4_wo's 128 (routed 128 does).
    const ModelArch b = arch(208);
    QCOMPARE(problems(b, nvfp4), std::string());
    QCOMPARE(problems(b, makeConfig(4, {}, {{Format::Int4Wo, Scope::Mlp}}, Algorithm::Awq,
                                    KvFormat::Bf16)),
             std::string("band 1 (layers 0-3, int4_wo): the shared expert's down_proj has 208 "
                         "input features, not a multiple of the int4_wo block size 128\n"));
    // Without a shared expert the same band exports.
    ModelArch none = a;
    none.moe.sharedIntermediate = 0;
    QCOMPARE(problems(none, nvfp4), std::string());
}

ACSEL_TEST_APPLESS_MAIN(TestExportRules)
#include "test_export_rules.moc"
