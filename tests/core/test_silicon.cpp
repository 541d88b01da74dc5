// The silicon CSV loader: a row id twice, or the same measurement twice (another id), is refused
// at the second row, naming the line of the first; a row differing in any key column is another
// measurement. A mapped row runs the KV format its engine serves that kind of checkpoint with.
#include "core/data/loaderror.h"
#include "core/data/workspacefile.h"
#include "core/latency/servingmodel.h"
#include "core/latency/silicon.h"
#include "core/latency/siliconstudy.h"
#include "testmain.h"

#include <algorithm>
#include <string>
#include <utility>

using namespace acsel;

namespace
{

const std::string kSiliconHeader = "id,backend,backend_version,model_path,system,mode,isl,osl,"
                                   "gemm_quant_mode,batch_size,tp_size,pp_size,silicon_ttft_ms,"
                                   "silicon_tpot_ms\n";
const std::string kRowA = "a,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,1,1,"
                          "200.0,8.0\n";

std::string errorOf(const std::string& rows)
{
    try {
        parseSiliconCsv(kSiliconHeader + rows, "s.csv");
    } catch (const LoadError& e) {
        return e.what();
    }
    return "no error";
}

// Two stacks of one GPU, with and without fp8 KV tables, and one model.
Workspace kvWorkspace()
{
    Workspace ws;
    ModelArch m;
    m.name = "Llama-3.1-8B";
    m.hfId = "meta-llama/Llama-3.1-8B";
    m.layers = 32;
    ws.models.push_back(m);
    Platform p;
    p.id = "h200_sxm";
    ws.platforms.push_back(p);
    for (const char* backend : {"trtllm", "vllm", "sglang"}) {
        Stack s;
        s.id = std::string("h200_sxm/") + backend;
        s.backend = backend;
        s.formats = {Format::Bf16, Format::Fp8, Format::Fp8Block, Format::Nvfp4, Format::Int8Wo};
        s.kvFp8 = true;
        ws.stacks.push_back(s);
    }
    Stack noKvFp8 = ws.stacks[0];
    noKvFp8.id = "h100_sxm/trtllm";
    noKvFp8.kvFp8 = false;
    ws.stacks.push_back(noKvFp8);
    return ws;
}

// A 1024 x 128 aggregated-serving row at `clients` concurrency.
SiliconRow aggRow(std::string system, std::string backend, std::string modelPath, std::string gemm,
                  int clients)
{
    SiliconRow row;
    row.system = std::move(system);
    row.backend = std::move(backend);
    row.modelPath = std::move(modelPath);
    row.gemmQuantMode = std::move(gemm);
    row.mode = "agg";
    row.isl = 1024;
    row.osl = 128;
    row.batch = clients;
    return row;
}

} // namespace

class TestSilicon : public QObject
{
    Q_OBJECT
private slots:
    void duplicateIdRefused();
    void duplicateMeasurementRefused();
    void otherKeyIsAnotherMeasurement_data();
    void otherKeyIsAnotherMeasurement();
    void kvFormatFollowsCheckpointAndEngine_data();
    void kvFormatFollowsCheckpointAndEngine();
    void engineCapsRunningRequests_data();
    void engineCapsRunningRequests();
    void engineReleaseGoesWithTheRow();
    void tensorParallelRowsNeedAllReduceTables();
    void requestOverheadGoesWithTheRelease_data();
    void requestOverheadGoesWithTheRelease();
    void specOnlyStacksSplitOverTheirInterconnect();
    void specOnlyRowsArePredicted();
};

void TestSilicon::duplicateIdRefused()
{
    // Line 2 is a, line 3 b, line 4 a again (another measurement: isl 2048).
    QCOMPARE(errorOf(kRowA +
                     "b,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,4096,128,,8,1,1,400,8.5\n"
                     "a,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,2048,128,,8,1,1,300,8.2\n"),
             std::string("s.csv: line 4, column 'id': duplicate row id 'a' (first on line 2)"));
}

