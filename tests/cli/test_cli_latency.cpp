// acsel calibrate / predict / report latency / bench latency end to end: outputs, the
// overwrite guard, row mapping with reasons, and bad input.
#include "clirun.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace acsel::cli::test;

namespace
{

const std::string kSilicon = ACSEL_SHARED_DIR "/aic/silicon/dense_tp1.csv";
const std::string kSmall = ACSEL_TEST_DATA "/latency/silicon_small.csv";

bool haveData()
{
    return QFileInfo::exists(QString::fromStdString(kSilicon));
}

std::vector<std::string> base(std::vector<std::string> cmd)
{
    for (const std::string& a :
         {std::string("--workspace"), kWorkspace, std::string("--tables"), kTables})
        cmd.push_back(a);
    return cmd;
}

} // namespace

class TestCliLatency : public QObject
{
    Q_OBJECT
private slots:
    void predictMapsRowsAndSaysWhyNot();
    void calibrateWritesProvenanceAndGuardsOverwrite();
    void predictWithFmc();
    void reportLatencyFmcBeatsRaw();
    void reportLatencyRows();
    void benchRuns();
    void badInput();
};

void TestCliLatency::predictMapsRowsAndSaysWhyNot()
{
    if (!haveData())
        QSKIP("../shared/aic not present");
    auto argv = base({"predict", "--measurements", kSmall, "--json"});
    const Run r = run(argv);
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j["rows"].size(), std::size_t{2});
    QCOMPARE(j["skipped"].size(), std::size_t{3});
    for (const auto& row : j["rows"]) {
        QVERIFY(row["stack"] == "h100_sxm/trtllm");
        QVERIFY(row["model"] == "Llama-3.1-8B");
        QVERIFY(row["ttft_raw_ms"].get<double>() > 0);
        QVERIFY(row["tpot_raw_ms"].get<double>() > 0);
        QVERIFY(row["memory_gib"].get<double>() > 14); // 8B weights alone are ~15 GiB in bf16
    }
    QVERIFY(j["rows"][0]["recipe"] == "0-31 bf16");     // empty gemm_quant_mode = bf16
    QVERIFY(j["rows"][1]["recipe"] == "0-31 fp8/full"); // the -FP8 checkpoint id
    QVERIFY(contains(j["skipped"][0]["reason"].get<std::string>(),
                     "no operator tables for gb200/trtllm"));
    QVERIFY(contains(j["skipped"][1]["reason"].get<std::string>(), "matches no workspace model"));
    QVERIFY(contains(j["skipped"][2]["reason"].get<std::string>(), "single-GPU"));
    const std::string assumptions = j["assumptions"].dump();
    QVERIFY(contains(assumptions, "empty gemm_quant_mode read as bf16"));
    QVERIFY(contains(assumptions, "tables are 1.3.0rc20"));
}

void TestCliLatency::calibrateWritesProvenanceAndGuardsOverwrite()
{
    if (!haveData())
        QSKIP("../shared/aic not present");
    QTemporaryDir dir;
    const std::string out = dir.filePath("fmc.json").toStdString();
    const Run r = run(base({"calibrate", "--measurements", kSilicon, "-o", out}));
    QVERIFY2(r.code == 0, r.err.c_str());
    const auto j = readJson(out);
    QVERIFY(j["kind"] == "acsel-fmc");
    QCOMPARE(j["tau"].get<double>(), 0.5);
    std::size_t rows = 0;
    for (const auto& s : j["stacks"])
        rows += s["rows_used"].size();
    QCOMPARE(rows, std::size_t{151}); // 152 rows, gb200 has no tables
    QCOMPARE(j["stacks"].size(), std::size_t{6});
    QCOMPARE(j["rows_skipped"].size(), std::size_t{1});
    // Refuses to overwrite without --force (exit 2), accepts with it.
    const Run again =
        run(base({"calibrate", "--measurements", kSilicon, "-o", out, "--tau", "0.8"}));
    QCOMPARE(again.code, 2);
    QVERIFY(contains(again.err, "--force"));
    const Run forced =
        run(base({"calibrate", "--measurements", kSilicon, "-o", out, "--tau", "0.8", "--force"}));
    QCOMPARE(forced.code, 0);
    QCOMPARE(readJson(out)["tau"].get<double>(), 0.8);
    QVERIFY(!QFileInfo::exists(QString::fromStdString(out + ".tmp")));
}

void TestCliLatency::predictWithFmc()
{
    if (!haveData())
        QSKIP("../shared/aic not present");
    QTemporaryDir dir;
    const std::string fmc = dir.filePath("fmc.json").toStdString();
    QCOMPARE(run(base({"calibrate", "--measurements", kSilicon, "-o", fmc})).code, 0);
    const Run r = run(base({"predict", "--measurements", kSilicon, "--fmc", fmc, "--json"}));
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j["rows"].size(), std::size_t{151});
    // Median calibration on all rows of a stack: about half the calibrated TTFTs lie at or
    // above the measurement, per stack (with ties for the two points on the line).
    int above = 0, n = 0;
    for (const auto& row : j["rows"]) {
        QVERIFY(row.contains("ttft_fmc_ms") && row.contains("tpot_fmc_ms"));
        if (row["stack"] == "h100_sxm/trtllm") {
            ++n;
            above += row["ttft_fmc_ms"].get<double>() >=
                     row["measured_ttft_ms"].get<double>() * (1 - 1e-9);
        }
    }
    QCOMPARE(n, 85);
    QVERIFY2(above >= 42 && above <= 45, std::to_string(above).c_str());
}

