// acsel recommend / search --save-dir: every file of the results folder, each read back on its
// own terms (the CSV by its columns, the YAML applied the way ModelOpt applies it, the request
// file by acsel search itself), the refusal of a non-empty folder and what --force replaces.
#include "clirun.h"
#include "testmain.h"

#include <QImage>
#include <QTemporaryDir>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <yaml-cpp/yaml.h>

using namespace acsel::cli::test;
using nlohmann::json;
namespace fs = std::filesystem;

namespace
{

const char* const kAttn[] = {"q_proj", "k_proj", "v_proj", "o_proj"};
const char* const kMlp[] = {"gate_proj", "up_proj", "down_proj"};

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);)
        out.push_back(l);
    return out;
}

std::vector<std::string> csvFields(const std::string& line)
{
    std::vector<std::string> out(1);
    bool quoted = false;
    for (char c : line) {
        if (c == '"')
            quoted = !quoted;
        else if (c == ',' && !quoted)
            out.emplace_back();
        else
            out.back() += c;
    }
    return out;
}

// fnmatch as ModelOpt uses it (Python's fnmatch.fnmatchcase): '*' any run, '?' one character,
// '[...]' a set; written here from the definition, apart from the exporter's own matcher.
bool globMatches(const std::string& glob, const std::string& name)
{
    std::string re;
    for (char c : glob) {
        if (c == '*')
            re += ".*";
        else if (c == '?')
            re += '.';
        else if (c == '[' || c == ']')
            re += c;
        else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_')
            re += c;
        else
            re += std::string("\\") + c;
    }
    return std::regex_match(name, std::regex(re));
}

// The format a weight quantizer ends up with after the recipe's entries, applied in order (a
// cfg replaces the quantizer's config and enables it unless it says otherwise, an enable-only
// entry toggles it): "bf16" when disabled.
std::string weightFormat(const YAML::Node& quantCfg, const std::string& quantizer)
{
    bool enabled = false;
    YAML::Node cfg;
    for (const YAML::Node& e : quantCfg) {
        if (!globMatches(e["quantizer_name"].as<std::string>(), quantizer))
            continue;
        if (e["cfg"]) {
            cfg = e["cfg"];
            enabled = true;
        }
        if (e["enable"])
            enabled = e["enable"].as<bool>();
    }
    if (!enabled)
        return "bf16";
    const std::string bits = cfg["num_bits"].as<std::string>();
    if (bits == "e4m3")
        return cfg["block_sizes"] ? "fp8_block" : "fp8";
    if (bits == "e2m1")
        return "nvfp4";
    return "int" + bits; // int8 / int4 families: not in the answers checked here
}

std::string answerFormat(const json& bands, int layer, bool attention)
{
    for (const json& b : bands)
        if (b["first_layer"].get<int>() <= layer && layer <= b["last_layer"].get<int>()) {
            const std::string scope = b["scope"];
            const bool covered = scope == "full" || (scope == "attn") == attention;
            return covered ? b["format"].get<std::string>() : "bf16";
        }
    return "none";
}

const std::vector<std::string> kEveryFile = {"request.json",
                                             "answer.json",
                                             "top.csv",
                                             "top.json",
                                             "frontier.csv",
                                             "acsel_recipe.yaml",
                                             "acsel_quant_cfg.json",
                                             "hf_quant_config.preview.json",
                                             "launch_vllm.sh",
                                             "summary.md"};

} // namespace

class TestCliSaveDir : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void recommendWritesEveryFile();
    void topHasFiveDistinctRecipesBestFirst();
    void recipeYamlMeansTheAnswersBands();
    void plotCarriesTheCaption();
    void requestFileReproducesTheAnswer();
    void noAnswerWritesRequestAndSummaryOnly();
    void nonEmptyFolderNeedsForce();

private:
    QTemporaryDir tmp_;
    std::string dir_; // the folder recommend wrote once for the read-back tests
    Run first_;
};

void TestCliSaveDir::initTestCase()
{
    dir_ = tmp_.filePath("r").toStdString();
    first_ = run({"recommend", "--workspace", kWorkspace, "--save-dir", dir_});
    QVERIFY2(first_.code == 0, first_.err.c_str());
}

