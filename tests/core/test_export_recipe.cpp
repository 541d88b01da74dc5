// The issue's acceptance checks on the 3-band Qwen3-8B recipe (0-9 fp8, 10-27 nvfp4, 28-35
// bf16, KV fp8): the YAML read back with yaml-cpp entry by entry, every glob matched against
// the model's full module list, the hf_quant_config preview's exact layer set, the refusal of
// int4 AWQ mixed with fp8, and export -> parse -> rebuild -> identical configuration.
#include "core/data/loaderror.h"
#include "core/export/exportability.h"
#include "core/export/exporter.h"
#include "core/export/fnmatch.h"
#include "core/export/hfquantconfig.h"
#include "core/export/modeloptjson.h"
#include "core/export/modeloptyaml.h"
#include "core/export/modulenames.h"
#include "core/export/quantcfg.h"
#include "core/export/recipereader.h"
#include "core/latency/memorymodel.h"
#include "modelfixtures.h"
#include "test_export_fixtures.h"
#include "testmain.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <yaml-cpp/yaml.h>

using namespace acsel;
using namespace exporttest;

namespace
{

const char* const kAttn[] = {"q_proj", "k_proj", "v_proj", "o_proj"};
const char* const kMlp[] = {"gate_proj", "up_proj", "down_proj"};

// The quantized linears of the acceptance recipe, spelled out independently of the exporter.
std::set<std::string> expectedQuantizedLinears()
{
    std::set<std::string> out;
    for (int i = 0; i < 28; ++i) {
        for (const char* p : kAttn)
            out.insert("model.layers." + std::to_string(i) + ".self_attn." + p);
        for (const char* p : kMlp)
            out.insert("model.layers." + std::to_string(i) + ".mlp." + p);
    }
    return out;
}

int layerOf(const std::string& name)
{
    static const std::regex re(R"(^model\.layers\.(\d+)\.)");
    std::smatch m;
    return std::regex_search(name, m, re) ? std::stoi(m[1]) : -1;
}

bool isFp8(const YAML::Node& cfg)
{
    return cfg.size() == 2 && cfg["num_bits"].as<std::string>() == "e4m3" && cfg["axis"].IsNull();
}

bool isNvfp4(const YAML::Node& cfg)
{
    const YAML::Node b = cfg["block_sizes"];
    return cfg.size() == 2 && cfg["num_bits"].as<std::string>() == "e2m1" && b.size() == 3 &&
           b[-1].as<int>() == 16 && b["type"].as<std::string>() == "dynamic" &&
           b["scale_bits"].as<std::string>() == "e4m3";
}

std::string withoutLine(std::string text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    if (at == std::string::npos)
        throw std::runtime_error("test: text not found: " + from);
    return text.replace(at, from.size(), to);
}

} // namespace

class TestExportRecipe : public QObject
{
    Q_OBJECT
private slots:
    void yamlHasOneEnabledWeightEntryPerQuantizedLinear();
    void everyGlobMatchesOnlyWhatItMeans();
    void hfPreviewListsExactlyTheQuantizedLinears();
    void singleFormatPreviewUsesExcludeModules();
    void int4AwqMixedWithFp8IsRefused();
    void roundTrip_data();
    void roundTrip();
    void readerRefusesWhatIsNoBandRecipe();
    void moeExpertsQuantizedPerBandRouterNever_data();
    void moeExpertsQuantizedPerBandRouterNever();
    void moeMemoryPricesWhatIsExported();
    void sharedExpertFollowsExpertsScope();
};

