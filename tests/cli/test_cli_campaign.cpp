// The measurement campaign commands: acsel plan quality (the design, its recipes and
// manifest), acsel plan latency (FMC profiles, benchmark script, calibrate's CSV template) and
// acsel quality add (merge, duplicates, unknown models, atomic all-or-nothing save).
#include "clirun.h"
#include "core/data/qualityset.h"
#include "core/data/workspacefile.h"
#include "core/export/exportability.h"
#include "core/export/modeloptyaml.h"
#include "core/export/recipereader.h"
#include "testmain.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

using namespace acsel;
using namespace acsel::cli::test;

class TestCliCampaign : public QObject
{
    Q_OBJECT
private slots:
    void planQualityDesign();
    void planQualityIsSeededAndRefusesBadInput();
    void planQualityTinyModelSkipsBlockFormats();
    void planLatencyProfilesCalibrate();
    void planLatencyWidthFromTheStudy();
    void qualityAddMergesAndRefuses();

private:
    QTemporaryDir dir_;
    std::string path(const std::string& name) const
    {
        return dir_.filePath(QString::fromStdString(name)).toStdString();
    }
    static void write(const std::string& file, const std::string& text)
    {
        std::ofstream(file, std::ios::binary) << text;
    }
};

namespace
{

const std::string kTiny =
    ACSEL_TEST_DATA "/../../tools/measure_rmqd/tests/data/tiny_workspace.json";

} // namespace

void TestCliCampaign::planQualityDesign()
{
    const Run r = run({"plan", "quality", "--workspace", kWorkspace, "--model", "Qwen3-8B", "-o",
                       path("plan8"), "--seed", "3", "--band-recipes", "20"});
    QCOMPARE(r.code, 0);
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const int model = *ws.findModel("Qwen3-8B");
    const ModelArch& arch = ws.models[static_cast<std::size_t>(model)];
    const auto manifest = readJson(path("plan8/manifest.json"));
    QCOMPARE(manifest["kind"].get<std::string>(), std::string("acsel-quality-plan"));
    QCOMPARE(manifest["model"]["layers"].get<int>(), 36);

    // Every uniform configuration, worked out here: each format and scope (bf16: full) with
    // each algorithm that fits it (bf16: max): nvfp4 3, int4_wo 3 x 2 (awq, gptq), int8_wo
    // 3 x 2 (max, gptq), int8 3, fp8 3, fp8_block 3, bf16 1 = 25 (all exportable for Qwen3-8B).
    std::set<std::string> uniformExpected;
    for (Format f : kAllFormats)
        for (Scope s : kAllScopes)
            for (Algorithm a : kAllAlgorithms)
                if ((f != Format::Bf16 || (s == Scope::Full && a == Algorithm::Max)) &&
                    algorithmFits(a, f))
                    uniformExpected.insert(bandsToText(BandRecipe::uniform(36, f, s)) + " " +
                                           std::string(toString(a)));
    QCOMPARE(uniformExpected.size(), std::size_t{25});
    std::set<std::string> uniformGot, seen;
    std::map<int, int> quarter; // first boundary's depth quarter -> band recipes
    int bands = 0, heldout = 0;
    std::map<Format, int> bandFormats;
    for (const auto& c : manifest["candidates"]) {
        const std::string stratum = c["stratum"];
        const std::string text = c["bands"];
        // The recipe file applies to exactly the configuration the manifest lists.
        const RecipeReadback back = readModelOptRecipeYaml(
            readFile(path("plan8/" + c["recipe"].get<std::string>())), arch, "recipe");
        const Config fromFile = configFromPlan(back.plan, arch, model, 1, "recipe");
        QCOMPARE(bandsToText(fromFile.recipe), text);
        QCOMPARE(std::string(toString(fromFile.algorithm)), c["algorithm"].get<std::string>());
        QCOMPARE(fromFile.lmHeadQuantized, c["lm_head_quantized"].get<bool>());
        QCOMPARE(std::string(toString(fromFile.kv)), c["kv"].get<std::string>());
        QVERIFY(isExportable(arch, fromFile));
        const std::string key = text + " " + c["algorithm"].get<std::string>() + " " +
                                c["kv"].get<std::string>() +
                                (c["lm_head_quantized"].get<bool>() ? " lm" : "");
        QVERIFY2(seen.insert(key).second, key.c_str()); // no configuration twice
        if (stratum == "uniform")
            uniformGot.insert(text + " " + c["algorithm"].get<std::string>());
        if (c["split"] == "heldout") {
            ++heldout;
            QCOMPARE(stratum, std::string("bands")); // uniform levels always train
        }
        if (stratum != "bands")
            continue;
        ++bands;
        QVERIFY(fromFile.recipe.size() >= 2);
        for (const Band& b : fromFile.recipe)
            ++bandFormats[b.format];
        // Cut positions 1..35 in quarters [1, 8], [9, 17], [18, 26], [27, 35].
        const int cut = fromFile.recipe[1].begin;
        ++quarter[cut <= 8 ? 0 : cut <= 17 ? 1 : cut <= 26 ? 2 : 3];
    }
    QVERIFY(uniformGot == uniformExpected);
    QCOMPARE(bands, 20);
    QCOMPARE(heldout, 5); // 0.25 x 20
    for (int q = 0; q < 4; ++q)
        QCOMPARE(quarter[q], 5); // the first boundary is balanced over depth
    int lo = 1000, hi = 0;
    for (Format f : kAllFormats) {
        lo = std::min(lo, bandFormats[f]);
        hi = std::max(hi, bandFormats[f]);
    }
    QVERIFY2(lo >= 5 && hi - lo <= 3, "formats are balanced over the bands");
}

