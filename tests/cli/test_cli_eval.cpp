// acsel eval end to end on a short run: the output says the campaign is simulated and where its
// "measured" RMQD comes from (the demo generator, not the surrogate being graded), and bad
// options are refused with exit 2.
#include "clirun.h"
#include "core/data/configjson.h"
#include "testmain.h"

#include <nlohmann/json.hpp>

using namespace acsel::cli::test;

class TestCliEval : public QObject
{
    Q_OBJECT
private slots:
    void shortRunIsLabelledAndGradesAgainstTheGenerator();
    void twoRunsPrintTheSameBytes();
    void badOptionsAreRefused();
};

void TestCliEval::shortRunIsLabelledAndGradesAgainstTheGenerator()
{
    const Run r =
        run({"eval", "--workspace", kWorkspace, "--tables", kTables, "--requests", "3", "--seeds",
             "1", "--stacks", "h200_sxm/vllm", "--boundary-scale", "0", "--json"});
    QCOMPARE(r.code, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    QVERIFY(j["simulated"].get<bool>());
    QVERIFY2(contains(j["measured_rmqd"].get<std::string>(),
                      "demo quality generator behind demo_quality.json (seed 2611)"),
             j["measured_rmqd"].dump().c_str());
    QCOMPARE(j["boundary_scale"].get<double>(), 0.0);
    QCOMPARE(j["per_request"].size(), std::size_t{3});
    // The surrogate predicts, the generator measures: on answered requests the two differ.
    int answered = 0;
    for (const auto& rec : j["per_request"]) {
        const auto& bp = rec["bp+fmc"];
        if (!bp["answered"].get<bool>())
            continue;
        ++answered;
        QVERIFY(bp["predicted_rmqd"].get<double>() != bp["measured_rmqd"].get<double>());
    }
    QVERIFY(answered > 0);
    // The anchors are the largest model of each family (of the default models up to 8B), and
    // h200_sxm/vllm has no 4-bit format: the headroom is between fp8 and bf16.
    for (const auto& rec : j["per_request"]) {
        const auto& h = rec["headroom"];
        const std::string model = h["model"].get<std::string>();
        QVERIFY2(model == "Qwen3-8B" || model == "Llama-3.1-8B", model.c_str());
        QCOMPARE(h["faster"].get<std::string>(), std::string("fp8"));
        QCOMPARE(h["slower"].get<std::string>(), std::string("bf16"));
        QCOMPARE(h["batch"].get<int>(), rec["request"]["concurrency"].get<int>());
    }
    // Each record's stack and request read back as a request file (`search --request`) would.
    nlohmann::json asRequest = j["per_request"][0];
    asRequest = {
        {"schema_version", 1}, {"stack", asRequest["stack"]}, {"request", asRequest["request"]}};
    const acsel::Request q = acsel::parseRequestJson(asRequest, "record");
    QCOMPARE(q.stack, std::string("h200_sxm/vllm"));
    QCOMPARE(q.isl, j["per_request"][0]["request"]["isl"].get<int>());
    QCOMPARE(q.ttftBudgetMs, j["per_request"][0]["request"]["ttft_budget_ms"].get<double>());

    // The truth is cross-fitted on the silicon rows; the assumptions and the scope are printed.
    QCOMPARE(j["truth"].size(), std::size_t{1});
    // h200_sxm/vllm: 25 rows, 13 for the residual model, the other 12 judge it.
    QCOMPARE(j["truth"][0]["residual_rows"].size(), std::size_t{13});
    QCOMPARE(j["truth"][0]["validation_rows"].size(), std::size_t{12});
    QVERIFY(j["training_configurations_left_out"].get<int>() > 0);
    QVERIFY(contains(j["scope"].get<std::string>(), "What it cannot show"));
}

void TestCliEval::twoRunsPrintTheSameBytes()
{
    const std::vector<std::string> argv{"eval",
                                        "--workspace",
                                        kWorkspace,
                                        "--tables",
                                        kTables,
                                        "--requests",
                                        "2",
                                        "--seeds",
                                        "2",
                                        "--stacks",
                                        "h200_sxm/vllm",
                                        "--models",
                                        "Qwen3-0.6B,Qwen3-1.7B"};
    const Run a = run(argv), b = run(argv);
    QCOMPARE(a.code, 0);
    QCOMPARE(a.out, b.out);
    QVERIFY(contains(a.out, "SIMULATED measurements"));
    QVERIFY(contains(a.out, "Measured RMQD: the demo quality generator"));
    QVERIFY(contains(a.out, "ASSUMPTIONS"));
    QVERIFY(contains(a.out, "Residual left after FMC"));
    QVERIFY(!contains(a.out, "| s/request |"));
}

void TestCliEval::badOptionsAreRefused()
{
    const Run scale =
        run({"eval", "--workspace", kWorkspace, "--requests", "1", "--boundary-scale", "-1"});
    QCOMPARE(scale.code, 2);
    QVERIFY2(contains(scale.err, "boundary-scale"), scale.err.c_str());
    const Run stack = run({"eval", "--workspace", kWorkspace, "--stacks", "nogpu/none"});
    QCOMPARE(stack.code, 2);
    QVERIFY2(contains(stack.err, "unknown stack 'nogpu/none'"), stack.err.c_str());
    // A stack without silicon rows cannot have a cross-fitted truth.
    const Run rows = run({"eval", "--workspace", kWorkspace, "--tables", kTables, "--requests", "1",
                          "--stacks", "l40s/trtllm"});
    QCOMPARE(rows.code, 2);
    QVERIFY2(contains(rows.err, "stack l40s/trtllm in ") &&
                 contains(rows.err, "0 predictable silicon row(s): the cross-fit needs four"),
             rows.err.c_str());
    // The evaluation fits its own FMC: a calibration from outside is not taken silently.
    for (const char* option : {"--fmc", "--confidence"}) {
        const Run outside = run({"eval", "--workspace", kWorkspace, option, "0.9"});
        QCOMPARE(outside.code, 2);
        QVERIFY2(contains(outside.err, std::string("unknown option ") + option),
                 outside.err.c_str());
    }
    // The confidence gate is one request's; the bench suite runs many.
    const Run suite = run({"bench", "search", "--workspace", kWorkspace, "--suite", "--fmc",
                           "f.json", "--confidence", "0.9"});
    QCOMPARE(suite.code, 2);
    QVERIFY2(contains(suite.err, "--confidence gates one request"), suite.err.c_str());
}

ACSEL_TEST_APPLESS_MAIN(TestCliEval)
#include "test_cli_eval.moc"