void TestExportRecipe::yamlHasOneEnabledWeightEntryPerQuantizedLinear()
{
    const ExportInput in = acceptanceInput();
    const YAML::Node root = YAML::Load(exportText(ExportFormat::ModelOptYaml, in));
    QCOMPARE(root.size(), std::size_t{2});
    QCOMPARE(root["metadata"]["recipe_type"].as<std::string>(), std::string("ptq"));
    const std::string description = root["metadata"]["description"].as<std::string>();
    for (const char* part : {"acsel-studio " ACSEL_VERSION, "Qwen/Qwen3-8B",
                             "0-9 fp8/full | 10-27 nvfp4/full | 28-35 bf16", "b200_sxm/trtllm",
                             "concurrency 8", "TTFT 412.3 ms", "TPOT 21.7 ms", "RMQD 0.0123"})
        QVERIFY2(description.find(part) != std::string::npos, part);
    QCOMPARE(root["metadata"].size(), std::size_t{2}); // ModelOpt forbids other keys
    const YAML::Node q = root["quantize"];
    QCOMPARE(q.size(), std::size_t{2});
    QCOMPARE(q["algorithm"].as<std::string>(), std::string("max"));
    const YAML::Node list = q["quant_cfg"];

    // Disable-all first.
    QCOMPARE(list[0].size(), std::size_t{2});
    QCOMPARE(list[0]["quantizer_name"].as<std::string>(), std::string("*"));
    QCOMPARE(list[0]["enable"].as<bool>(), false);

    std::map<std::string, int> weights, inputs;
    int kvEntries = 0;
    bool lmHeadDisabled = false;
    for (std::size_t i = 1; i < list.size(); ++i) {
        const YAML::Node e = list[i];
        const std::string name = e["quantizer_name"].as<std::string>();
        const bool enabled = !e["enable"] || e["enable"].as<bool>();
        QVERIFY2(layerOf(name) < 28, name.c_str()); // nothing for the bf16 band 28-35
        if (name.find("lm_head") != std::string::npos) {
            QVERIFY2(!e["cfg"] && !enabled, "lm_head must stay disabled");
            lmHeadDisabled = true;
            continue;
        }
        if (name.find("bmm") != std::string::npos) {
            ++kvEntries;
            QCOMPARE(name, std::string("*[kv]_bmm_quantizer"));
            QCOMPARE(e["cfg"].size(), std::size_t{1});
            QCOMPARE(e["cfg"]["num_bits"].as<std::string>(), std::string("e4m3"));
            continue;
        }
        QVERIFY2(enabled && e["cfg"], name.c_str());
        const int layer = layerOf(name);
        const YAML::Node cfg = e["cfg"];
        QVERIFY2(layer < 10 ? isFp8(cfg) : isNvfp4(cfg), name.c_str());
        const std::string suffixW = ".weight_quantizer", suffixI = ".input_quantizer";
        if (name.ends_with(suffixW))
            ++weights[name.substr(0, name.size() - suffixW.size())];
        else if (name.ends_with(suffixI))
            ++inputs[name.substr(0, name.size() - suffixI.size())];
        else
            QFAIL(qPrintable(QString::fromStdString("unexpected entry " + name)));
    }
    const std::set<std::string> expected = expectedQuantizedLinears();
    QCOMPARE(expected.size(), std::size_t{28 * 7});
    QCOMPARE(weights.size(), expected.size());
    for (const auto& [linear, count] : weights) {
        QVERIFY2(expected.count(linear) == 1, linear.c_str());
        QCOMPARE(count, 1);
    }
    QCOMPARE(inputs.size(), expected.size()); // W8A8 and W4A4: inputs quantized alike
    QCOMPARE(kvEntries, 1);
    QVERIFY(lmHeadDisabled);
    QCOMPARE(list.size(), std::size_t{1 + 2 * 28 * 7 + 1 + 1});
}

void TestExportRecipe::everyGlobMatchesOnlyWhatItMeans()
{
    const ExportInput in = acceptanceInput();
    const std::vector<std::string> modules = moduleNames(in.arch);
    // Per layer: the layer, self_attn, q/k/v/o with 3 quantizers each, q_norm, k_norm, 4
    // attention quantizers, mlp, gate/up/down with 3 quantizers each, act_fn, 2 norms (40);
    // plus model, embed_tokens, layers, norm, rotary_emb and lm_head with 3 quantizers.
    QCOMPARE(modules.size(), std::size_t{36 * 40 + 9});

    std::set<std::string> kv,
        lmHead{"lm_head.input_quantizer", "lm_head.output_quantizer", "lm_head.weight_quantizer"};
    for (int i = 0; i < 36; ++i)
        for (const char* q : {"k_bmm_quantizer", "v_bmm_quantizer"})
            kv.insert("model.layers." + std::to_string(i) + ".self_attn." + q);
    auto intended = [&](const std::string& pattern) -> std::set<std::string> {
        if (pattern == "*")
            return {modules.begin(), modules.end()};
        if (pattern == "*[kv]_bmm_quantizer")
            return kv;
        if (pattern == "lm_head.*")
            return lmHead;
        return {pattern}; // an explicit module name means exactly that module
    };
    auto matched = [&](const std::string& pattern) {
        std::set<std::string> out;
        for (const std::string& m : modules)
            if (fnmatchCase(pattern, m))
                out.insert(m);
        return out;
    };
    const YAML::Node list =
        YAML::Load(exportText(ExportFormat::ModelOptYaml, in))["quantize"]["quant_cfg"];
    for (const YAML::Node& e : list) {
        const std::string p = e["quantizer_name"].as<std::string>();
        QVERIFY2(matched(p) == intended(p), p.c_str());
    }
    // The check has teeth: the pitfall glob for "layer 1" hits layers 10-19 too.
    const std::set<std::string> pitfall = matched("*layers.1*");
    QVERIFY(pitfall.count("model.layers.13.mlp.up_proj.weight_quantizer") == 1);
}

void TestExportRecipe::hfPreviewListsExactlyTheQuantizedLinears()
{
    const auto j =
        nlohmann::json::parse(exportText(ExportFormat::HfQuantConfig, acceptanceInput()));
    QVERIFY(j.contains("preview_note")); // says it is a preview, not a checkpoint file
    QCOMPARE(j["producer"]["name"].get<std::string>(), std::string("modelopt"));
    const auto& q = j["quantization"];
    QCOMPARE(q["quant_algo"].get<std::string>(), std::string("MIXED_PRECISION"));
    QCOMPARE(q["kv_cache_quant_algo"].get<std::string>(), std::string("FP8"));
    const auto& layers = q["quantized_layers"];
    std::set<std::string> names;
    for (auto it = layers.begin(); it != layers.end(); ++it) {
        names.insert(it.key());
        const nlohmann::json want =
            layerOf(it.key()) < 10 ? nlohmann::json{{"quant_algo", "FP8"}}
                                   : nlohmann::json{{"quant_algo", "NVFP4"}, {"group_size", 16}};
        QVERIFY2(it.value() == want, it.key().c_str());
    }
    QVERIFY(names == expectedQuantizedLinears());
}

