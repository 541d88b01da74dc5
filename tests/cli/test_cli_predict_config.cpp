// acsel predict --config: the predictions, breakdowns, throughput and gate verdict of one
// configuration file, checked against hand-computed values (KV bytes, throughput), the gate's
// own budgets, and what acsel search --json recorded for its answer.
#include "clirun.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace acsel::cli::test;
using nlohmann::json;

namespace
{

const char* const kStack = "jetson_agx_thor/vllm"; // spec-only: runs without the tables

json requestJson(double ttft, double tpot, double memory)
{
    return {{"schema_version", 1},
            {"stack", kStack},
            {"request",
             {{"isl", 512},
              {"osl", 128},
              {"concurrency", 4},
              {"ttft_budget_ms", ttft},
              {"tpot_budget_ms", tpot},
              {"memory_budget_gib", memory},
              {"mode", "static"}}}};
}

// Qwen3-8B, uniform bf16, batch 4, bf16 KV.
json configJson(double ttft, double tpot, double memory)
{
    json j = requestJson(ttft, tpot, memory);
    j["tool"] = {{"name", "acsel-studio"}, {"version", "0.1.0"}};
    j["model"] = {{"name", "Qwen3-8B"}, {"hf_id", "Qwen/Qwen3-8B"}};
    j["config"] = {
        {"batch", 4},
        {"bands",
         {{{"first_layer", 0}, {"last_layer", 35}, {"format", "bf16"}, {"scope", "full"}}}},
        {"algorithm", "max"},
        {"lm_head_quantized", false},
        {"kv_cache", "bf16"}};
    return j;
}

std::string write(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path) << text;
    return path;
}

double sumOf(const json& rows, const char* unit)
{
    double s = 0;
    for (const json& r : rows)
        s += r[unit].get<double>();
    return s;
}

Run predictJson(const std::string& config, const std::string& request = {})
{
    std::vector<std::string> argv = {"predict",  "--workspace", kWorkspace,
                                     "--config", config,        "--json"};
    if (!request.empty()) {
        argv.push_back("--request");
        argv.push_back(request);
    }
    qputenv("ACSEL_TABLES", "none");
    Run r = run(argv);
    qputenv("ACSEL_TABLES", "");
    return r;
}

} // namespace

class TestCliPredictConfig : public QObject
{
    Q_OBJECT
private slots:
    void admittedWithBreakdownsAndThroughput();
    void verdictsFollowTheRequest();
    void searchAnswerPredictsAsRecorded();
    void textShowsWhatTheBandEditorShows();
    void badInput();
    void tensorParallelPerGpu();
    void confidenceAtTheRequestsConcurrency();
};

