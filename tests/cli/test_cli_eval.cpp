// acsel eval end to end on a short run: the output says the campaign is simulated and where its
// "measured" RMQD comes from (the demo generator, not the surrogate being graded), and bad
// options are refused with exit 2.
#include "clirun.h"
#include "core/data/configjson.h"

#include <QTest>

using namespace acsel::cli::test;

class TestCliEval : public QObject
{
    Q_OBJECT
private slots:
    void shortRunIsLabelledAndGradesAgainstTheGenerator();
    void badOptionsAreRefused();
};

void TestCliEval::shortRunIsLabelledAndGradesAgainstTheGenerator()
{
    const Run r =
        run({"eval", "--workspace", kWorkspace, "--tables", kTables, "--requests", "3", "--seeds",
             "1", "--stacks", "jetson_agx_thor/vllm", "--boundary-scale", "0", "--json"});
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
    // Each record's stack and request read back as a request file (`search --request`) would.
    nlohmann::json asRequest = j["per_request"][0];
    asRequest = {
        {"schema_version", 1}, {"stack", asRequest["stack"]}, {"request", asRequest["request"]}};
    const acsel::Request q = acsel::parseRequestJson(asRequest, "record");
    QCOMPARE(q.stack, std::string("jetson_agx_thor/vllm"));
    QCOMPARE(q.isl, j["per_request"][0]["request"]["isl"].get<int>());
    QCOMPARE(q.ttftBudgetMs, j["per_request"][0]["request"]["ttft_budget_ms"].get<double>());

    const Run text = run({"eval", "--workspace", kWorkspace, "--tables", kTables, "--requests", "1",
                          "--seeds", "1", "--stacks", "jetson_agx_thor/vllm"});
    QCOMPARE(text.code, 0);
    QVERIFY(contains(text.out, "SIMULATED measurements"));
    QVERIFY(contains(text.out, "Measured RMQD: the demo quality generator"));
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
}

QTEST_APPLESS_MAIN(TestCliEval)
#include "test_cli_eval.moc"