void TestExportRecipe::singleFormatPreviewUsesExcludeModules()
{
    ExportInput in = acceptanceInput();
    in.config = makeConfig(36, {30}, {{Format::Int4Wo, Scope::Mlp}, {Format::Bf16, Scope::Full}},
                           Algorithm::Awq, KvFormat::Bf16);
    const auto q =
        nlohmann::json::parse(exportText(ExportFormat::HfQuantConfig, in))["quantization"];
    QCOMPARE(q["quant_algo"].get<std::string>(), std::string("W4A16_AWQ"));
    QCOMPARE(q["group_size"].get<int>(), 128);
    QVERIFY(q["kv_cache_quant_algo"].is_null());
    QVERIFY(!q.contains("quantized_layers"));
    // Excluded: the 4 attention linears of layers 0-29, all 7 of layers 30-35, and lm_head.
    std::set<std::string> want{"lm_head"};
    for (int i = 0; i < 36; ++i) {
        for (const char* p : kAttn)
            want.insert("model.layers." + std::to_string(i) + ".self_attn." + p);
        if (i >= 30)
            for (const char* p : kMlp)
                want.insert("model.layers." + std::to_string(i) + ".mlp." + p);
    }
    const auto excluded = q["exclude_modules"].get<std::vector<std::string>>();
    QVERIFY(std::is_sorted(excluded.begin(), excluded.end()));
    QVERIFY(std::set<std::string>(excluded.begin(), excluded.end()) == want);
    QCOMPARE(excluded.size(), want.size());
}

void TestExportRecipe::int4AwqMixedWithFp8IsRefused()
{
    ExportInput in = acceptanceInput();
    for (Algorithm a : kAllAlgorithms) {
        in.config =
            makeConfig(36, {18}, {{Format::Int4Wo, Scope::Full}, {Format::Fp8, Scope::Full}}, a,
                       KvFormat::Bf16);
        const auto problems = exportProblems(in.arch, in.config);
        QVERIFY2(!problems.empty(), "no single algorithm calibrates int4_wo and fp8 together");
        QVERIFY(!isExportable(in.arch, in.config));
        try {
            (void)exportText(ExportFormat::ModelOptYaml, in);
            QFAIL("exportText accepted a mixed AWQ/fp8 recipe");
        } catch (const ExportError& e) {
            QVERIFY(e.problems() == problems);
        }
    }
    in.config.algorithm = Algorithm::Awq;
    const auto problems = exportProblems(in.arch, in.config);
    QCOMPARE(problems.size(), std::size_t{1});
    QCOMPARE(problems[0], std::string("band 2 (layers 18-35, fp8) needs max calibration, but the "
                                      "recipe's one global algorithm is awq (ModelOpt calibrates "
                                      "the whole model with one algorithm: SmoothQuant or AWQ "
                                      "bands cannot be mixed with fp8/nvfp4 bands)"));
    in.config.algorithm = Algorithm::Max;
    QCOMPARE(exportProblems(in.arch, in.config)[0].rfind("band 1 (layers 0-17, int4_wo) needs awq "
                                                         "or gptq calibration",
                                                         0),
             std::size_t{0});
}

void TestExportRecipe::roundTrip_data()
{
    QTest::addColumn<int>("which");
    const char* names[] = {"acceptance 3-band",           "int4 awq mlp + bf16",
                           "int8 sq attn | full",         "int8_wo gptq + lm_head",
                           "fp8_block + lm_head, kv fp8", "all bf16, kv fp8",
                           "nvfp4 attn | fp8 mlp | nvfp4"};
    for (int i = 0; i < 7; ++i)
        QTest::newRow(names[i]) << i;
}

