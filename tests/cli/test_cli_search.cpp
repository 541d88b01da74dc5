// acsel search / recommend end to end: the answer passes the gate, --json is what acsel export
// reads, and bad requests are exit 2.
#include "clirun.h"
#include "core/data/configjson.h"
#include "testmain.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

using namespace acsel::cli::test;

class TestCliSearch : public QObject
{
    Q_OBJECT
private slots:
    void recommendWithoutTables();
    void searchJsonFeedsExport();
    void badRequests();
    void fmcOfTheOtherServingModelIsFlagged();
    void topAlternativesAndFilters();
    void flagsTheRequestCannotHonourAreExit2();
    void modeFlagStandsInForTheFile();
    void outputsNameTheLatencySource();
    void gpusAndSizingByGpus();
    void engineMemoryIsTheLaunchFlags();
};

void TestCliSearch::recommendWithoutTables()
{
    qputenv("ACSEL_TABLES", "none");
    const Run r = run({"recommend", "--workspace", kWorkspace});
    qputenv("ACSEL_TABLES", "");
    QCOMPARE(r.code, 0);
    QVERIFY(contains(r.out, "running without operator tables"));
    QVERIFY(contains(r.out, "jetson_agx_thor"));
    QVERIFY(contains(r.out, "gate: admitted"));
    QVERIFY(contains(r.out, "SYNTHETIC"));
}

void TestCliSearch::searchJsonFeedsExport()
{
    QTemporaryDir dir;
    const std::string config = dir.filePath("config.json").toStdString();
    const Run s = run({"search",
                       "--workspace",
                       kWorkspace,
                       "--stack",
                       "jetson_agx_thor/vllm",
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
                       "--algo",
                       "exact",
                       "--json"});
    QCOMPARE(s.code, 0);
    std::ofstream(config) << s.out;
    const acsel::ConfigDocument doc = acsel::loadConfigJson(config);
    QVERIFY(doc.predictions.has_value());
    QVERIFY(doc.predictions->ttftMs <= 400 && doc.predictions->tpotMs <= 30);
    QVERIFY(doc.predictions->memoryGiB() <= 24);
    QVERIFY(doc.modelName == "Qwen3-1.7B" || doc.modelName == "Qwen3-8B");
    const std::string yaml = dir.filePath("recipe.yaml").toStdString();
    const Run e = run({"export", "--workspace", kWorkspace, "--config", config, "--as",
                       "modelopt-yaml", "-o", yaml});
    QCOMPARE(e.code, 0);
    QVERIFY(QFileInfo::exists(QString::fromStdString(yaml)));
}

void TestCliSearch::badRequests()
{
    QCOMPARE(run({"search", "--workspace", kWorkspace}).code, 2);
    QCOMPARE(run({"search", "--workspace", kWorkspace, "--stack", "nope/nope"}).code, 2);
    QCOMPARE(run({"search", "--workspace", kWorkspace, "--stack", "jetson_agx_thor/vllm", "--algo",
                  "magic"})
                 .code,
             2);
    // Impossible budgets: no answer, exit 3.
    QCOMPARE(run({"search", "--workspace", kWorkspace, "--stack", "jetson_agx_thor/vllm", "--ttft",
                  "0.001", "--tpot", "0.001", "--model", "Qwen3-0.6B"})
                 .code,
             3);
}

void TestCliSearch::fmcOfTheOtherServingModelIsFlagged()
{
    // An identity FMC line (gamma 1, delta 0) fitted on the continuous model: the search's
    // numbers are unchanged, but a static request is told that the line fits the other model.
    QTemporaryDir dir;
    const std::string fmc = dir.filePath("fmc.json").toStdString();
    std::ofstream(fmc) << R"({"schema_version": 1, "kind": "acsel-fmc", "tau": 0.5,
        "serving_mode": "continuous", "stacks": [{"stack": "jetson_agx_thor/vllm",
        "ttft": {"gamma": 1, "delta": 0}, "tpot": {"gamma": 1, "delta": 0}, "rows_used": []}]})";
    const std::vector<std::string> args = {
        "search",  "--workspace", kWorkspace, "--fmc", fmc,      "--stack", "jetson_agx_thor/vllm",
        "--model", "Qwen3-0.6B",  "--ttft",   "5000",  "--tpot", "200"};
    auto with = [&](const char* mode) {
        std::vector<std::string> a = args;
        a.insert(a.end(), {"--mode", mode});
        return run(a);
    };
    const Run stat = with("static");
    QCOMPARE(stat.code, 0);
    QVERIFY2(contains(stat.err, "fitted on the continuous serving model, the request uses the "
                                "static one"),
             stat.err.c_str());
    QVERIFY(contains(stat.out, "(0 profiles, continuous serving model)"));
    const Run cont = with("continuous");
    QCOMPARE(cont.code, 0);
    QVERIFY2(!contains(cont.err, "warning"), cont.err.c_str());
}