void TestCliSaveDir::recommendWritesEveryFile()
{
    QVERIFY(contains(first_.out, "saved: " + dir_ + " ("));
    const std::string summary = readFile(dir_ + "/summary.md");
    for (const std::string& name : kEveryFile) {
        QVERIFY2(fs::file_size(dir_ + "/" + name) > 0, name.c_str());
        QVERIFY2(contains(summary, "`" + name + "`"), name.c_str());
    }
    QVERIFY(contains(summary, "SYNTHETIC"));
    // Every output names the latency source: summary.md, answer.json, the recipe's header.
    const std::string source = "spec-sheet estimate (no operator tables for jetson_agx_thor/vllm; ";
    QVERIFY2(contains(summary, "- Latency: " + source), summary.c_str());
    QVERIFY(contains(summary, "; calibration: none (raw estimate)"));
    QVERIFY(contains(first_.out, "latency source: " + source));
    QVERIFY(contains(readJson(dir_ + "/answer.json")["predictions"]["note"].get<std::string>(),
                     "latency from " + source));
    QVERIFY(contains(readFile(dir_ + "/acsel_recipe.yaml"), "\n# Note: latency from " + source));
    // ... and every other file of the folder, in its own format's place.
    const std::string provenance = "latency from " + source;
    QVERIFY(contains(readJson(dir_ + "/request.json")["acsel"]["provenance"].get<std::string>(),
                     provenance));
    QVERIFY(contains(
        readJson(dir_ + "/acsel_quant_cfg.json")["acsel"]["predictions"].get<std::string>(),
        provenance));
    const json hf = readJson(dir_ + "/hf_quant_config.preview.json");
    QVERIFY(contains(hf["acsel"]["predictions"].get<std::string>(), provenance));
    QCOMPARE(hf["producer"]["name"].get<std::string>(), std::string("modelopt")); // untouched
    QVERIFY(contains(readFile(dir_ + "/launch_vllm.sh"), "\n# - predictions: " + provenance));
    // The load check acsel launch runs, in the script's header and summary.md: the answer mixes
    // fp8 and nvfp4, which the shipped table marks UNCERTAIN for vllm 0.23.0 and later.
    const std::string uncertain = "note: UNCERTAIN whether vllm 0.24.0 (as of its table entry "
                                  "0.23.0) loads a checkpoint with several weight formats";
    QVERIFY(contains(readFile(dir_ + "/launch_vllm.sh"), "\n# - load check: " + uncertain));
    QVERIFY(contains(summary, "Load check for vllm 0.24.0 (datasets/engine_loaders.json):\n\n- " +
                                  uncertain));
    for (const char* csv : {"/top.csv", "/frontier.csv"}) {
        const std::vector<std::string> rows = lines(readFile(dir_ + csv));
        QVERIFY2(rows.size() >= 2, csv);
        QCOMPARE(csvFields(rows[0]).back(), std::string("latency_source"));
        for (std::size_t i = 1; i < rows.size(); ++i)
            QVERIFY2(contains(csvFields(rows[i]).back(), provenance), rows[i].c_str());
    }
    // answer.json is what acsel export reads, and is the answer printed.
    const json answer = readJson(dir_ + "/answer.json");
    std::string printed;
    for (const json& b : answer["config"]["bands"])
        printed += (printed.empty() ? "" : " | ") + std::to_string(b["first_layer"].get<int>()) +
                   "-" + std::to_string(b["last_layer"].get<int>()) + " " +
                   b["format"].get<std::string>() + "/" + b["scope"].get<std::string>();
    QVERIFY2(contains(first_.out, "answer: Qwen3-8B, batch 4, " + printed), printed.c_str());
    const std::string yaml = dir_ + "/exported.yaml";
    const Run exported = run({"export", "--workspace", kWorkspace, "--config",
                              dir_ + "/answer.json", "--as", "modelopt-yaml", "-o", yaml});
    QCOMPARE(exported.code, 0);
    QCOMPARE(readFile(yaml), readFile(dir_ + "/acsel_recipe.yaml"));
    fs::remove(yaml);
}

void TestCliSaveDir::topHasFiveDistinctRecipesBestFirst()
{
    const std::vector<std::string> rows = lines(readFile(dir_ + "/top.csv"));
    QCOMPARE(rows.size(), std::size_t{6});
    const std::vector<std::string> header = csvFields(rows[0]);
    QCOMPARE(header.size(), std::size_t{15});
    QCOMPARE(header[3], std::string("recipe"));
    QCOMPARE(header[10], std::string("rmqd"));
    std::set<std::string> recipes;
    double lastRmqd = 0;
    const json answer = readJson(dir_ + "/answer.json");
    for (std::size_t i = 1; i < rows.size(); ++i) {
        const std::vector<std::string> f = csvFields(rows[i]);
        QCOMPARE(f.size(), header.size());
        QCOMPARE(f[0], std::to_string(i));
        recipes.insert(f[1] + " " + f[2] + " " + f[3] + " " + f[5]);
        const double rmqd = std::stod(f[10]);
        QVERIFY(rmqd >= lastRmqd - 1e-12); // ranked by predicted RMQD
        lastRmqd = rmqd;
        // Throughput from the row's own numbers: 1000 / TPOT per user, x concurrency 4 per GPU.
        const double tpot = std::stod(f[8]), ttft = std::stod(f[7]);
        QVERIFY(std::abs(std::stod(f[11]) - 1000.0 / tpot) < 1e-9);
        const double requestMs = ttft + 255 * tpot; // osl 256
        QVERIFY(std::abs(std::stod(f[12]) - 4 * 256 * 1000.0 / requestMs) < 1e-9);
    }
    QCOMPARE(recipes.size(), std::size_t{5});
    QCOMPARE(std::stod(csvFields(rows[1])[10]), answer["predictions"]["rmqd"].get<double>());
    QCOMPARE(readJson(dir_ + "/top.json").size(), std::size_t{5});
    QVERIFY(lines(readFile(dir_ + "/frontier.csv")).size() >= 2);
}