void TestSilicon::duplicateMeasurementRefused()
{
    // Another id and other latencies, the same benchmark: line 3 repeats line 2.
    QCOMPARE(
        errorOf(kRowA +
                "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,1,1,210,8.1\n"),
        std::string("s.csv: line 3: duplicate of the measurement on line 2 (same system, "
                    "backend, backend_version, model_path, mode, gemm_quant_mode, isl, osl, "
                    "batch_size, tp_size, pp_size, moe_tp_size and moe_ep_size)"));
}

void TestSilicon::otherKeyIsAnotherMeasurement_data()
{
    QTest::addColumn<QString>("row");
    QTest::newRow("backend_version")
        << "a2,trtllm,1.1,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,1,1,200,8";
    QTest::newRow("model_path")
        << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B-Instruct,h100_sxm,agg,1024,128,,8,1,1,200,8";
    QTest::newRow("system") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h200_sxm,agg,1024,128,,8,1,"
                               "1,200,8";
    QTest::newRow("mode") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,disagg,1024,128,,8,1,"
                             "1,200,8";
    QTest::newRow("osl") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,256,,8,1,1,"
                            "200,8";
    QTest::newRow("gemm_quant_mode")
        << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,fp8,8,1,1,200,8";
    QTest::newRow("batch_size") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,"
                                   "16,1,1,200,8";
    QTest::newRow("tp_size") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,2,"
                                "1,200,8";
    QTest::newRow("pp_size") << "a2,trtllm,1.0,meta-llama/Llama-3.1-8B,h100_sxm,agg,1024,128,,8,1,"
                                "2,200,8";
}

void TestSilicon::otherKeyIsAnotherMeasurement()
{
    QFETCH(QString, row);
    const std::vector<SiliconRow> rows =
        parseSiliconCsv(kSiliconHeader + kRowA + row.toStdString() + "\n", "s.csv");
    QCOMPARE(rows.size(), std::size_t{2});
    QCOMPARE(rows[1].line, 3);
}

void TestSilicon::kvFormatFollowsCheckpointAndEngine_data()
{
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("modelPath");
    QTest::addColumn<QString>("gemm");
    QTest::addColumn<QString>("kv");
    // fp8 and nvfp4 are ModelOpt checkpoints, which declare an fp8 KV cache, on every engine.
    QTest::newRow("vllm, fp8") << "h200_sxm"
                               << "vllm"
                               << "meta-llama/Llama-3.1-8B"
                               << "fp8"
                               << "fp8";
    QTest::newRow("trtllm, fp8") << "h200_sxm"
                                 << "trtllm"
                                 << "nvidia/Llama-3.1-8B-Instruct-FP8"
                                 << "fp8"
                                 << "fp8";
    QTest::newRow("sglang, nvfp4") << "h200_sxm"
                                   << "sglang"
                                   << "meta-llama/Llama-3.1-8B"
                                   << "nvfp4"
                                   << "fp8";
    // Block-scaled fp8 checkpoints quantize the weights only.
    QTest::newRow("sglang, fp8_block") << "h200_sxm"
                                       << "sglang"
                                       << "meta-llama/Llama-3.1-8B-Instruct"
                                       << "fp8_block"
                                       << "bf16";
    QTest::newRow("trtllm, fp8_block") << "h200_sxm"
                                       << "trtllm"
                                       << "meta-llama/Llama-3.1-8B"
                                       << "fp8_block"
                                       << "bf16";
    QTest::newRow("bf16") << "h200_sxm"
                          << "vllm"
                          << "meta-llama/Llama-3.1-8B"
                          << ""
                          << "bf16";
    QTest::newRow("int8_wo") << "h200_sxm"
                             << "trtllm"
                             << "meta-llama/Llama-3.1-8B"
                             << "int8_wo"
                             << "bf16";
    QTest::newRow("stack without fp8 KV tables") << "h100_sxm"
                                                 << "trtllm"
                                                 << "nvidia/Llama-3.1-8B-Instruct-FP8"
                                                 << "fp8"
                                                 << "bf16";
}