void TestExportRecipe::roundTrip()
{
    QFETCH(int, which);
    ExportInput in = acceptanceInput();
    const int L = 36;
    switch (which) {
    case 0:
        break;
    case 1:
        in.config = makeConfig(L, {20}, {{Format::Int4Wo, Scope::Mlp}, {Format::Bf16, Scope::Full}},
                               Algorithm::Awq, KvFormat::Bf16, false, 16);
        break;
    case 2:
        in.config = makeConfig(L, {5}, {{Format::Int8, Scope::Attn}, {Format::Int8, Scope::Full}},
                               Algorithm::SmoothQuant, KvFormat::Fp8);
        break;
    case 3:
        in.config = makeConfig(L, {}, {{Format::Int8Wo, Scope::Full}}, Algorithm::Gptq,
                               KvFormat::Bf16, true);
        break;
    case 4:
        in.config =
            makeConfig(L, {1}, {{Format::Bf16, Scope::Full}, {Format::Fp8Block, Scope::Full}},
                       Algorithm::Max, KvFormat::Fp8, true, 1);
        break;
    case 5:
        in.config = makeConfig(L, {}, {{Format::Bf16, Scope::Full}}, Algorithm::Max, KvFormat::Fp8);
        break;
    case 6:
        in.config = makeConfig(
            L, {3, 33},
            {{Format::Nvfp4, Scope::Attn}, {Format::Fp8, Scope::Mlp}, {Format::Nvfp4, Scope::Full}},
            Algorithm::Max, KvFormat::Fp8, true);
        break;
    }
    const int model = workspaceModelIndex("Qwen3-8B");
    in.config.model = model;
    QVERIFY(isExportable(in.arch, in.config));
    const RecipeReadback yaml =
        readModelOptRecipeYaml(exportText(ExportFormat::ModelOptYaml, in), in.arch, "recipe.yaml");
    QVERIFY(yaml.plan == planOf(in.config, L));
    QVERIFY(configFromPlan(yaml.plan, in.arch, model, in.config.batch, "recipe.yaml") == in.config);
    QCOMPARE(yaml.description, describeExport(in));
    const QuantPlan json = readModelOptQuantCfgJson(exportText(ExportFormat::ModelOptJson, in),
                                                    in.arch, "quant_cfg.json");
    QVERIFY(configFromPlan(json, in.arch, model, in.config.batch, "quant_cfg.json") == in.config);
}

void TestExportRecipe::readerRefusesWhatIsNoBandRecipe()
{
    const ExportInput in = acceptanceInput();
    const std::string yaml = exportText(ExportFormat::ModelOptYaml, in);
    auto refusal = [&](const std::string& text) -> std::string {
        try {
            const RecipeReadback r = readModelOptRecipeYaml(text, in.arch, "edited.yaml");
            (void)configFromPlan(r.plan, in.arch, 2, 8, "edited.yaml");
        } catch (const LoadError& e) {
            return e.file() == "edited.yaml" ? e.message() : "wrong file: " + e.file();
        }
        return {};
    };
    auto has = [](const std::string& s, const char* part) {
        return s.find(part) != std::string::npos;
    };
    // k_proj of layer 3 moved to nvfp4 while q/v stay fp8: fused group split.
    const std::string k3 = "'model.layers.3.self_attn.k_proj.weight_quantizer'\n      cfg: "
                           "{num_bits: e4m3, axis: null}";
    const std::string split = withoutLine(
        yaml, k3,
        "'model.layers.3.self_attn.k_proj.weight_quantizer'\n      cfg: {num_bits: e2m1, "
        "block_sizes: {-1: 16, type: dynamic, scale_bits: e4m3}}");
    const std::string splitWhy = refusal(withoutLine(
        split,
        "'model.layers.3.self_attn.k_proj.input_quantizer'\n      cfg: {num_bits: e4m3, axis: "
        "null}",
        "'model.layers.3.self_attn.k_proj.input_quantizer'\n      cfg: {num_bits: e2m1, "
        "block_sizes: {-1: 16, type: dynamic, scale_bits: e4m3}}"));
    QVERIFY2(has(splitWhy, "layer 3: q_proj, k_proj and v_proj are fp8, nvfp4 and fp8"),
             splitWhy.c_str());
    // Weight nvfp4 with an fp8 input quantizer is no format of ours.
    QVERIFY(has(refusal(split), "match no supported format"));
    // One layer's KV-cache quantizer switched off: two KV formats.
    QVERIFY(has(refusal(yaml + "    - quantizer_name: 'model.layers.5.self_attn.k_bmm_quantizer'\n"
                               "      enable: false\n"),
                "one KV-cache format"));
    // No disable-all entry: untouched quantizers keep ModelOpt's default int8 config.
    QVERIFY(has(refusal(withoutLine(yaml, "    - quantizer_name: '*'\n      enable: false\n", "")),
                "default attributes"));
    // An attribute we never write.
    QVERIFY(has(refusal(withoutLine(yaml, "{num_bits: e4m3, axis: null}",
                                    "{num_bits: e4m3, axis: null, fake_quant: true}")),
                "unsupported key 'fake_quant'"));
    // Five bands and an lm_head unlike the last band, straight from a plan.
    QuantPlan p = planOf(in.config, 36);
    p.layers[20].fill(Format::Fp8);
    std::vector<std::string> problems;
    QVERIFY(!recipeOfPlan(p, problems));
    QCOMPARE(problems.size(), std::size_t{1});
    QVERIFY2(has(problems[0], "form 5 bands") && has(problems[0], "at most 3"),
             problems[0].c_str());
    p = planOf(in.config, 36);
    p.lmHead = Format::Fp8;
    problems.clear();
    QVERIFY(!recipeOfPlan(p, problems));
    QVERIFY(has(problems[0], "lm_head is fp8 but the last band is bf16"));
}

