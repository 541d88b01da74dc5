// acsel rmqd, generate quality and report quality end to end through the dispatcher.
#include "clirun.h"
#include "core/data/qualityset.h"
#include "core/data/safetensors.h"
#include "core/data/workspacefile.h"
#include "core/quality/ridgesurrogate.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace acsel;
using namespace acsel::cli::test;

class TestCliQuality : public QObject
{
    Q_OBJECT
private slots:
    void rmqdCommand();
    void generateRefusesOverwrite();
    void reportPrintsTableAndSaves();
    void reportRejectsBadSet();
    void csvSetCarriesTheSyntheticFlag();

private:
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }
};

void TestCliQuality::rmqdCommand()
{
    // The hand example of test_rmqd: RMQD 0.4895512004837192.
    writeSafetensors(
        path("o.safetensors"),
        {{"topk_ids", DType::I32, {3, 2}, encodeInts(DType::I32, {0, 2, 3, 1, 1, 0})},
         {"topk_probs",
          DType::F16,
          {3, 2},
          encodeFloats(DType::F16, {0.5, 0.25, 0.625, 0.375, 0.75, 0.125})},
         {"tail_mass", DType::F32, {3}, encodeFloats(DType::F32, {0.25, 0.0, 0.125})}});
    writeSafetensors(
        path("c.safetensors"),
        {{"logits",
          DType::F32,
          {3, 4},
          encodeFloats(DType::F32, {1.0, 0.5, -0.25, 2.0, 0, 0, 0, 0, -1.5, 3.0, 0.25, -100.0})}});
    const Run r = run({"rmqd", "--oracle", path("o.safetensors"), "--candidate",
                       path("c.safetensors"), "--json"});
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out);
    QVERIFY(std::abs(j["rmqd"].get<double>() - 0.4895512004837192) < 1e-9);
    QCOMPARE(j["tokens"].get<int>(), 3);
    const Run text =
        run({"rmqd", "--oracle", path("o.safetensors"), "--candidate", path("c.safetensors")});
    QVERIFY(contains(text.out, "RMQD 0.489551 nats over 3 tokens"));
    // A truncated candidate is bad input (exit 2) naming the file.
    std::filesystem::resize_file(path("c.safetensors"),
                                 std::filesystem::file_size(path("c.safetensors")) - 4);
    const Run bad =
        run({"rmqd", "--oracle", path("o.safetensors"), "--candidate", path("c.safetensors")});
    QCOMPARE(bad.code, 2);
    QVERIFY2(contains(bad.err, path("c.safetensors") + ": /logits/data_offsets"), bad.err.c_str());
    QCOMPARE(run({"rmqd", "--oracle", path("o.safetensors")}).code, 2); // --candidate missing
}

void TestCliQuality::generateRefusesOverwrite()
{
    const std::string out = path("demo.json");
    const Run a = run({"generate", "quality", "--workspace", kWorkspace, "--output", out});
    QCOMPARE(a.code, 0);
    QVERIFY(contains(a.out, "SYNTHETIC"));
    const Run b = run({"generate", "quality", "--workspace", kWorkspace, "--output", out});
    QCOMPARE(b.code, 2);
    QVERIFY(contains(b.err, "--force"));
    QCOMPARE(run({"generate", "quality", "--workspace", kWorkspace, "--output", out, "--force",
                  "--seed", "5"})
                 .code,
             0);
    const Run c = run({"generate", "quality", "--workspace", kWorkspace, "--output", path("x.json"),
                       "--train-rows", "100000"});
    QCOMPARE(c.code, 2);
    QVERIFY(contains(c.err, "leaves no held-out row"));
    const auto j = readJson(out);
    QCOMPARE(j["synthetic"].get<bool>(), true);
    QCOMPARE(j["generator"]["seed"].get<int>(), 5);
    QVERIFY(contains(j["generator"]["reference"].get<std::string>(), "Llama-3.1-405B"));

    // '-o -': the same bytes as the file on stdout (JSON), the summary on stderr, no file '-'.
    const Run toStdout =
        run({"generate", "quality", "--workspace", kWorkspace, "-o", "-", "--seed", "5"});
    QCOMPARE(toStdout.code, 0);
    QCOMPARE(toStdout.out, readFile(out));
    QVERIFY2(contains(toStdout.err, "SYNTHETIC quality rows (226 training) for 6 models to stdout"),
             toStdout.err.c_str());
    QVERIFY(!std::filesystem::exists("-"));

    // A family without a known oracle: refused, naming the model and the family.
    auto ws = readJson(kWorkspace);
    ws.erase("quality");
    ws.erase("platforms"); // relative to the datasets folder, not to this copy
    ws.erase("utilisation");
    ws.erase("request_overheads");
    ws["models"][0]["config"]["model_type"] = "mistral";
    const std::string wsFile = path("mistral_ws.json");
    std::ofstream(wsFile) << ws.dump();
    const Run d = run({"generate", "quality", "--workspace", wsFile, "--output", path("m.json")});
    QCOMPARE(d.code, 2);
    QVERIFY2(contains(d.err, "model Qwen3-0.6B: no oracle known for family 'mistral'"),
             d.err.c_str());
    QVERIFY(!std::filesystem::exists(path("m.json")));
}