void TestSilicon::kvFormatFollowsCheckpointAndEngine()
{
    QFETCH(QString, system);
    QFETCH(QString, backend);
    QFETCH(QString, modelPath);
    QFETCH(QString, gemm);
    QFETCH(QString, kv);
    const SiliconMapping m =
        mapSiliconRow(kvWorkspace(), aggRow(system.toStdString(), backend.toStdString(),
                                            modelPath.toStdString(), gemm.toStdString(), 8));
    QVERIFY2(m.ok, m.reason.c_str());
    QCOMPARE(std::string(toString(m.config.kv)), kv.toStdString());
    // The reason is stated with the row, among its assumptions.
    QVERIFY(m.kvReason.rfind("KV cache " + kv.toStdString() + ": ", 0) == 0);
    QVERIFY(std::find(m.assumptions.begin(), m.assumptions.end(), m.kvReason) !=
            m.assumptions.end());
}

// A benchmark row's server ran with the engine's default cap on running requests: vLLM's API
// server 1,024 on a GPU of >= 70 GiB other than the A100, 256 otherwise; trtllm-serve 2,048;
// SGLang none. The clients stay the row's concurrency (the rest queue).
void TestSilicon::engineCapsRunningRequests_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("gib");
    QTest::addColumn<QString>("backend");
    QTest::addColumn<int>("clients");
    QTest::addColumn<int>("running");
    QTest::newRow("vllm, 80 GiB") << "h100_sxm" << 80.0 << "vllm" << 2000 << 1024;
    QTest::newRow("vllm, 48 GiB") << "l40s" << 48.0 << "vllm" << 300 << 256;
    QTest::newRow("vllm, A100 80 GiB") << "a100_sxm" << 80.0 << "vllm" << 300 << 256;
    QTest::newRow("vllm, under the cap") << "l40s" << 48.0 << "vllm" << 256 << 256;
    QTest::newRow("trtllm") << "l40s" << 48.0 << "trtllm" << 3000 << 2048;
    QTest::newRow("sglang: no cap") << "l40s" << 48.0 << "sglang" << 3000 << 3000;
}

void TestSilicon::engineCapsRunningRequests()
{
    QFETCH(QString, gpu);
    QFETCH(double, gib);
    QFETCH(QString, backend);
    QFETCH(int, clients);
    QFETCH(int, running);
    Workspace ws = kvWorkspace();
    ws.platforms[0].id = gpu.toStdString();
    ws.platforms[0].memCapacityBytes = gib * 1024 * 1024 * 1024;
    // h200_sxm: the workspace's stack ids (its GPU is the one set above).
    const SiliconMapping m = mapSiliconRow(
        ws, aggRow("h200_sxm", backend.toStdString(), "meta-llama/Llama-3.1-8B", "", clients));
    QVERIFY2(m.ok, m.reason.c_str());
    QCOMPARE(m.config.batch, running);
    QCOMPARE(m.request.concurrency, clients);
    const bool said =
        std::any_of(m.assumptions.begin(), m.assumptions.end(), [&](const std::string& a) {
            return a.find("at most " + std::to_string(running) + " running") != std::string::npos;
        });
    QCOMPARE(said, running < clients);
}

// The row's measured release reaches the estimate (vLLM schedules a step ahead from 0.14 on),
// and a release whose default differs from the current one's says so among the assumptions.
void TestSilicon::engineReleaseGoesWithTheRow()
{
    const Workspace ws = kvWorkspace();
    auto mapped = [&](const char* backend, const char* release) {
        SiliconRow row = aggRow("h200_sxm", backend, "meta-llama/Llama-3.1-8B", "", 8);
        row.backendVersion = release;
        const SiliconMapping m = mapSiliconRow(ws, row);
        if (!m.ok)
            qFatal("%s", m.reason.c_str());
        return m;
    };
    auto saysNoStepAhead = [](const SiliconMapping& m) {
        return std::any_of(m.assumptions.begin(), m.assumptions.end(), [](const std::string& a) {
            return a.find("schedules no step ahead") != std::string::npos;
        });
    };
    const SiliconMapping older = mapped("vllm", "0.12.0");
    QCOMPARE(older.request.engineVersion, std::string("0.12.0"));
    QVERIFY(!servingDefaults(older.request, ws.platforms[0]).schedulesAhead);
    QVERIFY(saysNoStepAhead(older));
    const SiliconMapping current = mapped("vllm", "0.14.0");
    QVERIFY(servingDefaults(current.request, ws.platforms[0]).schedulesAhead);
    QVERIFY(!saysNoStepAhead(current));
    QVERIFY(!saysNoStepAhead(mapped("vllm", "")));
    QVERIFY(!saysNoStepAhead(mapped("trtllm", "1.0.0rc3")));
}