void TestCliSearch::topAlternativesAndFilters()
{
    // --top adds distinct alternatives after the answer (the plain --json has none of them);
    // the filters restrict the space; a filter the stack cannot meet is refused (exit 2).
    const std::vector<std::string> base = {
        "search",  "--workspace", kWorkspace,  "--stack", "jetson_agx_thor/vllm",
        "--model", "Qwen3-0.6B",  "--formats", "fp8",     "--scopes",
        "full",    "--batch",     "4",         "--json"};
    std::vector<std::string> withTop = base;
    withTop.insert(withTop.end(), {"--top", "2"});
    const Run r = run(withTop);
    QCOMPARE(r.code, 0);
    const auto j = nlohmann::json::parse(r.out);
    QCOMPARE(j["top"].size(), std::size_t{2});
    QVERIFY(!j.contains("frontier"));
    QVERIFY(j["top"][0]["config"] != j["top"][1]["config"] && j["top"][0]["config"] != j["config"]);
    const std::vector<nlohmann::json> docs{j, j["top"][0], j["top"][1]};
    for (const nlohmann::json& doc : docs)
        for (const auto& band : doc["config"]["bands"])
            QVERIFY(band["format"] == "fp8" || band["format"] == "bf16");
    QCOMPARE(j["config"]["batch"].get<int>(), 4);
    QVERIFY(!nlohmann::json::parse(run(base).out).contains("top"));
    std::vector<std::string> bad = base;
    bad.insert(bad.end(), {"--formats", "fp9"});
    QCOMPARE(run(bad).code, 2);
}

void TestCliSearch::flagsTheRequestCannotHonourAreExit2()
{
    // Before: --batch 4 at concurrency 8 searched batch 8, and --formats nvfp4 on a stack
    // without it answered in bf16, both with exit 0.
    const std::vector<std::string> base = {"search",     "--workspace",          kWorkspace,
                                           "--stack",    "jetson_agx_thor/vllm", "--model",
                                           "Qwen3-0.6B", "--concurrency",        "8"};
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), {"--batch", "16,4"});
    Run r = run(argv);
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, "acsel search: --batch 4 is below the request's concurrency 8"),
             r.err.c_str());
    argv = base;
    argv.insert(argv.end(), {"--batch", "8,16"});
    QCOMPARE(run(argv).code, 0);
    if (!haveTables())
        QSKIP("../shared/aic not present");
    r = run({"search", "--workspace", kWorkspace, "--tables", kTables, "--stack", "h100_sxm/vllm",
             "--model", "Qwen3-0.6B", "--formats", "fp8,nvfp4"});
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, "acsel search: --formats: stack 'h100_sxm/vllm' cannot run nvfp4 "
                             "(its formats: "),
             r.err.c_str());
}

void TestCliSearch::modeFlagStandsInForTheFile()
{
    QTemporaryDir dir;
    const std::string file = dir.filePath("req.json").toStdString();
    std::ofstream(file) << R"({"schema_version": 1, "stack": "jetson_agx_thor/vllm",
        "request": {"isl": 512, "osl": 64, "concurrency": 2, "ttft_budget_ms": 5000,
                    "tpot_budget_ms": 200, "memory_budget_gib": 32},
        "models": ["Qwen3-0.6B"]})";
    Run r = run({"search", "--workspace", kWorkspace, "--request", file});
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, file + ": /request/mode: "), r.err.c_str());
    r = run({"search", "--workspace", kWorkspace, "--request", file, "--mode", "continuous"});
    QCOMPARE(r.code, 0);
    QVERIFY2(contains(r.out, "concurrency 2, continuous serving"), r.out.c_str());
}

