// acsel rmqd, generate quality and report quality end to end through the dispatcher.
#include "clirun.h"
#include "core/data/safetensors.h"
#include "core/quality/ridgesurrogate.h"

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace acsel;
using namespace acsel::cli;

namespace
{

using acsel::cli::test::Run;
using acsel::cli::test::run;

const std::string kWorkspace = ACSEL_DATASETS "/workspace.json";

} // namespace

class TestCliQuality : public QObject
{
    Q_OBJECT
private slots:
    void rmqdCommand();
    void generateRefusesOverwrite();
    void reportPrintsTableAndSaves();
    void reportRejectsBadSet();

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
    QVERIFY(text.out.find("RMQD 0.489551 nats over 3 tokens") != std::string::npos);
    // A truncated candidate is bad input (exit 2) naming the file.
    std::filesystem::resize_file(path("c.safetensors"),
                                 std::filesystem::file_size(path("c.safetensors")) - 4);
    const Run bad =
        run({"rmqd", "--oracle", path("o.safetensors"), "--candidate", path("c.safetensors")});
    QCOMPARE(bad.code, 2);
    QVERIFY2(bad.err.find(path("c.safetensors") + ": /logits/data_offsets") != std::string::npos,
             bad.err.c_str());
    QCOMPARE(run({"rmqd", "--oracle", path("o.safetensors")}).code, 2); // --candidate missing
}

void TestCliQuality::generateRefusesOverwrite()
{
    const std::string out = path("demo.json");
    const Run a = run({"generate", "quality", "--workspace", kWorkspace, "--output", out});
    QCOMPARE(a.code, 0);
    QVERIFY(a.out.find("SYNTHETIC") != std::string::npos);
    const Run b = run({"generate", "quality", "--workspace", kWorkspace, "--output", out});
    QCOMPARE(b.code, 2);
    QVERIFY(b.err.find("--force") != std::string::npos);
    QCOMPARE(run({"generate", "quality", "--workspace", kWorkspace, "--output", out, "--force",
                  "--seed", "5"})
                 .code,
             0);
    const Run c = run({"generate", "quality", "--workspace", kWorkspace, "--output", path("x.json"),
                       "--train-rows", "100000"});
    QCOMPARE(c.code, 2);
    QVERIFY(c.err.find("leaves no held-out row") != std::string::npos);
    std::ifstream in(out);
    const auto j = nlohmann::json::parse(in);
    QCOMPARE(j["synthetic"].get<bool>(), true);
    QCOMPARE(j["generator"]["seed"].get<int>(), 5);
    QVERIFY(j["generator"]["reference"].get<std::string>().find("Llama-3.1-405B") !=
            std::string::npos);

    // A family without a known oracle: refused, naming the model and the family.
    std::ifstream wsIn(kWorkspace);
    auto ws = nlohmann::json::parse(wsIn);
    ws.erase("quality");
    ws.erase("platforms"); // relative to the datasets folder, not to this copy
    ws.erase("utilisation");
    ws["models"][0]["config"]["model_type"] = "mistral";
    const std::string wsFile = path("mistral_ws.json");
    std::ofstream(wsFile) << ws.dump();
    const Run d = run({"generate", "quality", "--workspace", wsFile, "--output", path("m.json")});
    QCOMPARE(d.code, 2);
    QVERIFY2(d.err.find("model Qwen3-0.6B: no oracle known for family 'mistral'") !=
                 std::string::npos,
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
          "2.6 %", "bit slope per third", "free intercept per model", "20 re-drawn splits",
          "the constraint binds in"})
        QVERIFY2(r.out.find(s) != std::string::npos, s);
    const RidgeSurrogate s = RidgeSurrogate::load(save);
    QVERIFY(s.monotone());
    QCOMPARE(s.trainingRows(), 226);
    QCOMPARE(run({"report", "quality", "--workspace", kWorkspace, "--save", save}).code,
             2); // exists
}

void TestCliQuality::reportRejectsBadSet()
{
    const std::string csv = path("bad.csv");
    std::ofstream(csv) << "model,algorithm,lm_head_quantized,kv,bands,rmqd,split\n"
                          "Qwen3-8B,max,false,bf16,0-35:fp8/full,0.001,train\n"
                          "Qwen3-8B,max,false,bf16,0-35:fp8/mlp,0.0008,train\n";
    const Run noHeldout = run({"report", "quality", "--workspace", kWorkspace, "--quality", csv});
    QCOMPARE(noHeldout.code, 2);
    QVERIFY2(noHeldout.err.find("one held-out row") != std::string::npos, noHeldout.err.c_str());
    std::ofstream(csv) << "model,algorithm,kv,bands,rmqd,split\n";
    const Run missing = run({"report", "quality", "--workspace", kWorkspace, "--quality", csv});
    QCOMPARE(missing.code, 2);
    QVERIFY2(missing.err.find("lm_head_quantized") != std::string::npos, missing.err.c_str());
}

QTEST_APPLESS_MAIN(TestCliQuality)
#include "test_cli_quality.moc"