void TestCliPredictConfig::admittedWithBreakdownsAndThroughput()
{
    QTemporaryDir dir;
    const Run r = predictJson(write(dir, "c.json", configJson(1e6, 1e6, 100).dump()));
    QCOMPARE(r.code, 0);
    const json j = json::parse(r.out);
    QCOMPARE(j["gate"]["verdict"].get<std::string>(), std::string("admitted"));
    const json& p = j["predictions"];
    const double ttft = p["ttft_ms"], tpot = p["tpot_ms"], mem = p["memory_gib"];
    QVERIFY(ttft > 0 && tpot > 0 && mem > 0 && p["rmqd"].get<double>() > 0);
    QCOMPARE(p["raw_ttft_ms"].get<double>(), ttft); // no FMC loaded
    // Every breakdown sums to its prediction (the band editor's columns).
    QVERIFY(std::abs(sumOf(j["breakdown"]["ttft"], "ms") - ttft) < 1e-9 * ttft);
    QVERIFY(std::abs(sumOf(j["breakdown"]["tpot"], "ms") - tpot) < 1e-9 * tpot);
    QVERIFY(std::abs(sumOf(j["breakdown"]["memory"], "gib") - mem) < 1e-9 * mem);
    // KV cache by hand: batch 4 x (512 + 128) tokens x 36 layers x 2 (K, V) x 8 KV heads x 128
    // x 2 bytes = 377,487,360 bytes = 0.3515625 GiB.
    bool sawKv = false;
    for (const json& row : j["breakdown"]["memory"])
        if (row["part"] == "KV cache") {
            sawKv = true;
            QVERIFY(std::abs(row["gib"].get<double>() - 0.3515625) < 1e-12);
        }
    QVERIFY(sawKv);
    // Throughput: one request is TTFT + 127 TPOT; 4 clients in a closed loop.
    const json& t = j["throughput"];
    const double requestMs = ttft + 127 * tpot;
    QVERIFY(std::abs(t["request_ms"].get<double>() - requestMs) < 1e-9 * requestMs);
    QVERIFY(std::abs(t["tokens_per_s_per_user"].get<double>() - 1000 / tpot) < 1e-9);
    QVERIFY(std::abs(t["requests_per_s"].get<double>() - 4000 / requestMs) < 1e-12);
    QVERIFY(std::abs(t["tokens_per_s_per_gpu"].get<double>() - 4000 * 128 / requestMs) < 1e-9);
    // The Thor plans with 112 GiB: the 100 GiB budget is the limit, below the device.
    QCOMPARE(j["request"]["memory_limit_gib"].get<double>(), 100.0);
    QVERIFY(j["quality_synthetic"].get<bool>());
}

void TestCliPredictConfig::verdictsFollowTheRequest()
{
    QTemporaryDir dir;
    const std::string config = write(dir, "c.json", configJson(1e6, 1e6, 100).dump());
    const json admitted = json::parse(predictJson(config).out);
    const double ttft = admitted["predictions"]["ttft_ms"],
                 tpot = admitted["predictions"]["tpot_ms"];

    // TTFT over its budget: the TTFT verdict, with the numbers in the reason.
    Run r = predictJson(config, write(dir, "q1.json", requestJson(ttft / 2, 1e6, 100).dump()));
    QCOMPARE(r.code, 0);
    json j = json::parse(r.out);
    QCOMPARE(j["gate"]["verdict"].get<std::string>(), std::string("TTFT"));
    QVERIFY(contains(j["gate"]["reason"].get<std::string>(), "exceeds the budget"));

    // TPOT just under its prediction: TTFT passes, TPOT does not.
    r = predictJson(config, write(dir, "q2.json", requestJson(1e6, tpot * 0.999, 100).dump()));
    QCOMPARE(json::parse(r.out)["gate"]["verdict"].get<std::string>(), std::string("TPOT"));

    // Memory below the weights: the gate stops before latency, the latency is still shown and
    // equals the admitted prediction (same configuration and workload).
    r = predictJson(config, write(dir, "q3.json", requestJson(1e6, 1e6, 1).dump()));
    j = json::parse(r.out);
    QCOMPARE(j["gate"]["verdict"].get<std::string>(), std::string("memory"));
    QCOMPARE(j["predictions"]["ttft_ms"].get<double>(), ttft);
    QCOMPARE(j["request"]["memory_limit_gib"].get<double>(), 1.0);

    // A budget above the device: the device's memory is the limit.
    r = predictJson(config, write(dir, "q4.json", requestJson(1e6, 1e6, 500).dump()));
    j = json::parse(r.out);
    QCOMPARE(j["request"]["memory_limit_gib"].get<double>(),
             j["request"]["gpu_memory_gib"].get<double>());
    QVERIFY(j["request"]["gpu_memory_gib"].get<double>() < 500);
}