namespace
{

// The tensor names of an MoE model's quantizers, written out from its config numbers alone
// (Hugging Face's module layout: Qwen3-MoE's mlp.experts.E.{gate,up,down}_proj and router
// mlp.gate; Mixtral's block_sparse_moe.experts.E.w1/w2/w3 and router block_sparse_moe.gate),
// sorted. role: "attn", "expert" or "router"; layer of each.
struct MoeName {
    std::string name;
    std::string role;
    int layer;
    bool weight; // a weight_quantizer
};

std::vector<MoeName> moeQuantizerNames(int layers, int experts, bool mixtral)
{
    std::vector<MoeName> out;
    const std::string block = mixtral ? ".block_sparse_moe" : ".mlp";
    const std::vector<std::string> expertLinears =
        mixtral ? std::vector<std::string>{"w1", "w2", "w3"}
                : std::vector<std::string>{"gate_proj", "up_proj", "down_proj"};
    auto add = [&](const std::string& module, const std::string& role, int layer) {
        for (const char* q : {"weight_quantizer", "input_quantizer", "output_quantizer"})
            out.push_back({module + "." + q, role, layer, std::string(q) == "weight_quantizer"});
    };
    for (int i = 0; i < layers; ++i) {
        const std::string layer = "model.layers." + std::to_string(i);
        for (const char* p : kAttn)
            add(layer + ".self_attn." + p, "attn", i);
        add(layer + block + ".gate", "router", i);
        for (int e = 0; e < experts; ++e)
            for (const std::string& l : expertLinears)
                add(layer + block + ".experts." + std::to_string(e) + "." + l, "expert", i);
    }
    std::sort(out.begin(), out.end(),
              [](const MoeName& a, const MoeName& b) { return a.name < b.name; });
    return out;
}

// The names a glob matches: a match starts with the glob's literal prefix, so only the names
// from that prefix on in sorted order are tried.
template <class Visit>
void forEachMatch(const std::vector<MoeName>& names, const std::string& pattern, Visit&& visit)
{
    const std::string prefix = pattern.substr(0, pattern.find_first_of("*?["));
    auto it = std::lower_bound(names.begin(), names.end(), prefix,
                               [](const MoeName& n, const std::string& p) { return n.name < p; });
    for (; it != names.end() && it->name.starts_with(prefix); ++it)
        if (fnmatchCase(pattern, it->name))
            visit(*it);
}

ModelArch tinyMixtral()
{
    ModelArch a = acsel::test::tinyArch(4);
    a.name = "tiny-mixtral-4L-synthetic";
    a.hfId = "acsel-test/tiny-mixtral-4L-synthetic";
    a.family = "mixtral";
    a.intermediate = 0;
    a.moe.experts = 8;
    a.moe.topk = 2;
    a.moe.expertIntermediate = 384;
    return a;
}

// A Qwen2-MoE shaped toy: hidden 256, 4 heads, 2 KV heads of 64, dense MLP 512; layers 1 and 3
// MoE (sparse step 2) with 4 routed experts of 128 (2 per token) and a shared expert of 256.
ModelArch tinyQwen2Moe()
{
    ModelArch a = acsel::test::tinyArch(4);
    a.name = "tiny-qwen2moe-4L-synthetic";
    a.hfId = "acsel-test/tiny-qwen2moe-4L-synthetic";
    a.family = "qwen2_moe";
    a.moe = {.experts = 4,
             .topk = 2,
             .expertIntermediate = 128,
             .sharedIntermediate = 256,
             .sparseStep = 2,
             .mlpOnlyLayers = {}};
    return a;
}

} // namespace

void TestExportRecipe::moeExpertsQuantizedPerBandRouterNever_data()
{
    QTest::addColumn<bool>("mixtral");
    QTest::addRow("Qwen3-30B-A3B") << false;
    QTest::addRow("tiny Mixtral") << true;
}