void TestCliQuality::reportPrintsTableAndSaves()
{
    const std::string save = path("surrogate.json");
    const Run r = run({"report", "quality", "--workspace", kWorkspace, "--save", save});
    QCOMPARE(r.code, 0);
    for (const char* s :
         {"SYNTHETIC", "226 training", "held-out MdAPE", "unconstrained ridge",
          "constrained (w_bit>=0)", "bit_deficit_late *", "moves lower the prediction", "3.3 %",
          "2.6 %", "bit slope per third", "engine (+model offsets)", "20 re-drawn splits",
          "the constraint binds in"})
        QVERIFY2(contains(r.out, s), s);
    const RidgeSurrogate s = RidgeSurrogate::load(save);
    QVERIFY(s.monotone());
    QCOMPARE(s.trainingRows(), 226);
    // The engine's surrogate: an offset for each of the workspace's six models.
    QCOMPARE(s.modelOffsets().size(), std::size_t{6});
    QCOMPARE(run({"report", "quality", "--workspace", kWorkspace, "--save", save}).code,
             2); // exists
    QVERIFY(s.coding() == FeatureCoding::ScopeAware);
    for (const char* t : {"engine                0 of", "scope separation", "attn_noise_early"})
        QVERIFY2(contains(r.out, t), t);

    // --json: the same fits, machine-readable. The engine's surrogate lowers no prediction on a
    // move to fewer bits and separates every (model, format) pair's scopes.
    const Run js =
        run({"report", "quality", "--workspace", kWorkspace, "--json", "--resplits", "0"});
    QCOMPARE(js.code, 0);
    const auto j = nlohmann::json::parse(js.out);
    QCOMPARE(j["data"]["synthetic"].get<bool>(), true);
    QCOMPARE(j["rows"]["train"].get<int>(), 226);
    QVERIFY(!j.contains("resplit"));
    std::map<std::string, nlohmann::json> byName;
    for (const auto& e : j["surrogates"])
        byName[e["name"].get<std::string>()] = e;
    QCOMPARE(byName.size(), std::size_t{5});
    const auto& engine = byName["engine"];
    QCOMPARE(engine["feature_coding"].get<std::string>(), std::string("scope_aware"));
    QCOMPARE(engine["bit_reducing_moves"]["lower_prediction"].get<int>(), 0);
    QVERIFY(engine["bit_reducing_moves"]["moves"].get<int>() > 100000);
    QVERIFY(engine["scope_separation"]["all_separated"].get<bool>());
    QCOMPARE(engine["scope_separation"]["uniform_recipes"].size(), std::size_t{36});
    QVERIFY(engine["heldout_mdape_percent"].get<double>() > 0.0);
    QCOMPARE(byName["method_monotone"]["feature_coding"].get<std::string>(), std::string("method"));
    // The text's engine weights are the saved surrogate's.
    QCOMPARE(engine["weights"][13]["weight"].get<double>(), s.weights()[13]);
}

void TestCliQuality::reportRejectsBadSet()
{
    const std::string csv = path("bad.csv");
    std::ofstream(csv) << "model,algorithm,lm_head_quantized,kv,bands,rmqd,split\n"
                          "Qwen3-8B,max,false,bf16,0-35:fp8/full,0.001,train\n"
                          "Qwen3-8B,max,false,bf16,0-35:fp8/mlp,0.0008,train\n";
    const Run noHeldout = run({"report", "quality", "--workspace", kWorkspace, "--quality", csv});
    QCOMPARE(noHeldout.code, 2);
    QVERIFY2(contains(noHeldout.err, "one held-out row"), noHeldout.err.c_str());
    std::ofstream(csv) << "model,algorithm,kv,bands,rmqd,split\n";
    const Run missing = run({"report", "quality", "--workspace", kWorkspace, "--quality", csv});
    QCOMPARE(missing.code, 2);
    QVERIFY2(contains(missing.err, "lm_head_quantized"), missing.err.c_str());
}