void TestSilicon::tensorParallelRowsNeedAllReduceTables()
{
    Workspace ws = kvWorkspace();
    ws.models[0].heads = 32;
    SiliconRow row = aggRow("h200_sxm", "trtllm", "meta-llama/Llama-3.1-8B", "", 8);
    row.tp = 2;
    // Never a silent single-GPU estimate: without all-reduce data the row is not predicted.
    SiliconMapping m = mapSiliconRow(ws, row);
    QVERIFY(!m.ok);
    QCOMPARE(m.reason, std::string("tp_size 2: no all-reduce table for h200_sxm/trtllm"));
    ws.stacks[0].ncclFile = "nccl_perf.csv"; // NCCL alone is enough
    m = mapSiliconRow(ws, row);
    QVERIFY2(m.ok, m.reason.c_str());
    QCOMPARE(m.config.tp, 2);
    QCOMPARE(m.request.gpus, 2);
    row.tp = 3;
    m = mapSiliconRow(ws, row);
    QVERIFY(!m.ok);
    QVERIFY2(m.reason.find("tp 3 is not a power of two") != std::string::npos, m.reason.c_str());
    row.tp = 1;
    row.pp = 2;
    m = mapSiliconRow(ws, row);
    QVERIFY(!m.ok);
    QVERIFY2(m.reason.find("pp_size 2") != std::string::npos, m.reason.c_str());
    // A tensor-parallel degree is a sweep of its own; tp 1 keeps its old key.
    SiliconRow a = aggRow("h200_sxm", "trtllm", "meta-llama/Llama-3.1-8B", "", 8), b = a;
    b.tp = 4;
    QVERIFY(sweepKey(a) != sweepKey(b));
    QCOMPARE(sweepKey(a), std::string("h200_sxm|trtllm|meta-llama/Llama-3.1-8B||1024|128"));
}

// The workspace's overhead of exactly the row's stack and release rides on its request (and
// so into its TTFT, test_servingmodel); another release, another GPU or no release get none.
void TestSilicon::requestOverheadGoesWithTheRelease_data()
{
    QTest::addColumn<QString>("system");
    QTest::addColumn<QString>("backend");
    QTest::addColumn<QString>("release");
    QTest::addColumn<double>("overhead");
    QTest::newRow("h100_sxm/trtllm 1.0.0rc3") << "h100_sxm"
                                              << "trtllm"
                                              << "1.0.0rc3" << 152.0;
    QTest::newRow("h200_sxm/sglang 0.5.6.post2") << "h200_sxm"
                                                 << "sglang"
                                                 << "0.5.6.post2" << 382.0;
    QTest::newRow("another release") << "h100_sxm"
                                     << "trtllm"
                                     << "1.3.0rc20" << 0.0;
    QTest::newRow("another GPU") << "h200_sxm"
                                 << "trtllm"
                                 << "1.0.0rc3" << 0.0;
    QTest::newRow("no release") << "h100_sxm"
                                << "trtllm"
                                << "" << 0.0;
}

void TestSilicon::requestOverheadGoesWithTheRelease()
{
    QFETCH(QString, system);
    QFETCH(QString, backend);
    QFETCH(QString, release);
    QFETCH(double, overhead);
    Workspace ws = kvWorkspace();
    ws.requestOverheads = {{"h100_sxm/trtllm", "1.0.0rc3", 152.0},
                           {"h200_sxm/sglang", "0.5.6.post2", 382.0}};
    SiliconRow row =
        aggRow(system.toStdString(), backend.toStdString(), "meta-llama/Llama-3.1-8B", "", 8);
    row.backendVersion = release.toStdString();
    const SiliconMapping m = mapSiliconRow(ws, row);
    QVERIFY2(m.ok, m.reason.c_str());
    QCOMPARE(m.request.requestOverheadMs, overhead);
    const bool said =
        std::any_of(m.assumptions.begin(), m.assumptions.end(), [&](const std::string& a) {
            return a.find("adds a request overhead of " + std::to_string(std::lround(overhead)) +
                          " ms") != std::string::npos;
        });
    QCOMPARE(said, overhead > 0);
}