void TestCliSearch::outputsNameTheLatencySource()
{
    const std::vector<std::string> base = {"search",    "--workspace",          kWorkspace,
                                           "--stack",   "jetson_agx_thor/vllm", "--model",
                                           "Qwen3-0.6B"};
    const Run text = run(base);
    QCOMPARE(text.code, 0);
    QVERIFY2(contains(text.out, "latency source: spec-sheet estimate (no operator tables for "
                                "jetson_agx_thor/vllm; "),
             text.out.c_str());
    std::vector<std::string> argv = base;
    argv.push_back("--json");
    const Run asJson = run(argv);
    QCOMPARE(asJson.code, 0);
    const std::string note = nlohmann::json::parse(asJson.out)["predictions"]["note"];
    QVERIFY2(note.starts_with("latency from spec-sheet estimate (no operator tables for "
                              "jetson_agx_thor/vllm; "),
             note.c_str());
    QVERIFY2(contains(note, "; calibration: none (raw estimate)"), note.c_str());
    if (!haveTables())
        QSKIP("../shared/aic not present");
    const Run tables = run({"search", "--workspace", kWorkspace, "--tables", kTables, "--stack",
                            "h100_sxm/vllm", "--model", "Qwen3-0.6B"});
    QCOMPARE(tables.code, 0);
    QVERIFY2(contains(tables.out, "latency source: operator tables " + kTables + "/h100_sxm/vllm/"),
             tables.out.c_str());
}

// The TP tests' request: Qwen3-32B on h100_sxm/vllm at concurrency 4 with loose budgets.
std::vector<std::string> qwen32bOnH100Vllm()
{
    return {"search",
            "--workspace",
            kWorkspace,
            "--tables",
            kTables,
            "--stack",
            "h100_sxm/vllm",
            "--model",
            "Qwen3-32B",
            "--concurrency",
            "4",
            "--memory",
            "40",
            "--ttft",
            "3000",
            "--tpot",
            "60"};
}

// --gpus searches tensor-parallel degrees up to it; --by-gpus answers for 1, 2, 4 and 8 GPUs:
// each row uses at most its GPUs, more GPUs never predict a worse RMQD (the space only grows),
// and the rows land in by_gpus.csv. Requests TP cannot honour are exit 2.
void TestCliSearch::gpusAndSizingByGpus()
{
    Run r = run(
        {"search", "--workspace", kWorkspace, "--stack", "jetson_agx_thor/vllm", "--gpus", "2"});
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, "stack 'jetson_agx_thor/vllm' cannot cost an all-reduce"),
             r.err.c_str());
    if (!haveTables())
        QSKIP("../shared/aic not present");
    const std::vector<std::string> base = qwen32bOnH100Vllm();
    std::vector<std::string> argv = base;
    argv.insert(argv.end(), {"--gpus", "2", "--tp", "4"});
    r = run(argv);
    QCOMPARE(r.code, 2);
    QVERIFY2(contains(r.err, "--tp 4 needs 4 GPUs; the request has 2"), r.err.c_str());
    argv = base;
    argv.insert(argv.end(), {"--gpus", "8", "--tp", "3"});
    QCOMPARE(run(argv).code, 2);

    QTemporaryDir dir;
    argv = base;
    argv.insert(argv.end(), {"--by-gpus", "--json", "--save-dir", dir.path().toStdString()});
    r = run(argv);
    QCOMPARE(r.code, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const nlohmann::json& rows = j.at("by_gpus");
    QCOMPARE(rows.size(), std::size_t{4});
    double previous = 1e300;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const int gpus = rows[i].at("gpus").get<int>();
        QCOMPARE(gpus, 1 << i);
        QVERIFY2(!rows[i].at("answer").is_null(), qPrintable(QString::number(gpus)));
        const nlohmann::json& a = rows[i].at("answer");
        const int tp = a.at("config").value("tp", 1);
        QVERIFY(tp >= 1 && tp <= gpus);
        const double rmqd = a.at("predictions").at("rmqd").get<double>();
        QVERIFY2(rmqd <= previous * (1 + 1e-9), qPrintable(QString::number(gpus)));
        previous = rmqd;
    }
    // 40 GiB cannot hold Qwen3-32B in bf16 on one GPU (64 GB of weights): the 1-GPU row
    // quantizes, and a row with more GPUs is better.
    QVERIFY(rows[0].at("answer").at("predictions").at("rmqd").get<double>() > previous);
    std::ifstream csv(dir.filePath("by_gpus.csv").toStdString());
    std::string line;
    int lines = 0;
    while (std::getline(csv, line))
        ++lines;
    QCOMPARE(lines, 5); // the header and 4 rows
}