void TestCliCampaign::planQualityIsSeededAndRefusesBadInput()
{
    const auto plan = [&](const std::string& dir, const std::string& seed) {
        return run({"plan", "quality", "--workspace", kWorkspace, "--model", "Llama-3.1-8B", "-o",
                    path(dir), "--seed", seed, "--band-recipes", "12"});
    };
    QCOMPARE(plan("a", "5").code, 0);
    QCOMPARE(plan("b", "5").code, 0);
    QCOMPARE(plan("c", "6").code, 0);
    // The same seed gives the same design and the same recipe files (the manifests differ
    // only in the folder named in their measure command).
    QVERIFY(readJson(path("a/manifest.json"))["candidates"] ==
            readJson(path("b/manifest.json"))["candidates"]);
    QCOMPARE(readFile(path("a/c030.yaml")), readFile(path("b/c030.yaml")));
    QVERIFY(readJson(path("a/manifest.json"))["candidates"] !=
            readJson(path("c/manifest.json"))["candidates"]);
    // An existing plan is kept without --force; an unknown model is bad input.
    const Run again = plan("a", "5");
    QCOMPARE(again.code, 2);
    QVERIFY(contains(again.err, "manifest.json"));
    const Run unknown =
        run({"plan", "quality", "--workspace", kWorkspace, "--model", "GPT-9", "-o", path("d")});
    QCOMPARE(unknown.code, 2);
    QVERIFY(contains(unknown.err, "GPT-9"));
}

void TestCliCampaign::planQualityTinyModelSkipsBlockFormats()
{
    // Hidden 64: int4_wo and fp8_block blocks of 128 do not divide q/k/v/gate/up's inputs.
    const Run r = run({"plan", "quality", "--workspace", kTiny, "--model", "Tiny-Qwen3-2L", "-o",
                       path("tiny"), "--band-recipes", "4"});
    QCOMPARE(r.code, 0);
    QVERIFY(contains(r.out, "formats: nvfp4 int8_wo int8 fp8\n"));
    // Held in a variable: a range-for over a member of a temporary would read freed memory.
    const auto manifest = readJson(path("tiny/manifest.json"));
    for (const auto& c : manifest["candidates"]) {
        const std::string bands = c["bands"];
        QVERIFY2(!contains(bands, "int4_wo") && !contains(bands, "fp8_block"), bands.c_str());
    }
}

