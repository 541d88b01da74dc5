// WorkspaceEngine::latencyInterval on a toy FMC file, by hand: the file's line with the spread of
// the request's concurrency when the file has one, else the stack's; nothing without a spread,
// without a line for the stack, or once setCalibration replaced the file's line.
#include "core/data/workspacefile.h"
#include "core/search/workspaceengine.h"
#include "testmain.h"

#include <QTemporaryDir>
#include <fstream>

using namespace acsel;

namespace
{

const char* const kStackId = "jetson_agx_thor/vllm"; // a spec-only stack: no tables needed

// TTFT: offset line delta 0.1; stack spread 5 profiles, dof 4, log scale 0.2; at concurrency 8
// (load "c8") centre 0.05, 5 profiles, dof 4, log scale 0.1. TPOT: 2 profiles, no interval.
std::string writeToyFmc(const QTemporaryDir& dir)
{
    const std::string file = dir.filePath(QStringLiteral("fmc.json")).toStdString();
    std::ofstream(file) << R"({"schema_version": 2, "kind": "acsel-fmc", "tau": 0.5,
      "serving_mode": "static", "stacks": [{"stack": "jetson_agx_thor/vllm",
      "ttft": {"gamma": 1, "delta": 0.1, "form": "offset",
               "cv_loss": {"identity": 0.3, "offset": 0.2, "line": null},
               "spread": {"profiles": 5, "dof": 4, "log_scale": 0.2},
               "load_spreads": [{"load": "c8", "centre": 0.05, "profiles": 5, "dof": 4,
                                 "log_scale": 0.1}]},
      "tpot": {"gamma": 1, "delta": 0, "form": "identity",
               "cv_loss": {"identity": 0.1, "offset": null, "line": null},
               "spread": {"profiles": 2, "dof": 1, "log_scale": 0.1}},
      "rows_used": []}]})";
    return file;
}

} // namespace

class TestEngineInterval : public QObject
{
    Q_OBJECT
private slots:
    void intervalsFromTheFile();
};

void TestEngineInterval::intervalsFromTheFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    WorkspaceEngine engine(loadWorkspace(ACSEL_DATASETS "/workspace.json", ""),
                           EngineSources{writeToyFmc(dir), {}});
    Config c;
    c.model = *engine.workspace().findModel("Qwen3-8B");
    Request q;
    q.stack = kStackId;
    q.concurrency = 4; // no spread of its own: the stack's
    // 90 %: t_4(0.95) = 2.1318468; stack offset 2.1318468 x 0.2 x sqrt(1 + 1/5) = 0.4670642, so
    // 100 ms raw -> 100 e^(0.1 -+ 0.4670642) = 69.276515 .. 176.308344 ms.
    const auto stack = engine.latencyInterval(c, q, LatencyMetric::Ttft, 100, 0.9);
    QVERIFY(stack);
    QCOMPARE_LE(std::abs(stack->lowMs - 69.276515), 1e-5);
    QCOMPARE_LE(std::abs(stack->highMs - 176.308344), 1e-5);
    // Concurrency 8: its centre 0.05 and offset 2.1318468 x 0.1 x sqrt(1.2) = 0.2335321:
    // 100 e^(0.15 -+ 0.2335321) = 91.986155 .. 146.745868 ms.
    q.concurrency = 8;
    const auto c8 = engine.latencyInterval(c, q, LatencyMetric::Ttft, 100, 0.9);
    QVERIFY(c8);
    QCOMPARE_LE(std::abs(c8->lowMs - 91.986155), 1e-5);
    QCOMPARE_LE(std::abs(c8->highMs - 146.745868), 1e-5);
    // Split over 2 GPUs the load is "c8|tp2", which the file has no spread for: the stack's.
    c.tp = 2;
    const auto tp2 = engine.latencyInterval(c, q, LatencyMetric::Ttft, 100, 0.9);
    QVERIFY(tp2);
    QCOMPARE_LE(std::abs(tp2->lowMs - 69.276515), 1e-5);
    c.tp = 1;
    // TPOT's 2 profiles give no interval; another stack has no line.
    QVERIFY(!engine.latencyInterval(c, q, LatencyMetric::Tpot, 10, 0.9));
    Request other = q;
    other.stack = "rtx_a6000/vllm";
    QVERIFY(!engine.latencyInterval(c, other, LatencyMetric::Ttft, 100, 0.9));
    // A calibration set by the caller is not the file's: its spread no longer applies.
    engine.setCalibration(kStackId, Calibration{});
    QVERIFY(!engine.latencyInterval(c, q, LatencyMetric::Ttft, 100, 0.9));
}

ACSEL_TEST_APPLESS_MAIN(TestEngineInterval)
#include "test_engineinterval.moc"
