// acsel search and recommend when nothing fits: the nearest miss per budget on stderr, in the
// --json document and in summary.md, and the suggested budget fed back answers (0.1 below it
// does not); --margin gates inside the budgets and is recorded, and a bad one is exit 2; when
// memory rules out every configuration, the lightest one's figures and the GPUs that hold it.
#include "clirun.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <nlohmann/json.hpp>

using namespace acsel::cli::test;
using json = nlohmann::json;

namespace
{

// A spec-sheet stack (no tables needed): Qwen3-0.6B at TTFT 20 ms is out of reach.
std::vector<std::string> request(std::vector<std::string> extra)
{
    std::vector<std::string> a = {"search",
                                  "--workspace",
                                  kWorkspace,
                                  "--stack",
                                  "jetson_agx_thor/sglang",
                                  "--model",
                                  "Qwen3-0.6B",
                                  "--isl",
                                  "1024",
                                  "--osl",
                                  "256",
                                  "--concurrency",
                                  "4",
                                  "--mode",
                                  "static",
                                  "--ttft",
                                  "20",
                                  "--tpot",
                                  "40",
                                  "--memory",
                                  "32"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

std::string number(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace

class TestCliNearestMiss : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { qputenv("ACSEL_TABLES", "none"); }
    void suggestionFedBackAnswers();
    void textAndSummarySayWhichBudgetBinds();
    void marginGatesInsideTheBudgets();
    void badMarginIsExit2();
    void memoryFloorSaysWhy();
};

void TestCliNearestMiss::suggestionFedBackAnswers()
{
    const Run r = run(request({"--json"}));
    QCOMPARE(r.code, 3);
    const json j = json::parse(r.out);
    QVERIFY(j["answer"].is_null());
    const json& miss = j["nearest_miss"];
    QCOMPARE(miss.size(), std::size_t{3});
    QCOMPARE(miss[0]["budget"].get<std::string>(), std::string("ttft"));
    QCOMPARE(miss[0]["asked"].get<double>(), 20.0);
    const double lowest = miss[0]["lowest"].get<double>();
    const double suggested = miss[0]["suggested"].get<double>();
    // The smallest tenth of a millisecond at or above the lowest TTFT.
    QVERIFY(suggested >= lowest && suggested - 0.1 < lowest);
    QCOMPARE(miss[0]["answer"]["request"]["ttft_budget_ms"].get<double>(), suggested);
    // TPOT 40 ms is no obstacle: loosening it alone cannot help; nor memory.
    QVERIFY(miss[1]["lowest"].is_null() && miss[1]["reason"].is_string());
    QVERIFY(miss[2]["lowest"].is_null() && miss[2]["reason"].is_string());

    const Run again = run(request({"--ttft", number(suggested), "--json"}));
    QCOMPARE(again.code, 0);
    QCOMPARE(json::parse(again.out)["config"].dump(), miss[0]["answer"]["config"].dump());
    QCOMPARE(run(request({"--ttft", number(suggested - 0.1)})).code, 3);

    // A sampling searcher that misses what the exact search finds is told so, not given a
    // nearest miss below the budgets.
    const Run sampled =
        run(request({"--ttft", number(suggested), "--algo", "rand", "--evaluations", "1"}));
    QCOMPARE(sampled.code, 3);
    QVERIFY2(contains(sampled.err, "the exact search answers this request: --algo exact\n"),
             sampled.err.c_str());
    QVERIFY(!contains(sampled.err, "binds"));
}

void TestCliNearestMiss::textAndSummarySayWhichBudgetBinds()
{
    QTemporaryDir dir;
    const std::string folder = dir.filePath("none").toStdString();
    const Run r = run(request({"--save-dir", folder}));
    QCOMPARE(r.code, 3);
    QVERIFY2(contains(r.out, "answer: none: no configuration passes the gate"), r.out.c_str());
    QVERIFY2(contains(r.err, "  TTFT binds: within the TPOT and memory budgets the lowest is "),
             r.err.c_str());
    QVERIFY2(contains(r.err, "  TPOT: loosening it alone admits nothing"), r.err.c_str());
    QVERIFY2(contains(r.err, "even with the whole device (112.00 GiB)"), r.err.c_str());
    const std::string summary = readFile(folder + "/summary.md");
    QVERIFY2(contains(summary, "## Why nothing fits\n\nNearest miss"), summary.c_str());
    QVERIFY2(contains(summary, "\n- TTFT binds: "), summary.c_str());

    // Memory alone binds: Qwen3-8B's weights need more than 4 GiB in any format.
    const Run memory =
        run({"search", "--workspace", kWorkspace, "--stack", "jetson_agx_thor/sglang", "--model",
             "Qwen3-8B", "--ttft", "5000", "--tpot", "500", "--memory", "4", "--json"});
    QCOMPARE(memory.code, 3);
    const json m = json::parse(memory.out)["nearest_miss"][2];
    QCOMPARE(m["budget"].get<std::string>(), std::string("memory"));
    const double gib = m["suggested"].get<double>();
    QVERIFY(gib > 4);
    QCOMPARE(
        run({"search", "--workspace", kWorkspace, "--stack", "jetson_agx_thor/sglang", "--model",
             "Qwen3-8B", "--ttft", "5000", "--tpot", "500", "--memory", number(gib)})
            .code,
        0);
}

void TestCliNearestMiss::marginGatesInsideTheBudgets()
{
    QTemporaryDir dir;
    const std::string folder = dir.filePath("margin").toStdString();
    const std::vector<std::string> loose = {"--ttft", "2000", "--tpot", "40", "--memory", "32"};
    std::vector<std::string> args = request(loose);
    args.insert(args.end(), {"--margin", "25", "--json", "--save-dir", folder});
    const Run r = run(args);
    QCOMPARE(r.code, 0);
    const json j = json::parse(r.out);
    // 25 % inside: TTFT <= 1500 ms, TPOT <= 30 ms, memory <= 24 GiB.
    QCOMPARE(j["request"]["ttft_budget_ms"].get<double>(), 1500.0);
    QCOMPARE(j["request"]["tpot_budget_ms"].get<double>(), 30.0);
    QCOMPARE(j["request"]["memory_budget_gib"].get<double>(), 24.0);
    QVERIFY(j["predictions"]["tpot_ms"].get<double>() <= 30.0);
    const std::string note = j["predictions"]["note"].get<std::string>();
    QVERIFY2(contains(note, "margin 25%: gated at TTFT <= 1500.00 ms"), note.c_str());
    // The folder: request.json keeps the budgets given, answer.json and summary.md the margin.
    QCOMPARE(readJson(folder + "/request.json")["request"]["ttft_budget_ms"].get<double>(), 2000.0);
    QVERIFY(contains(readJson(folder + "/answer.json")["predictions"]["note"].get<std::string>(),
                     "margin 25%"));
    QVERIFY(contains(readFile(folder + "/summary.md"), "Margin 25%: gated at TTFT <= 1500.00 ms"));

    // The nearest miss with a margin is the budget to give with the same margin: the lowest
    // TTFT divided by 0.75, rounded up to 0.1 ms; fed back with --margin 25 it answers.
    const json plain = json::parse(run(request({"--json"})).out)["nearest_miss"][0];
    const Run none = run(request({"--margin", "25", "--json"}));
    QCOMPARE(none.code, 3);
    const json miss = json::parse(none.out)["nearest_miss"][0];
    QCOMPARE(miss["lowest"].get<double>(), plain["lowest"].get<double>());
    const double at = miss["suggested"].get<double>();
    QVERIFY(at * 0.75 >= plain["lowest"].get<double>() &&
            (at - 0.1) * 0.75 < plain["lowest"].get<double>());
    QCOMPARE(run(request({"--ttft", number(at), "--margin", "25"})).code, 0);
    QCOMPARE(run(request({"--ttft", number(at - 0.1), "--margin", "25"})).code, 3);
}

void TestCliNearestMiss::badMarginIsExit2()
{
    for (const char* bad : {"100", "-1", "abc", "", "nan", "150"}) {
        const Run r = run(request({"--margin", bad}));
        QCOMPARE(r.code, 2);
        QCOMPARE(r.err, "acsel: --margin expects a percentage in [0, 100), got '" +
                            std::string(bad) + "'\n");
    }
    QCOMPARE(run({"recommend", "--workspace", kWorkspace, "--margin", "100"}).code, 2);
    QCOMPARE(run(request({"--margin", "0"})).code, 3); // 0: no margin
}

void TestCliNearestMiss::memoryFloorSaysWhy()
{
    // Qwen3-8B's lightest configuration on jetson_agx_thor/sglang (formats nvfp4, fp8, bf16):
    // nvfp4 on every linear (4.5 bits with its scales), batch 1, KV fp8. Its weights: 36 layers
    // x 192,937,984 linear weights x 4.5 / 8 = 3,906,994,176 bytes, norms 36 x 2 x 8,448 x 2 +
    // 2 x 4,096 = 1,224,704, embedding and lm_head 2 x 151,936 x 4,096 x 2 = 2,489,319,424:
    // 6,397,538,304 bytes = 5.96 GiB, over a 4 GiB budget alone. Thor has no interconnect.
    const std::vector<std::string> thor = {
        "search",  "--workspace", kWorkspace, "--stack", "jetson_agx_thor/sglang",
        "--model", "Qwen3-8B",    "--ttft",   "5000",    "--tpot",
        "500"};
    std::vector<std::string> argv = thor;
    argv.insert(argv.end(), {"--memory", "4"});
    Run r = run(argv);
    QCOMPARE(r.code, 3);
    QVERIFY2(contains(r.err, "\n  memory rules out every configuration: the lightest, Qwen3-8B, "
                             "batch 1, nvfp4/full, KV fp8, split over 1 GPU (tp 1), needs "),
             r.err.c_str());
    QVERIFY2(contains(r.err, "(weights 5.96, KV cache ") &&
                 contains(r.err, " GiB) against 4.00 GiB per GPU: the weights alone exceed it; "
                                 "no split over up to 8 GPUs of one node fits it\n"),
             r.err.c_str());
    argv.push_back("--json");
    r = run(argv);
    QVERIFY(contains(r.err, json::parse(r.out)["memory_floor"].get<std::string>() + "\n"));
    // A budget the lightest configuration fits (the nearest miss's memory is one): no sentence.
    argv = thor;
    argv.insert(argv.end(), {"--memory", "10.4", "--tpot", "20"});
    r = run(argv);
    QVERIFY2(!contains(r.err, "memory rules out"), r.err.c_str());

    if (!haveTables())
        QSKIP("../shared/aic not present");
    // Llama-3.1-70B on h100_sxm/vllm (bf16, fp8, fp8_block; fp8 the lightest at 8 bits), batch
    // 1, KV fp8, isl 1024 + osl 256. Weights per GPU: 80 layers x (855,638,016 / tp linear
    // weights + 2 x 2 x 8,192 norm bytes) + the final norm 16,384 + embedding and lm_head
    // 2 x 2 x 128,256 / tp x 8,192 bytes: 72,656,371,712 bytes = 67.67 GiB at tp 1, over a 40
    // GiB budget alone. At tp 2: weights 36,329,504,768 bytes (33.83 GiB), KV 1,280 tokens x 80
    // layers x 2 x 4 KV heads x 128 x 1 byte = 104,857,600, activations max(2 x 1,024 x 32 x
    // 128 x 11, 70 MiB) = 92,274,688, runtime 3.50 GiB: 37.52 GiB, within 40.
    const std::vector<std::string> h100 = {
        "search",  "--workspace",   kWorkspace, "--tables",      kTables,
        "--stack", "h100_sxm/vllm", "--model",  "Llama-3.1-70B", "--ttft",
        "20000",   "--tpot",        "400",      "--mode",        "static"};
    argv = h100;
    argv.insert(argv.end(), {"--memory", "40"});
    r = run(argv);
    QCOMPARE(r.code, 3);
    QVERIFY2(contains(r.err, "the lightest, Llama-3.1-70B, batch 1, fp8/full, KV fp8, split over "
                             "1 GPU (tp 1), needs ") &&
                 contains(r.err, "(weights 67.67, ") &&
                 contains(r.err, "against 40.00 GiB per GPU: the weights alone exceed it; split "
                                 "over 2 GPUs (tp 2), Llama-3.1-70B needs 37.52 GiB\n"),
             r.err.c_str());
    // With 2 GPUs and 30 GiB: 37.52 is over, the weights alone (33.83) too; 4 GPUs fit.
    argv = h100;
    argv.insert(argv.end(), {"--memory", "30", "--gpus", "2"});
    r = run(argv);
    QCOMPARE(r.code, 3);
    QVERIFY2(
        contains(r.err, "split over 2 GPUs (tp 2), needs 37.52 GiB per GPU (weights 33.83, ") &&
            contains(r.err, "against 30.00 GiB per GPU: the weights alone exceed it; split "
                            "over 4 GPUs (tp 4), Llama-3.1-70B needs "),
        r.err.c_str());
}

ACSEL_TEST_APPLESS_MAIN(TestCliNearestMiss)
#include "test_cli_nearestmiss.moc"