// Bands fp8/full, nvfp4/experts, bf16: the YAML's entries applied in order to every quantizer
// name, as ModelOpt applies them; each expert weight of a quantized band ends at its band's
// format, attention only in the full band, no router quantizer ever enabled; the
// hf_quant_config preview names the same experts and excludes every router.
void TestExportRecipe::moeExpertsQuantizedPerBandRouterNever()
{
    QFETCH(bool, mixtral);
    ExportInput in = acceptanceInput();
    in.arch = mixtral ? tinyMixtral() : workspaceModel("Qwen3-30B-A3B");
    const int L = in.arch.layers, fullEnd = mixtral ? 1 : 10, expertEnd = mixtral ? 3 : 40;
    QCOMPARE(L, mixtral ? 4 : 48);
    QCOMPARE(in.arch.moe.experts, mixtral ? 8 : 128);
    in.config = makeConfig(
        L, {fullEnd, expertEnd},
        {{Format::Fp8, Scope::Full}, {Format::Nvfp4, Scope::Mlp}, {Format::Bf16, Scope::Full}},
        Algorithm::Max, KvFormat::Fp8);
    in.config.model = mixtral ? 0 : workspaceModelIndex("Qwen3-30B-A3B");
    QVERIFY(isExportable(in.arch, in.config));
    const std::vector<MoeName> names = moeQuantizerNames(L, in.arch.moe.experts, mixtral);

    std::map<std::string, std::string> state; // name -> "off", "fp8" or "nvfp4"
    const YAML::Node list =
        YAML::Load(exportText(ExportFormat::ModelOptYaml, in))["quantize"]["quant_cfg"];
    for (const YAML::Node& e : list) {
        const std::string p = e["quantizer_name"].as<std::string>();
        const bool enabled = e["cfg"] && (!e["enable"] || e["enable"].as<bool>());
        const std::string value = !enabled                       ? "off"
                                  : isFp8(e["cfg"])              ? "fp8"
                                  : isNvfp4(e["cfg"])            ? "nvfp4"
                                  : p.ends_with("bmm_quantizer") ? "kv"
                                                                 : "other";
        int hits = 0;
        forEachMatch(names, p, [&](const MoeName& n) {
            ++hits;
            state[n.name] = value;
        });
        QVERIFY2(hits > 0 || p.find("lm_head") != std::string::npos || p.ends_with("bmm_quantizer"),
                 p.c_str()); // every linear entry hits a real tensor
    }
    int expertWeights = 0;
    for (const MoeName& n : names) {
        const std::string got = state.count(n.name) ? state[n.name] : "unset";
        const bool output = n.name.ends_with("output_quantizer");
        std::string want = "off";
        if (!output && n.role == "expert" && n.layer < expertEnd)
            want = n.layer < fullEnd ? "fp8" : "nvfp4";
        if (!output && n.role == "attn" && n.layer < fullEnd)
            want = "fp8";
        QVERIFY2(got == want, qPrintable(QString::fromStdString(n.name + ": " + got)));
        expertWeights += n.role == "expert" && n.weight && got != "off";
    }
    QCOMPARE(expertWeights, expertEnd * in.arch.moe.experts * 3);

    // The preview: mixed, so quantized_layers; a key names each quantized module; routers are
    // excluded and no key matches one.
    const auto q =
        nlohmann::json::parse(exportText(ExportFormat::HfQuantConfig, in))["quantization"];
    QCOMPARE(q["quant_algo"].get<std::string>(), std::string("MIXED_PRECISION"));
    std::map<std::string, std::string> algo; // module (weight quantizer's owner) -> quant_algo
    for (auto it = q["quantized_layers"].begin(); it != q["quantized_layers"].end(); ++it)
        forEachMatch(names, it.key() + ".weight_quantizer", [&](const MoeName& n) {
            algo[n.name] = it.value()["quant_algo"].get<std::string>();
        });
    for (const MoeName& n : names) {
        if (!n.weight)
            continue;
        const std::string want = state[n.name] == "fp8"     ? "FP8"
                                 : state[n.name] == "nvfp4" ? "NVFP4"
                                                            : "";
        QVERIFY2((algo.count(n.name) ? algo[n.name] : "") == want, n.name.c_str());
    }
    // One format (experts fp8 everywhere): exclude_modules lists every router and attention.
    in.config = makeConfig(L, {}, {{Format::Fp8, Scope::Mlp}}, Algorithm::Max, KvFormat::Bf16);
    const auto single =
        nlohmann::json::parse(exportText(ExportFormat::HfQuantConfig, in))["quantization"];
    QCOMPARE(single["quant_algo"].get<std::string>(), std::string("FP8"));
    const auto excluded = single["exclude_modules"].get<std::vector<std::string>>();
    for (int i = 0; i < L; ++i) {
        const std::string layer = "model.layers." + std::to_string(i);
        const std::string router = layer + (mixtral ? ".block_sparse_moe" : ".mlp") + ".gate";
        QVERIFY2(algo.count(router + ".weight_quantizer") == 0, router.c_str());
        for (const std::string& m : {router, layer + ".self_attn.q_proj"})
            QVERIFY2(std::find(excluded.begin(), excluded.end(), m) != excluded.end(), m.c_str());
    }
    for (const std::string& x : excluded) // no exclusion reaches an expert
        forEachMatch(names, x + ".weight_quantizer",
                     [&](const MoeName& n) { QVERIFY2(n.role != "expert", x.c_str()); });
    QCOMPARE(excluded.size(), std::size_t(5 * L + 1)); // router, q/k/v/o per layer; lm_head
}