void TestCliPredictConfig::searchAnswerPredictsAsRecorded()
{
    QTemporaryDir dir;
    qputenv("ACSEL_TABLES", "none");
    const Run s = run({"search",
                       "--workspace",
                       kWorkspace,
                       "--stack",
                       kStack,
                       "--model",
                       "Qwen3-1.7B,Qwen3-8B",
                       "--isl",
                       "512",
                       "--osl",
                       "128",
                       "--concurrency",
                       "2",
                       "--ttft",
                       "400",
                       "--tpot",
                       "30",
                       "--memory",
                       "24",
                       "--json"});
    qputenv("ACSEL_TABLES", "");
    QCOMPARE(s.code, 0);
    const json recorded = json::parse(s.out)["predictions"];
    const Run r = predictJson(write(dir, "answer.json", s.out));
    QCOMPARE(r.code, 0);
    const json j = json::parse(r.out);
    QCOMPARE(j["gate"]["verdict"].get<std::string>(), std::string("admitted"));
    for (const char* key : {"ttft_ms", "tpot_ms", "memory_gib", "rmqd"}) {
        const double a = recorded[key], b = j["predictions"][key];
        QVERIFY2(std::abs(a - b) <= 1e-12 * std::abs(a), key);
    }
}

void TestCliPredictConfig::textShowsWhatTheBandEditorShows()
{
    QTemporaryDir dir;
    const std::string config = write(dir, "c.json", configJson(1e6, 1e6, 500).dump());
    qputenv("ACSEL_TABLES", "none");
    const Run r = run({"predict", "--workspace", kWorkspace, "--config", config});
    qputenv("ACSEL_TABLES", "");
    QCOMPARE(r.code, 0);
    QVERIFY(contains(r.out, "configuration: Qwen3-8B, batch 4, 0-35 bf16, max, KV bf16"));
    QVERIFY(contains(r.out, "memory <= 500.00 GiB (capped at the GPU's 112.00 GiB)"));
    QVERIFY(contains(r.out, "  gate: admitted\n"));
    QVERIFY(contains(r.out, "tokens/s per user"));
    QVERIFY(contains(r.out, "TTFT by operator class (ms):"));
    QVERIFY(contains(r.out, "    KV cache"));
    QVERIFY(contains(r.out, "SYNTHETIC"));
}

void TestCliPredictConfig::badInput()
{
    QTemporaryDir dir;
    QCOMPARE(predictJson(dir.filePath("missing.json").toStdString()).code, 2);
    const std::string truncated = configJson(1, 1, 1).dump().substr(0, 40);
    const Run t = predictJson(write(dir, "t.json", truncated));
    QCOMPARE(t.code, 2);
    QVERIFY(contains(t.err, "t.json"));
    json unknown = requestJson(1, 1, 1);
    unknown["stack"] = "nope/nope";
    const Run u = predictJson(write(dir, "c.json", configJson(1, 1, 1).dump()),
                              write(dir, "q.json", unknown.dump()));
    QCOMPARE(u.code, 2);
    QVERIFY(contains(u.err, "unknown stack 'nope/nope'"));
    // tp 2 on a single-GPU device (no tables, no interconnect), and on a request of one GPU.
    json tp2 = configJson(1, 1, 1);
    tp2["request"]["gpus"] = 2;
    tp2["config"]["tp"] = 2;
    const Run s = predictJson(write(dir, "tp.json", tp2.dump()));
    QCOMPARE(s.code, 2);
    QVERIFY2(contains(s.err, "tp.json: /config/tp: tp 2 cannot be costed on "
                             "jetson_agx_thor/vllm: it has no all-reduce tables"),
             s.err.c_str());
    const Run g = predictJson(write(dir, "tp.json", tp2.dump()),
                              write(dir, "q1.json", requestJson(1, 1, 1).dump()));
    QCOMPARE(g.code, 2);
    QVERIFY2(contains(g.err, "q1.json: /request/gpus: the configuration's tp 2 needs at least 2"),
             g.err.c_str());
}