// generate quality writes CSV for a .csv name, marked synthetic; the mark reaches the report's
// banner and the search's --json note as the JSON set's flag does. Without the provenance lines
// the same rows count as measured.
void TestCliQuality::csvSetCarriesTheSyntheticFlag()
{
    const std::string csv = path("demo5.csv"), jsonPath = path("demo5.json");
    for (const std::string& out : {csv, jsonPath})
        QCOMPARE(
            run({"generate", "quality", "--workspace", kWorkspace, "--output", out, "--seed", "5"})
                .code,
            0);
    const std::string text = readFile(csv);
    QVERIFY2(text.rfind("# synthetic: true\n# provenance: SYNTHETIC demo data", 0) == 0,
             text.substr(0, 200).c_str());
    QVERIFY(contains(text, "\n# generator: {"));
    const std::vector<ModelArch> models = loadWorkspace(kWorkspace, "").models;
    const QualitySet fromCsv = loadQualitySet(csv, models),
                     fromJson = loadQualitySet(jsonPath, models);
    QVERIFY(fromCsv.synthetic);
    QCOMPARE(fromCsv.provenance, fromJson.provenance);
    QVERIFY(fromCsv.generator == fromJson.generator);
    QCOMPARE(fromCsv.rows.size(), fromJson.rows.size());
    for (std::size_t i = 0; i < fromCsv.rows.size(); ++i)
        QVERIFY(fromCsv.rows[i].rmqd == fromJson.rows[i].rmqd &&
                fromCsv.rows[i].recipe == fromJson.rows[i].recipe);

    const Run marked = run({"report", "quality", "--workspace", kWorkspace, "--quality", csv});
    QCOMPARE(marked.code, 0);
    QVERIFY(contains(marked.out, csv + "  [SYNTHETIC: generated, not measured]"));
    QVERIFY(contains(marked.out, "made by: acsel generate quality --seed 5"));
    const std::string plain = path("plain.csv");
    std::ofstream(plain) << text.substr(text.find("\nmodel,") + 1); // the table alone
    const Run unmarked = run({"report", "quality", "--workspace", kWorkspace, "--quality", plain});
    QCOMPARE(unmarked.code, 0);
    QVERIFY(contains(unmarked.out, plain + "  [measured]"));
    QVERIFY(!contains(unmarked.out, "SYNTHETIC"));

    // A workspace that calls its quality file measured: the file's own mark wins, as for JSON.
    auto searchJson = [&](const std::string& qualityFile, const std::string& model,
                          const char* ttft, const char* tpot) {
        auto ws = readJson(kWorkspace);
        ws["quality"] = {{"file", qualityFile}, {"synthetic", false}};
        ws["platforms"] = ACSEL_DATASETS "/platforms.json";
        ws["utilisation"] = ACSEL_DATASETS "/utilisation.json";
        ws["request_overheads"] = ACSEL_DATASETS "/request_overheads.json";
        const std::string wsFile = path("csv_ws.json");
        std::ofstream(wsFile) << ws.dump();
        return run({"search", "--workspace", wsFile, "--stack", "jetson_agx_thor/vllm", "--model",
                    model, "--ttft", ttft, "--tpot", tpot, "--json"});
    };
    const Run synthetic = searchJson(csv, "Qwen3-0.6B", "5000", "200"),
              measured = searchJson(plain, "Qwen3-0.6B", "5000", "200");
    QCOMPARE(synthetic.code, 0);
    QCOMPARE(measured.code, 0);
    const auto note = [](const Run& r) {
        return nlohmann::json::parse(r.out)["predictions"].value("note", std::string());
    };
    // The note names the latency source first, then the synthetic-data caveat, if any.
    const std::string latency = "latency from spec-sheet estimate (no operator tables for "
                                "jetson_agx_thor/vllm; ";
    QVERIFY2(note(synthetic).starts_with(latency), note(synthetic).c_str());
    QVERIFY2(note(synthetic).ends_with(
                 "; RMQD predicted by a surrogate fitted on SYNTHETIC quality data"),
             note(synthetic).c_str());
    QVERIFY2(note(measured).starts_with(latency), note(measured).c_str());
    QVERIFY(!contains(note(measured), "SYNTHETIC"));

    // A model without rows of its own is predicted from the others' trend: the search says so.
    std::ofstream(path("no_llama.csv")) << [&] {
        std::string kept;
        std::istringstream lines(readFile(plain));
        for (std::string line; std::getline(lines, line);)
            if (line.rfind("Llama-3.1-8B,", 0) != 0)
                kept += line + "\n";
        return kept;
    }();
    const Run llama = searchJson(path("no_llama.csv"), "Llama-3.1-8B", "50000", "2000"),
              qwen = searchJson(path("no_llama.csv"), "Qwen3-8B", "50000", "2000");
    QCOMPARE(llama.code, 0);
    QVERIFY2(contains(llama.err, "warning: the quality data has no rows of Llama-3.1-8B"),
             llama.err.c_str());
    QVERIFY(contains(note(llama), "no quality data of this model"));
    QCOMPARE(qwen.code, 0);
    QVERIFY2(!contains(qwen.err, "no rows of"), qwen.err.c_str());
}

ACSEL_TEST_APPLESS_MAIN(TestCliQuality)
#include "test_cli_quality.moc"