// A spec-only stack splits a row over the GPUs when its platform names an interconnect (as a
// search on it does), and says why not when it names none.
void TestSilicon::specOnlyStacksSplitOverTheirInterconnect()
{
    Workspace ws = kvWorkspace();
    ws.models[0].heads = 32;
    Platform a6000;
    a6000.id = "rtx_a6000";
    a6000.interconnect = Interconnect::Pcie;
    ws.platforms.push_back(a6000);
    Stack spec;
    spec.id = "rtx_a6000/vllm";
    spec.backend = "vllm";
    spec.source = LatencySource::Empirical;
    spec.platform = 1;
    spec.formats = {Format::Bf16};
    ws.stacks.push_back(spec);
    SiliconRow row = aggRow("rtx_a6000", "vllm", "meta-llama/Llama-3.1-8B", "", 8);
    row.tp = 4;
    SiliconMapping m = mapSiliconRow(ws, row);
    QVERIFY2(m.ok, m.reason.c_str());
    QCOMPARE(m.config.tp, 4);
    QCOMPARE(m.request.gpus, 4);
    ws.platforms[1].interconnect = Interconnect::None;
    m = mapSiliconRow(ws, row);
    QVERIFY(!m.ok);
    QCOMPARE(m.reason,
             std::string("tp_size 4: rtx_a6000 has no interconnect in the platforms file"));
    row.tp = 1;
    QVERIFY(mapSiliconRow(ws, row).ok);
}

// Rows on the default workspace's spec-only stacks (no tables) are estimated on the utilisation
// model. Llama-3.1-8B bf16 at one client on L40S (864 GB/s, PCIe 32 GB/s): decoding reads the
// 16 GB of weights, about 19 ms a step on one GPU; on two each reads half (9 ms) and pays 64
// all-reduces of 4,096 bf16 values (8 KiB) over PCIe, tens of microseconds each: TPOT falls,
// by less than half. Thor has no interconnect: its tp 2 row is not predicted.
void TestSilicon::specOnlyRowsArePredicted()
{
    const Workspace ws = loadWorkspace(ACSEL_DATASETS "/workspace.json", "");
    std::vector<SiliconRow> rows;
    for (const auto& [system, tp] : {std::pair{"l40s", 1}, {"l40s", 2}, {"jetson_agx_thor", 2}}) {
        SiliconRow r = aggRow(system, "vllm", "meta-llama/Llama-3.1-8B-Instruct", "", 1);
        r.id = std::string(system) + std::to_string(tp);
        r.tp = tp;
        r.ttftMs = 100;
        r.tpotMs = 20;
        rows.push_back(r);
    }
    const SiliconPrediction p = predictSiliconRows(ws, rows);
    QCOMPARE(p.rows.size(), std::size_t{2});
    QCOMPARE(p.rows[1].config.tp, 2);
    const double tp1 = p.rows[0].serving.latency.tpotMs, tp2 = p.rows[1].serving.latency.tpotMs;
    QVERIFY2(tp1 > 12 && tp1 < 30, std::to_string(tp1).c_str());
    QVERIFY2(tp2 < tp1 && tp2 > tp1 / 2, (std::to_string(tp1) + " " + std::to_string(tp2)).c_str());
    QCOMPARE(p.skipped.size(), std::size_t{1});
    QCOMPARE(p.skipped[0].reason,
             std::string("tp_size 2: jetson_agx_thor has no interconnect in the platforms file"));
}

ACSEL_TEST_APPLESS_MAIN(TestSilicon)
#include "test_silicon.moc"