// tp 2 on a stack with all-reduce tables: one GPU's KV cache, an all-reduce row, and the
// output tokens shared by the 2 GPUs.
void TestCliPredictConfig::tensorParallelPerGpu()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    QTemporaryDir dir;
    json c = configJson(1e6, 1e6, 80);
    c["stack"] = "h100_sxm/vllm";
    c["request"]["gpus"] = 2;
    c["config"]["tp"] = 2;
    const Run r = run({"predict", "--workspace", kWorkspace, "--tables", kTables, "--config",
                       write(dir, "c.json", c.dump()), "--json"});
    QVERIFY2(r.code == 0, r.err.c_str());
    const json j = json::parse(r.out);
    QCOMPARE(j["tp"].get<int>(), 2);
    // KV by hand: 4 x 640 tokens x 36 layers x 2 x 4 KV heads (8 / 2) x 128 x 2 bytes =
    // 188,743,680 bytes = 0.17578125 GiB.
    double kv = 0, allReduce = 0;
    for (const json& row : j["breakdown"]["memory"])
        if (row["part"] == "KV cache")
            kv = row["gib"];
    for (const json& row : j["breakdown"]["ttft"])
        if (row["part"] == "all-reduce (tensor parallel)")
            allReduce = row["ms"];
    QCOMPARE(kv, 0.17578125);
    QVERIFY(allReduce > 0);
    const double requestMs = j["throughput"]["request_ms"];
    QVERIFY(std::abs(j["throughput"]["tokens_per_s_per_gpu"].get<double>() -
                     4000 * 128 / requestMs / 2) < 1e-9);
}

void TestCliPredictConfig::confidenceAtTheRequestsConcurrency()
{
    // An FMC file whose lines are the identity, with a stack spread (20 profiles, scale 0.5) and
    // one for concurrency 4 (centre 0.3, 5 profiles, scale 0.1). The 0.9-quantile shifts, from
    // printed t tables: stack t_19(0.9) 1.3277 x 0.5 x sqrt(1 + 1/20) = 0.68024; at 4
    // 0.3 + t_4(0.9) 1.5332 x 0.1 x sqrt(1 + 1/5) = 0.46795.
    const json spread = {{"profiles", 20}, {"dof", 19}, {"log_scale", 0.5}};
    const json metric = {
        {"gamma", 1},
        {"delta", 0},
        {"form", "identity"},
        {"spread", spread},
        {"load_spreads",
         {{{"load", "c4"}, {"centre", 0.3}, {"profiles", 5}, {"dof", 4}, {"log_scale", 0.1}}}}};
    const json fmc = {
        {"schema_version", 2},
        {"kind", "acsel-fmc"},
        {"tau", 0.5},
        {"serving_mode", "static"},
        {"stacks",
         {{{"stack", kStack}, {"ttft", metric}, {"tpot", metric}, {"rows_used", json::array()}}}}};
    QTemporaryDir dir;
    const std::string fmcFile = write(dir, "fmc.json", fmc.dump());
    const std::string config = write(dir, "c.json", configJson(1e6, 1e6, 100).dump());
    const auto ttftRatio = [&](int concurrency) {
        json q = requestJson(1e6, 1e6, 100);
        q["request"]["concurrency"] = concurrency;
        const std::string request = write(dir, "q.json", q.dump());
        qputenv("ACSEL_TABLES", "none");
        const Run r = run({"predict", "--workspace", kWorkspace, "--config", config, "--request",
                           request, "--fmc", fmcFile, "--confidence", "0.9", "--json"});
        qputenv("ACSEL_TABLES", "");
        const json out = json::parse(r.out);
        const json p = out["predictions"];
        // The output names the gate with its source.
        const std::string gate = "gated at p >= 0.9 (its 0.9-quantile line at concurrency " +
                                 std::to_string(concurrency) + ", up to 1 GPU)";
        if (!contains(out["latency_calibration"].get<std::string>(), gate))
            return -1.0;
        return p["ttft_ms"].get<double>() / p["raw_ttft_ms"].get<double>();
    };
    // At the fitted concurrency its own quantile, below it the stack's (the wider).
    QVERIFY(std::abs(ttftRatio(4) - std::exp(0.46795)) < 1e-3);
    QVERIFY(std::abs(ttftRatio(2) - std::exp(0.68024)) < 1e-3);
}

ACSEL_TEST_GUILESS_MAIN(TestCliPredictConfig)
#include "test_cli_predict_config.moc"