void TestCliCampaign::planLatencyProfilesCalibrate()
{
    if (!haveTables())
        QSKIP("no ../shared/aic tables beside the source tree");
    for (const char* stack : {"h100_sxm/vllm", "h100_sxm/sglang", "h100_sxm/trtllm"}) {
        const std::string dir = path(std::string("lat_") + (stack + 9));
        const Run r = run({"plan", "latency", "--workspace", kWorkspace, "--tables", kTables,
                           "--stack", stack, "-o", dir, "--profiles", "5"});
        QCOMPARE(r.code, 0);
        // Five strata, seven concurrencies: a fresh sweep and concurrency in each.
        QVERIFY2(contains(r.out, "estimate (continuous serving model), 5 independent"),
                 r.out.c_str());
        const std::string script = readFile(dir + "/benchmark.sh");
        const std::string backend = std::string(stack).substr(9);
        QVERIFY(contains(script, backend == "vllm"     ? "vllm bench serve"
                                 : backend == "sglang" ? "sglang.bench_serving"
                                                       : "trtllm-serve"));
        QVERIFY(contains(script, "TEMPLATES"));
    }
    const std::string dir = path("lat_trtllm");
    // The template is refused by calibrate until the two measured columns are filled...
    QCOMPARE(run({"calibrate", "--workspace", kWorkspace, "--tables", kTables, "--measurements",
                  dir + "/profiles.csv", "-o", path("fmc0.json")})
                 .code,
             2);
    // ... then each profile "measured" at 1.25x its TTFT and 0.8x its TPOT estimate: the five
    // profiles share no sweep and no concurrency (selectIndependent), so each is predicted from
    // the four others, and FMC recovers gamma 1 and delta log 1.25 (log 0.8), up to the
    // 2-decimal rounding of the estimates in the file.
    std::istringstream in(readFile(dir + "/profiles.csv"));
    std::string line, filled;
    std::getline(in, line);
    filled = line + "\n";
    int rows = 0;
    std::vector<std::string> ids;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream ss(line);
        for (std::string x; std::getline(ss, x, ',');)
            f.push_back(x);
        QCOMPARE(f.size(), std::size_t{16});
        QVERIFY(f[12].empty() && f[13].empty());
        f[12] = std::to_string(std::stod(f[14]) * 1.25);
        f[13] = std::to_string(std::stod(f[15]) * 0.8);
        for (std::size_t i = 0; i < f.size(); ++i)
            filled += (i ? "," : "") + f[i];
        filled += "\n";
        ids.push_back(f[0]);
        ++rows;
    }
    QCOMPARE(rows, 5);
    write(path("filled.csv"), filled);
    const Run cal = run({"calibrate", "--workspace", kWorkspace, "--tables", kTables,
                         "--measurements", path("filled.csv"), "-o", path("fmc.json")});
    QCOMPARE(cal.code, 0);
    const auto fmc = readJson(path("fmc.json"));
    const auto& e = fmc["stacks"][0];
    QCOMPARE(e["stack"].get<std::string>(), std::string("h100_sxm/trtllm"));
    QCOMPARE(e["rows_used"].get<std::vector<std::string>>(), ids);
    QVERIFY(std::abs(e["ttft"]["gamma"].get<double>() - 1.0) < 1e-2);
    QVERIFY(std::abs(e["ttft"]["delta"].get<double>() - std::log(1.25)) < 1e-2);
    QVERIFY(std::abs(e["tpot"]["delta"].get<double>() - std::log(0.8)) < 1e-2);
}

void TestCliCampaign::planLatencyWidthFromTheStudy()
{
    const std::string rows = std::string(ACSEL_SHARED_DIR) + "/aic/silicon/dense_tp1.csv";
    if (!haveTables() || !QFileInfo::exists(QString::fromStdString(rows)))
        QSKIP("no ../shared/aic tables and silicon rows beside the source tree");
    const auto plan = [&](std::vector<std::string> extra) {
        std::vector<std::string> a{"plan",     "latency",     "--workspace", kWorkspace,
                                   "--tables", kTables,       "--stack",     "h200_sxm/sglang",
                                   "-o",       path("lat_w"), "--force"};
        a.insert(a.end(), extra.begin(), extra.end());
        return run(a);
    };
    // h200_sxm/sglang's 16 rows: 4 profiles picked as the plan picks them give a median TTFT
    // interval of x/ 1.83 on the other rows (3 give wider), so x/ 2 plans 4 (6 before its
    // release's request overhead centred the raw TTFT).
    const Run r = plan({"--study", rows, "--width", "2"});
    QCOMPARE(r.code, 0);
    QVERIFY2(contains(r.out, "4 profiles bring the 90 % TTFT interval to x/ 1.83"), r.out.c_str());
    QVERIFY2(contains(r.out, ": 4 of "), r.out.c_str());
    const Run tooNarrow = plan({"--study", rows, "--width", "1.05"});
    QCOMPARE(tooNarrow.code, 2);
    QVERIFY2(contains(tooNarrow.err, "no K up to 16 brings the 90 % TTFT interval"),
             tooNarrow.err.c_str());
    QCOMPARE(plan({"--width", "2"}).code, 2);
    QCOMPARE(plan({"--study", rows, "--width", "2", "--profiles", "5"}).code, 2);
}