void TestCliSaveDir::recipeYamlMeansTheAnswersBands()
{
    const json answer = readJson(dir_ + "/answer.json");
    const json& bands = answer["config"]["bands"];
    const int layers = bands.back()["last_layer"].get<int>() + 1;
    QCOMPARE(layers, 36); // Qwen3-8B
    const YAML::Node list = YAML::LoadFile(dir_ + "/acsel_recipe.yaml")["quantize"]["quant_cfg"];
    QVERIFY(list.size() > 2);
    std::set<std::string> seen;
    for (int l = 0; l < layers; ++l) {
        const std::string prefix = "model.layers." + std::to_string(l);
        for (const char* p : kAttn) {
            const std::string got =
                weightFormat(list, prefix + ".self_attn." + p + ".weight_quantizer");
            QCOMPARE(got, answerFormat(bands, l, true));
            seen.insert(got);
        }
        for (const char* p : kMlp) {
            const std::string got = weightFormat(list, prefix + ".mlp." + p + ".weight_quantizer");
            QCOMPARE(got, answerFormat(bands, l, false));
            seen.insert(got);
        }
    }
    QVERIFY(seen.size() >= 2); // a band answer: the check compared more than one format
    QCOMPARE(weightFormat(list, "lm_head.weight_quantizer"), std::string("bf16"));
}

void TestCliSaveDir::plotCarriesTheCaption()
{
    const QImage png(QString::fromStdString(dir_ + "/frontier.png"));
    QCOMPARE(png.width(), 1200);
    QCOMPARE(png.height(), 760);
    const std::string svg = readFile(dir_ + "/frontier.svg");
    QVERIFY(contains(svg, "<svg"));
    QVERIFY(contains(svg, "SYNTHETIC"));
    QVERIFY(contains(svg, "raw estimate"));
    QVERIFY(contains(svg, "frontier.csv")); // the plot's frontier is the file's
    QVERIFY(contains(readFile(dir_ + "/summary.md"), "![quality-latency frontier](frontier.png)"));
}

void TestCliSaveDir::requestFileReproducesTheAnswer()
{
    const Run again =
        run({"search", "--workspace", kWorkspace, "--request", dir_ + "/request.json", "--json"});
    QCOMPARE(again.code, 0);
    const json answer = readJson(dir_ + "/answer.json");
    const json j = json::parse(again.out);
    QCOMPARE(j["config"].dump(), answer["config"].dump());
    QCOMPARE(j["request"].dump(), answer["request"].dump());
}

void TestCliSaveDir::noAnswerWritesRequestAndSummaryOnly()
{
    const std::string dir = tmp_.filePath("none").toStdString();
    const Run r = run({"search", "--workspace", kWorkspace, "--stack", "jetson_agx_thor/vllm",
                       "--ttft", "0.001", "--save-dir", dir});
    QCOMPARE(r.code, 3);
    QVERIFY(contains(readFile(dir + "/summary.md"), "No configuration passes the gate"));
    QVERIFY(fs::exists(dir + "/request.json"));
    QVERIFY(!fs::exists(dir + "/answer.json"));
    QVERIFY(!fs::exists(dir + "/top.csv"));
}

void TestCliSaveDir::nonEmptyFolderNeedsForce()
{
    const std::string dir = tmp_.filePath("busy").toStdString();
    fs::create_directories(dir);
    std::ofstream(dir + "/notes.txt") << "mine";
    std::ofstream(dir + "/launch_sglang.sh") << "# from an earlier run";
    const std::vector<std::string> args = {
        "search", "--workspace", kWorkspace, "--stack", "jetson_agx_thor/vllm", "--save-dir", dir};
    const Run refused = run(args);
    QCOMPARE(refused.code, 2);
    QVERIFY(contains(refused.err, "not empty"));
    QVERIFY(contains(refused.err, "--force"));
    QVERIFY(!fs::exists(dir + "/summary.md"));

    std::vector<std::string> forced = args;
    forced.push_back("--force");
    QCOMPARE(run(forced).code, 0);
    QCOMPARE(readFile(dir + "/notes.txt"), std::string("mine")); // not ours: kept
    QVERIFY(!fs::exists(dir + "/launch_sglang.sh"));             // ours, stale: removed
    QVERIFY(fs::exists(dir + "/launch_vllm.sh"));

    const Run stray =
        run({"search", "--workspace", kWorkspace, "--stack", "jetson_agx_thor/vllm", "--force"});
    QCOMPARE(stray.code, 2);
    QVERIFY(contains(stray.err, "--force is for --save-dir"));
}

ACSEL_TEST_APPLESS_MAIN(TestCliSaveDir)
#include "test_cli_savedir.moc"