// The memory model saves, against bf16, exactly what the exported plan quantizes: every module
// the plan gives a format (each routed expert of an MoE layer and the shared expert, each at its
// own width), its weights at the format's bytes. Qwen3-30B-A3B has no shared expert; the
// Qwen2-MoE toy one on its MoE layers. The weights of the quantized band, by hand:
//  - Qwen3-30B-A3B (hidden 2048, 32 heads, 4 KV heads of 128, 128 experts of 768), layers 20-47
//    (28, all MoE): attention 28 x (2 x 2048 x 4096 + 2 x 2048 x 512) = 28 x 18,874,368 =
//    528,482,304; experts 28 x 128 x 3 x 2048 x 768 = 16,911,433,728;
//  - the toy (tinyQwen2Moe), layers 2-3 (2 dense, 3 MoE): attention 2 x (2 x 256 x 256 + 2 x
//    256 x 128) = 2 x 196,608 = 393,216; MLP: dense 3 x 256 x 512 = 393,216, routed 4 x 3 x
//    256 x 128 = 393,216, shared 3 x 256 x 256 = 196,608: 983,040.
void TestExportRecipe::moeMemoryPricesWhatIsExported()
{
    struct Case {
        ModelArch arch;
        int cut;
        double routed, shared; // expert modules of the quantized band (gate, up, down each)
        double attnParams, mlpParams;
    };
    const Case cases[] = {
        {workspaceModel("Qwen3-30B-A3B"), 20, 28.0 * 128 * 3, 0, 528'482'304.0, 16'911'433'728.0},
        {tinyQwen2Moe(), 2, 4.0 * 3, 3, 393'216.0, 983'040.0},
    };
    const Request q = makeRequest("jetson_agx_thor/vllm");
    const Platform gpu;
    for (const Case& k : cases) {
        const ModelArch& a = k.arch;
        const int L = a.layers;
        const Config bf16 =
            makeConfig(L, {}, {{Format::Bf16, Scope::Full}}, Algorithm::Max, KvFormat::Bf16);
        const double base = estimateStaticMemory(a, bf16, q, gpu).weightBytes;
        for (Scope s : kAllScopes)
            for (Format f : {Format::Fp8, Format::Nvfp4, Format::Int4Wo}) {
                const Config c = makeConfig(L, {k.cut}, {{Format::Bf16, Scope::Full}, {f, s}},
                                            f == Format::Int4Wo ? Algorithm::Awq : Algorithm::Max,
                                            KvFormat::Bf16);
                const QuantPlan plan = planOf(c, L);
                double saved = 0, params = 0, routed = 0, shared = 0;
                for (int i = 0; i < L; ++i)
                    for (Linear l : kAllLinears) {
                        const Format g =
                            plan.layers[static_cast<std::size_t>(i)][static_cast<std::size_t>(l)];
                        if (g == Format::Bf16)
                            continue;
                        for (const std::string& m : linearModules(a, i, l)) {
                            const bool isShared = m.find(".shared_expert.") != std::string::npos;
                            const bool isRouted = m.find(".experts.") != std::string::npos;
                            const LinearShape sh = shapeOf(a, l,
                                                           isShared   ? MlpOf::SharedExpert
                                                           : isRouted ? MlpOf::RoutedExpert
                                                                      : MlpOf::Dense);
                            const auto n = static_cast<double>(sh.inFeatures * sh.outFeatures);
                            params += n;
                            saved += n * (2.0 - facts(g).effectiveBits / 8.0);
                            routed += isRouted ? 1 : 0;
                            shared += isShared ? 1 : 0;
                        }
                    }
                const QString what = QString::fromStdString(
                    a.name + " " + std::string(toString(f)) + "/" + std::string(toString(s, true)));
                QVERIFY2(routed == (s == Scope::Attn ? 0 : k.routed), qPrintable(what));
                QVERIFY2(shared == (s == Scope::Attn ? 0 : k.shared), qPrintable(what));
                const double wantParams =
                    (s == Scope::Mlp ? 0 : k.attnParams) + (s == Scope::Attn ? 0 : k.mlpParams);
                QVERIFY2(params == wantParams, qPrintable(what));
                const double got = base - estimateStaticMemory(a, c, q, gpu).weightBytes;
                QVERIFY2(std::abs(got - saved) <= 1e-9 * saved,
                         qPrintable(QString("%1: %2 vs %3").arg(what).arg(got).arg(saved)));
            }
    }
}

// A Qwen2-MoE shared expert is in the experts scope (modelarch.h): on a tiny model with layers 1
// and 3 MoE (4 routed experts and a shared expert) and 0 and 2 dense, bands fp8/experts on 0-1
// and nvfp4/full on 2-3. The YAML's entries applied in order to every quantizer name written
// out by hand leave each MLP linear (dense, routed or shared expert) at its band's format,
// attention only in the full band, the router and the shared expert's gate never enabled; the
// memory model saves, against bf16, exactly the bytes of what the YAML quantizes; the preview
// excludes both gates and reads the recipe back.
void TestExportRecipe::sharedExpertFollowsExpertsScope()
{
    ExportInput in = acceptanceInput();
    in.arch = tinyQwen2Moe();
    const ModelArch& a = in.arch;
    in.config = makeConfig(4, {2}, {{Format::Fp8, Scope::Mlp}, {Format::Nvfp4, Scope::Full}},
                           Algorithm::Max, KvFormat::Bf16);
    in.config.model = 0;
    QVERIFY(isExportable(a, in.config));

    // Quantizer names by hand, with each linear's weight count (in x out).
    struct Module {
        std::string name, role;
        double params;
    };
    std::vector<Module> modules;
    std::vector<MoeName> names;
    for (int i = 0; i < 4; ++i) {
        const std::string layer = "model.layers." + std::to_string(i);
        modules.push_back({layer + ".self_attn.q_proj", "attn", 256.0 * 256});
        modules.push_back({layer + ".self_attn.k_proj", "attn", 256.0 * 128});
        modules.push_back({layer + ".self_attn.v_proj", "attn", 256.0 * 128});
        modules.push_back({layer + ".self_attn.o_proj", "attn", 256.0 * 256});
        const std::vector<std::string> mlp = {"gate_proj", "up_proj", "down_proj"};
        if (i % 2 == 0) {
            for (const std::string& l : mlp)
                modules.push_back({layer + ".mlp." + l, "mlp", 256.0 * 512});
            continue;
        }
        modules.push_back({layer + ".mlp.gate", "gate", 256.0 * 4});
        modules.push_back({layer + ".mlp.shared_expert_gate", "gate", 256.0});
        for (int e = 0; e < 4; ++e)
            for (const std::string& l : mlp)
                modules.push_back(
                    {layer + ".mlp.experts." + std::to_string(e) + "." + l, "mlp", 256.0 * 128});
        for (const std::string& l : mlp)
            modules.push_back({layer + ".mlp.shared_expert." + l, "mlp", 256.0 * 256});
    }
    std::map<std::string, const Module*> owner;
    for (const Module& m : modules)
        for (const char* q : {"weight_quantizer", "input_quantizer", "output_quantizer"}) {
            names.push_back({m.name + "." + q, m.role, std::stoi(m.name.substr(13)),
                             std::string(q) == "weight_quantizer"});
            owner[names.back().name] = &m;
        }
    std::sort(names.begin(), names.end(),
              [](const MoeName& x, const MoeName& y) { return x.name < y.name; });

    std::map<std::string, std::string> state;
    const YAML::Node list =
        YAML::Load(exportText(ExportFormat::ModelOptYaml, in))["quantize"]["quant_cfg"];
    for (const YAML::Node& e : list) {
        const std::string p = e["quantizer_name"].as<std::string>();
        const bool enabled = e["cfg"] && (!e["enable"] || e["enable"].as<bool>());
        const std::string value = !enabled            ? "off"
                                  : isFp8(e["cfg"])   ? "fp8"
                                  : isNvfp4(e["cfg"]) ? "nvfp4"
                                                      : "other";
        forEachMatch(names, p, [&](const MoeName& n) { state[n.name] = value; });
    }
    double saved = 0; // bytes against bf16 of every quantized weight
    int shared = 0;
    for (const MoeName& n : names) {
        const std::string got = state.count(n.name) ? state[n.name] : "unset";
        std::string want = "off";
        if (!n.name.ends_with("output_quantizer") && n.role == "mlp")
            want = n.layer < 2 ? "fp8" : "nvfp4";
        if (!n.name.ends_with("output_quantizer") && n.role == "attn" && n.layer >= 2)
            want = "nvfp4";
        QVERIFY2(got == want, qPrintable(QString::fromStdString(n.name + ": " + got)));
        if (n.weight && got != "off") {
            const Format f = got == "fp8" ? Format::Fp8 : Format::Nvfp4;
            saved += owner[n.name]->params * (2.0 - facts(f).effectiveBits / 8.0);
            shared += n.name.find("shared_expert.") != std::string::npos;
        }
    }
    QCOMPARE(shared, 6); // gate, up and down of layers 1 and 3
    Config bf16 = in.config;
    bf16.recipe = BandRecipe::uniform(4, Format::Bf16);
    const double base = estimateStaticMemory(a, bf16, in.request, Platform{}).weightBytes;
    const double got =
        base - estimateStaticMemory(a, in.config, in.request, Platform{}).weightBytes;
    QVERIFY2(std::abs(got - saved) <= 1e-9 * saved,
             qPrintable(QString("%1 vs %2").arg(got).arg(saved)));

    // One format: exclude_modules lists both gates of each MoE layer and nothing of an expert.
    in.config = makeConfig(4, {}, {{Format::Fp8, Scope::Mlp}}, Algorithm::Max, KvFormat::Bf16);
    const auto excluded = nlohmann::json::parse(exportText(ExportFormat::HfQuantConfig,
                                                           in))["quantization"]["exclude_modules"]
                              .get<std::vector<std::string>>();
    for (const char* gate : {"model.layers.1.mlp.gate", "model.layers.1.mlp.shared_expert_gate",
                             "model.layers.3.mlp.gate", "model.layers.3.mlp.shared_expert_gate"})
        QVERIFY2(std::find(excluded.begin(), excluded.end(), gate) != excluded.end(), gate);
    QCOMPARE(excluded.size(), std::size_t(4 * 4 + 2 * 2 + 1)); // attention, gates, lm_head
    const std::string yaml = exportText(ExportFormat::ModelOptYaml, in);
    QVERIFY(readModelOptRecipeYaml(yaml, a, "recipe.yaml").plan == planOf(in.config, 4));
    // A recipe that quantizes the shared expert's gate is refused, naming it.
    std::string why;
    try {
        readModelOptRecipeYaml(yaml + "    - quantizer_name: "
                                      "'model.layers.3.mlp.shared_expert_gate.weight_quantizer'\n"
                                      "      cfg: {num_bits: e4m3, axis: null}\n",
                               a, "recipe.yaml");
    } catch (const LoadError& e) {
        why = e.what();
    }
    QVERIFY2(why.find("model.layers.3.mlp.shared_expert_gate.weight_quantizer") !=
                 std::string::npos,
             why.c_str());
}

ACSEL_TEST_APPLESS_MAIN(TestExportRecipe)
#include "test_export_recipe.moc"