void TestCliCampaign::qualityAddMergesAndRefuses()
{
    const std::string header = "# synthetic: false\n# provenance: lab test\n"
                               "model,algorithm,lm_head_quantized,kv,bands,rmqd,split\n";
    write(path("rows1.csv"), header + "Qwen3-8B,max,false,bf16,0-35:fp8/full,0.0123,train\n"
                                      "Qwen3-8B,awq,false,bf16,0-35:int4_wo/full,0.05,heldout\n");
    write(path("rows2.csv"), header + "Qwen3-8B,max,false,fp8,0-35:fp8/full,0.0131,train\n");
    const std::string set = path("set.json");
    const Run created = run({"quality", "add", set, path("rows1.csv"), "--workspace", kWorkspace});
    QCOMPARE(created.code, 0);
    QVERIFY(contains(created.out, "2 measured rows"));
    QCOMPARE(run({"quality", "add", set, path("rows2.csv"), "--workspace", kWorkspace}).code, 0);
    const Workspace ws = loadWorkspace(kWorkspace, "");
    const QualitySet merged = loadQualitySet(set, ws.models);
    QCOMPARE(merged.rows.size(), std::size_t{3});
    QVERIFY(!merged.synthetic);
    QVERIFY(merged.rows[2].kv == KvFormat::Fp8);
    QVERIFY(merged.rows[1].split == Split::Heldout);
    QVERIFY(contains(merged.provenance, "lab test; then 1 rows from"));

    const std::string before = readFile(set);
    // Already in the set: refused, naming the row; the set is unchanged.
    const Run dup = run({"quality", "add", set, path("rows2.csv"), "--workspace", kWorkspace});
    QCOMPARE(dup.code, 2);
    QVERIFY(contains(dup.err, "rows2.csv: row 1: duplicate configuration Qwen3-8B max kv fp8"));
    // Twice in the rows (a different RMQD does not make it another configuration): the
    // quality-set loader refuses the file itself, naming both lines (rows on lines 4 and 5).
    write(path("rows3.csv"), header + "Qwen3-8B,max,false,bf16,0-35:nvfp4/full,0.2,train\n"
                                      "Qwen3-8B,max,false,bf16,0-35:nvfp4/full,0.3,train\n");
    const Run twice = run({"quality", "add", set, path("rows3.csv"), "--workspace", kWorkspace});
    QCOMPARE(twice.code, 2);
    QVERIFY2(contains(twice.err, "rows3.csv: line 5: duplicate configuration"), twice.err.c_str());
    QVERIFY2(contains(twice.err, "(first at line 4)"), twice.err.c_str());
    // Unknown model: the quality-set loader's message with the file and line.
    write(path("rows4.csv"), header + "Mistral-7B,max,false,bf16,0-31:fp8/full,0.02,train\n");
    const Run unknown = run({"quality", "add", set, path("rows4.csv"), "--workspace", kWorkspace});
    QCOMPARE(unknown.code, 2);
    QVERIFY(contains(unknown.err, "rows4.csv: line 4"));
    QVERIFY(contains(unknown.err, "unknown model 'Mistral-7B'"));
    // Synthetic rows never enter a measured set.
    write(path("rows5.csv"), "# synthetic: true\nmodel,algorithm,lm_head_quantized,kv,bands,rmqd,"
                             "split\nQwen3-8B,max,false,bf16,0-35:nvfp4/full,0.2,train\n");
    const Run synthetic =
        run({"quality", "add", set, path("rows5.csv"), "--workspace", kWorkspace});
    QCOMPARE(synthetic.code, 2);
    QVERIFY(contains(synthetic.err, "synthetic rows cannot go into a measured set"));
    // Nothing of the refused merges was saved.
    QCOMPARE(readFile(set), before);
    QCOMPARE(run({"quality", "add", set, "--workspace", kWorkspace}).code, 2); // no ROWS
}

ACSEL_TEST_GUILESS_MAIN(TestCliCampaign)
#include "test_cli_campaign.moc"
