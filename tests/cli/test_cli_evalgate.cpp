// acsel eval gate end to end on the real silicon rows and AIC's estimates of them: the counts
// add up (per stack to pooled, held-out rows x seeds), and bad input is refused with exit 2.
// The counts themselves are pinned by hand in tests/core/test_gateevaluation.cpp.
#include "clirun.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace acsel::cli::test;

namespace
{
const std::string kAic = kTables + "/estimates/aic_estimates_dense_tp1.csv";
} // namespace

class TestCliEvalGate : public QObject
{
    Q_OBJECT
private slots:
    void countsAddUp();
    void badInputIsRefused();
};

void TestCliEvalGate::countsAddUp()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    const Run r = run({"eval", "gate", "--workspace", kWorkspace, "--tables", kTables,
                       "--measurements", kSilicon, "--aic", kAic, "--seeds", "2", "--json"});
    QCOMPARE(r.code, 0);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    QVERIFY(j["gates"] ==
            nlohmann::json({"raw", "fmc", "aic", "aic+fmc", "calibrate", "calibrate@0.9"}));
    QCOMPARE(j["confidence"].get<double>(), 0.9);
    QVERIFY(j["stacks"].size() >= 3);
    std::map<std::string, int> pooledCases;
    for (const auto& s : j["stacks"]) {
        const int heldOut = (s["rows"].get<int>() - 5) * 2;
        for (const auto& [gate, metrics] : s["gates"].items())
            for (const char* m : {"ttft", "tpot"}) {
                const auto& c = metrics[m];
                QCOMPARE(c["cases"].get<int>(), heldOut);
                QCOMPARE(c["over_budget"].get<int>(), 3 * heldOut);
                QVERIFY(c["false_admits"].get<int>() <= c["over_budget"].get<int>());
                pooledCases[gate + m] += heldOut;
            }
        // raw and fmc always have an estimate; AIC not on the rows it refused; the confidence
        // gate on 5 profiles always knows its spread
        QCOMPARE(s["gates"]["raw"]["ttft"]["no_estimate"].get<int>(), 0);
        QCOMPARE(s["gates"]["calibrate@0.9"]["ttft"]["no_estimate"].get<int>(), 0);
        // The 0.9-quantile line lies above the median one: it admits no more.
        for (const char* m : {"ttft", "tpot"})
            QVERIFY(s["gates"]["calibrate@0.9"][m]["false_admits"].get<int>() <=
                    s["gates"]["calibrate"][m]["false_admits"].get<int>());
    }
    for (const auto& [gate, metrics] : j["pooled"].items())
        for (const char* m : {"ttft", "tpot"})
            QCOMPARE(metrics[m]["cases"].get<int>(), pooledCases[gate + m]);
    QVERIFY(j["pooled"]["aic"]["ttft"]["no_estimate"].get<int>() > 0);
    QVERIFY(j["aic_rows"].get<int>() > 100);
    QVERIFY(j["decision"]["workload_pairs"].get<int>() > 0);
    QVERIFY(j["decision"]["same_stack"]["raw"]["ttft"]["pairs"].get<int>() > 0);

    const Run text = run({"eval", "gate", "--workspace", kWorkspace, "--tables", kTables,
                          "--measurements", kSilicon, "--seeds", "1"});
    QCOMPARE(text.code, 0);
    QVERIFY(contains(text.out, "Gate evaluation on MEASURED rows"));
    QVERIFY(contains(text.out, "| all |"));
    QVERIFY(!contains(text.out, "| aic |"));
    QVERIFY(contains(text.out, "| calibrate@0.9 |"));
    // The trade-off line carries the pooled counts of the same run's JSON.
    const Run same = run({"eval", "gate", "--workspace", kWorkspace, "--tables", kTables,
                          "--measurements", kSilicon, "--seeds", "1", "--json"});
    const nlohmann::json pooled = nlohmann::json::parse(same.out)["pooled"];
    const auto counts = [&](const char* gate, const char* what, const char* of) {
        const nlohmann::json& t = pooled[gate]["ttft"];
        return "(" + std::to_string(t[what].get<int>()) + "/" + std::to_string(t[of].get<int>()) +
               ")";
    };
    QVERIFY(contains(text.out, "Pooled, TTFT: the median gate (calibrate) false-admits "));
    QVERIFY(contains(text.out, counts("calibrate", "false_admits", "over_budget") +
                                   ", calibrate@0.9 false-rejects "));
    QVERIFY(
        contains(text.out, counts("calibrate@0.9", "false_rejects", "within_budget") + "; TPOT: "));
    const Run median = run({"eval", "gate", "--workspace", kWorkspace, "--tables", kTables,
                            "--measurements", kSilicon, "--seeds", "1", "--confidence", "0.5"});
    QCOMPARE(median.code, 0);
    QVERIFY(contains(median.out, "| calibrate |") && !contains(median.out, "| calibrate@"));
    QVERIFY(!contains(median.out, "Pooled, TTFT"));
}

void TestCliEvalGate::badInputIsRefused()
{
    if (!haveTables())
        QSKIP("../shared/aic not present");
    QTemporaryDir dir;
    const std::string bad = dir.filePath("aic.csv").toStdString();
    {
        // A silicon row of h100_sxm/sglang claimed here for vllm.
        std::ofstream out(bad);
        out << "id,system,backend,aic_agg_status,aic_agg_ttft_ms,aic_agg_tpot_ms\n"
               "qwen_qwen3_32b_qwen_qwen3_32b_h100_sxm_sglang_agg_1024x128_c16_tp1_epnone_1,"
               "h100_sxm,vllm,ok,1,1\n";
    }
    const Run mismatch = run({"eval", "gate", "--workspace", kWorkspace, "--tables", kTables,
                              "--measurements", kSilicon, "--aic", bad, "--seeds", "1"});
    QCOMPARE(mismatch.code, 2);
    QVERIFY2(contains(mismatch.err, "aic.csv") && contains(mismatch.err, "line 2") &&
                 contains(mismatch.err, "h100_sxm/vllm here but h100_sxm/sglang"),
             mismatch.err.c_str());
    const Run missing = run({"eval", "gate", "--workspace", kWorkspace, "--tables", kTables});
    QCOMPARE(missing.code, 2);
    QVERIFY2(contains(missing.err, "measurements"), missing.err.c_str());
    const Run k = run({"eval", "gate", "--workspace", kWorkspace, "--tables", kTables,
                       "--measurements", kSilicon, "--profiles", "0"});
    QCOMPARE(k.code, 2);
}

ACSEL_TEST_APPLESS_MAIN(TestCliEvalGate)
#include "test_cli_evalgate.moc"