// The engine's memory printed beside the estimate is what the launch flag allocates: on vLLM
// the engine takes f x the GPU's memory at --gpu-memory-utilization f (80 GiB on h100_sxm), the
// flag the folder's launch script sets, and by_gpus.csv says the same for every GPU count.
void TestCliSearch::engineMemoryIsTheLaunchFlags()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    QTemporaryDir dir;
    std::vector<std::string> argv = qwen32bOnH100Vllm();
    argv.insert(argv.end(), {"--mode", "continuous", "--gpus", "2", "--by-gpus", "--save-dir",
                             dir.path().toStdString()});
    const Run r = run(argv);
    QCOMPARE(r.code, 0);
    const std::regex line(
        "\nanswer: [^\n]*\n  TTFT [^\n]*, memory ([0-9.]+) GiB \\(engine ([0-9.]+) GiB at "
        "--gpu-memory-utilization ([0-9.]+)\\), RMQD");
    std::smatch m;
    QVERIFY2(std::regex_search(r.out, m, line), r.out.c_str());
    const double engine = std::stod(m[2]), flag = std::stod(m[3]);
    QVERIFY2(std::abs(engine - flag * 80) <= 0.005, r.out.c_str()); // printed to 0.01 GiB
    QVERIFY(flag > 0 && flag <= 1);
    const std::string script = readFile(dir.filePath("launch_vllm.sh").toStdString());
    QVERIFY2(contains(script, "--gpu-memory-utilization " + m[3].str() + " "), script.c_str());

    std::ifstream csv(dir.filePath("by_gpus.csv").toStdString());
    std::string header, row;
    std::getline(csv, header);
    QVERIFY2(contains(header, ",memory_gib_per_gpu,engine_memory_gib_per_gpu,engine_memory_flag,"),
             header.c_str());
    int rows = 0;
    while (std::getline(csv, row)) {
        // RFC 4180 fields (the recipe and the latency source may be quoted): gpus, tp, model,
        // batch, recipe, algorithm, kv_cache, ttft, tpot, memory, engine memory, flag, ...
        std::vector<std::string> f(1);
        bool quoted = false;
        for (char c : row) {
            if (c == '"')
                quoted = !quoted;
            else if (c == ',' && !quoted)
                f.emplace_back();
            else
                f.back() += c;
        }
        QCOMPARE(f.size(), std::size_t{14});
        ++rows;
        if (f[1].empty()) { // a GPU count with no answer (1 GPU here): only gpus and the source
            for (std::size_t i = 1; i < 13; ++i)
                QVERIFY2(f[i].empty(), row.c_str());
            continue;
        }
        f.erase(f.begin(), f.begin() + 9); // memory, engine memory, flag, rmqd, source
        const std::string prefix = "--gpu-memory-utilization ";
        QVERIFY2(f[2].rfind(prefix, 0) == 0, row.c_str());
        const double rowFlag = std::stod(f[2].substr(prefix.size()));
        QVERIFY2(std::abs(std::stod(f[1]) - rowFlag * 80) < 1e-9, row.c_str());
        if (row.rfind("2,", 0) == 0) // the 2-GPU row is the answer's search
            QCOMPARE(f[2], prefix + m[3].str());
    }
    QCOMPARE(rows, 4);
}

ACSEL_TEST_APPLESS_MAIN(TestCliSearch)
#include "test_cli_search.moc"