void TestCliLatency::reportLatencyFmcBeatsRaw()
{
    if (!haveData())
        QSKIP("../shared/aic not present");
    const Run r = run(base({"report", "latency", "--measurements", kSilicon, "--profiles", "5",
                            "--seeds", "3", "--mode", "static", "--json"}));
    QVERIFY2(r.code == 0, r.err.c_str());
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j["stacks"].size(), std::size_t{5});
    QCOMPARE(j["excluded_stacks"].size(), std::size_t{1}); // h100_sxm/vllm: 1 row
    QVERIFY(j["excluded_stacks"][0]["stack"] == "h100_sxm/vllm");
    QCOMPARE(j["rows_per_stack"]["h100_sxm/trtllm"].get<int>(), 85);
    const double raw = j["mean_ttft_mdape"]["raw"], fmc = j["mean_ttft_mdape"]["fmc"];
    QVERIFY2(fmc < 0.5 * raw, (std::to_string(fmc) + " vs raw " + std::to_string(raw)).c_str());
    // The continuous model (docs/SERVING.md) cuts the raw TTFT error and the calibrated TPOT.
    const auto& c = j["continuous"];
    QVERIFY(c["mean_ttft_mdape"]["raw"].get<double>() < 0.25 * raw);
    QVERIFY(c["mean_tpot_mdape"]["fmc"].get<double>() <
            j["static"]["mean_tpot_mdape"]["fmc"].get<double>());
    const Run text = run(base({"report", "latency", "--measurements", kSilicon}));
    QCOMPARE(text.code, 0);
    QVERIFY(contains(text.out, "| mean of 5 stacks |"));
    QVERIFY(contains(text.out, "excluded row qwen3_32b_qwen3_32b_gb200"));
}

// --rows: one CSV line per predicted row with the continuous model's terms.
void TestCliLatency::reportLatencyRows()
{
    if (!haveData())
        QSKIP("../shared/aic not present");
    const Run r = run(base({"report", "latency", "--measurements", kSmall, "--rows"}));
    QVERIFY2(r.code == 0, r.err.c_str());
    std::istringstream in(r.out);
    std::vector<std::vector<std::string>> lines;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        std::istringstream l(line);
        for (std::string c; std::getline(l, c, ',');)
            cells.push_back(c);
        lines.push_back(cells);
    }
    QCOMPARE(lines.size(), std::size_t{3}); // header + the two predictable rows
    const auto col = [&](const std::string& name) {
        const auto& h = lines[0];
        return static_cast<std::size_t>(std::find(h.begin(), h.end(), name) - h.begin());
    };
    const auto& a = lines[1]; // llama8b_bf16_a: h100_sxm/trtllm, 1024 x 128 at c 8, 200 ms
    QVERIFY(a[col("stack")] == "h100_sxm/trtllm");
    QVERIFY(a[col("isl")] == "1024" && a[col("osl")] == "128");
    QVERIFY(a[col("concurrency")] == "8" && a[col("running")] == "8");
    QVERIFY(a[col("ttft_ms")] == "200");
    // 8 x 1,024 tokens fill one whole-prompt step of TRT-LLM's 8,192-token budget: the first
    // round is exactly the static batch prefill.
    QVERIFY(a[col("warmup")] == a[col("ttft_static")]);
    // TTFT = (first round + 9 steady rounds) / 10, steady = backlog + arrival + own chunks.
    const auto num = [&](const char* name) { return std::stod(a[col(name)]); };
    const double steady = num("backlog") + num("arrival") + num("chunks") * num("own_prefill_step");
    QVERIFY(std::abs(num("ttft_cont") - (num("warmup") + 9 * steady) / 10) <
            1e-4 * num("ttft_cont"));
}

void TestCliLatency::benchRuns()
{
    if (!haveData())
        QSKIP("../shared/aic not present");
    const Run r = run(base({"bench", "latency", "--reps", "5"}));
    QVERIFY2(r.code == 0, r.err.c_str());
    QVERIFY(contains(r.out, "naive per-layer baseline"));
    QVERIFY(contains(r.out, "speed-up"));
}

void TestCliLatency::badInput()
{
    QTemporaryDir dir;
    const std::string bad = dir.filePath("bad.csv").toStdString();
    std::ofstream(bad) << "id,backend,backend_version,model_path,system,isl,osl,gemm_quant_mode,"
                          "batch_size,tp_size,silicon_ttft_ms\n"
                          "a,trtllm,1,m,h100_sxm,1,1,,1,1,5\n";
    Run r = run(base({"predict", "--measurements", bad}));
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, bad + ": header: missing column 'silicon_tpot_ms'"), r.err.c_str());
    std::ofstream(bad) << "id,backend,backend_version,model_path,system,isl,osl,gemm_quant_mode,"
                          "batch_size,tp_size,silicon_ttft_ms,silicon_tpot_ms\n"
                          "a,trtllm,1,m,h100_sxm,1,1,,1,1,5,-3\n";
    r = run(base({"predict", "--measurements", bad}));
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, "line 2, column 'silicon_tpot_ms': expected a positive number"),
             r.err.c_str());
    r = run(base({"calibrate", "--measurements", kSmall}));
    QCOMPARE(r.code, 2);
    QVERIFY(contains(r.err, "missing --output"));
    const std::string fmc = dir.filePath("fmc.json").toStdString();
    std::ofstream(fmc)
        << R"({"schema_version": 1, "kind": "acsel-fmc", "tau": 0.5, "stacks": [{"stack": "x", "ttft": {"gamma": "one", "delta": 0}}]})";
    r = run(base({"predict", "--measurements", kSmall, "--fmc", fmc}));
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, "/stacks/0/ttft/gamma"), r.err.c_str());
    r = run(base({"report", "latency", "--measurements", kSmall, "--profiles", "0"}));
    QCOMPARE(r.code, 2);
}

QTEST_APPLESS_MAIN(TestCliLatency)
#include "test_cli_latency.moc"
