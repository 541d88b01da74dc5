// Memory admission and the continuous serving model agree (docs/SERVING.md, "Memory
// admission"): the continuous memory estimate fits the device exactly when the serving model's
// KV pool holds one request, so the gate rejects such a configuration on memory before any
// latency is computed, and the engine's latency of it never throws.
#include "core/latency/memorymodel.h"
#include "core/latency/servingmodel.h"
#include "core/search/engine.h"
#include "core/search/gate.h"
#include "latencyfixtures.h"
#include "modelfixtures.h"
#include "testmain.h"

#include <stdexcept>

using namespace acsel;

namespace
{

// Any positive costs do: only memory is under test.
class AdmissionCosts final : public test::ClosedFormCosts
{
public:
    explicit AdmissionCosts(double capacityBytes) : ClosedFormCosts(capacityBytes, 1e8) {}
};

ModelArch tiny()
{
    return test::tinyArch(6);
}

Config config(int batch)
{
    return test::configOf(BandRecipe::uniform(6, Format::Bf16), batch);
}

Request continuous(int isl, int osl, const char* stack)
{
    Request q;
    q.stack = stack;
    q.isl = isl;
    q.osl = osl;
    q.concurrency = 1;
    q.mode = ServingMode::Continuous;
    q.memBudgetGiB = 1e6; // the device capacity is the limit
    q.ttftBudgetMs = 1e12;
    q.tpotBudgetMs = 1e12;
    return q;
}

// A one-stack engine on AdmissionCosts: memory and latency exactly as WorkspaceEngine computes
// them.
class FakeEngine final : public Engine
{
public:
    FakeEngine(double capacityBytes, const std::string& stackId) : costs_(capacityBytes)
    {
        ws_.models.push_back(tiny());
        ws_.platforms.push_back(costs_.platform());
        Stack s;
        s.id = stackId;
        s.platform = 0;
        ws_.stacks.push_back(s);
    }
    const Workspace& workspace() const override { return ws_; }
    LatencyMs rawLatency(const Config& c, const Request& q) const override
    {
        const LatencyEstimate e = estimateServingLatency(costs_, tiny(), c, q);
        return {e.ttftMs, e.tpotMs};
    }
    double memoryBytes(const Config& c, const Request& q) const override
    {
        return estimateMemory(tiny(), c, q, costs_.platform()).total();
    }
    // No running rule: its continuous FracMix mixes uniform estimates at their own KV slots,
    // no bound.
    bool fracMixIsLowerBound(const Request& q) const override
    {
        return q.mode == ServingMode::Static;
    }
    Calibration calibration(const std::string&) const override { return {}; }
    double rmqd(const Config&) const override { return 0; }
    SurrogateTerms qualityTerms(int, Algorithm, bool, KvFormat) const override { return {}; }
    std::string exportProblem(const Config&, const Stack&) const override { return {}; }

private:
    AdmissionCosts costs_;
    Workspace ws_;
};

// The capacity whose KV pool is exactly `kvBytes` next to the tiny model's weights, 70 MiB of
// step activations and 1e8 B of runtime: TRT-LLM (and unknown engines) give KV 0.9 of what is
// left, 0.9 x (C - held) = kv; vLLM uses 0.9 of the device in all, 0.9 C - held = kv.
double boundaryCapacity(const Config& c, const Request& q, const std::string& backend,
                        double kvBytes)
{
    const MemoryEstimate s = estimateStaticMemory(tiny(), c, q, AdmissionCosts(1e9).platform());
    const double held = s.weightBytes + s.embeddingBytes + s.lmHeadBytes + 70.0 * 1024 * 1024 + 1e8;
    return backend == "vllm" ? (held + kvBytes) / 0.9 : held + kvBytes / 0.9;
}

} // namespace

class TestMemoryAdmission : public QObject
{
    Q_OBJECT
private slots:
    void reserveByHand();
    void fitsExactlyWhenOneRequestHolds_data();
    void fitsExactlyWhenOneRequestHolds();
    void staticMemoryUnchanged();
    void gateRejectsOnMemoryBeforeLatency();
    void engineLatencyLiftsTheSlotLimitInsteadOfThrowing();
};

// Weights etc. by hand for the tiny model: per token KV = 6 layers x (K, V) x 2 kv heads x 64 x
// 2 bytes = 3,072 B; isl + osl = 2,000 tokens -> 6,144,000 B; the engine needs that / 0.9.
void TestMemoryAdmission::reserveByHand()
{
    const Request q = continuous(1000, 1000, "x/trtllm");
    const Config c = config(1);
    const Platform p = AdmissionCosts(1e9).platform();
    const MemoryEstimate s = estimateStaticMemory(tiny(), c, q, p);
    const double stepActivations = 2.0 * 8192 * 4 * 64 * 11; // 46,137,344 B < 70 MiB
    QCOMPARE(stepActivationBytes(tiny(), servingDefaults("trtllm", p), 1), 70.0 * 1024 * 1024);
    QVERIFY(stepActivations < 70.0 * 1024 * 1024);
    const double needed = s.weightBytes + s.embeddingBytes + s.lmHeadBytes + 70.0 * 1024 * 1024 +
                          1e8 + 2000.0 * 3072 / 0.9;
    const MemoryEstimate m = estimateMemory(tiny(), c, q, p);
    QCOMPARE(m.kvCacheBytes, 2000.0 * 3072);
    QCOMPARE(m.servingReserveBytes, needed - s.total());
    QCOMPARE(m.total(), needed);
    // Static batching of 64 requests already holds more than the engine's minimum: no reserve.
    const MemoryEstimate big = estimateMemory(tiny(), config(64), q, p);
    QCOMPARE(big.servingReserveBytes, 0.0);
    QCOMPARE(big.total(), estimateStaticMemory(tiny(), config(64), q, p).total());
}

void TestMemoryAdmission::fitsExactlyWhenOneRequestHolds_data()
{
    QTest::addColumn<QString>("backend");
    QTest::addColumn<int>("batch");
    QTest::newRow("trtllm b1") << "trtllm" << 1;
    QTest::newRow("vllm b1") << "vllm" << 1;
    QTest::newRow("unknown b4") << "other" << 4;
}

// Brute force over capacities around the boundary: fits the device <=> one request holds and
// the static estimate (batch resident requests) fits.
void TestMemoryAdmission::fitsExactlyWhenOneRequestHolds()
{
    QFETCH(QString, backend);
    QFETCH(int, batch);
    const std::string stack = "x/" + backend.toStdString();
    const Request q = continuous(3000, 1000, stack.c_str());
    const Config c = config(batch);
    const double need = boundaryCapacity(c, q, backend.toStdString(), 4000.0 * 3072);
    int holds = 0, fails = 0;
    for (int i = -200; i <= 200; ++i) {
        if (i == 0)
            continue; // the exact boundary: the two sides agree only up to rounding there
        const AdmissionCosts costs(need * (1.0 + i * 1e-4));
        const KvCapacity k = kvCapacity(tiny(), c, q, costs.platform(),
                                        servingDefaults(backend.toStdString(), costs.platform()));
        const MemoryEstimate m = estimateMemory(tiny(), c, q, costs.platform());
        const double cap = costs.platform().memCapacityBytes;
        QCOMPARE(m.fits(cap), k.holdsOneRequest() &&
                                  estimateStaticMemory(tiny(), c, q, costs.platform()).fits(cap));
        (k.holdsOneRequest() ? holds : fails) += 1;
    }
    QVERIFY(holds > 150 && fails > 150);
    // Batch 4 holds 4 requests of static memory: it fits only well above the one-request need.
    if (batch == 4)
        QVERIFY(!estimateMemory(tiny(), c, q, AdmissionCosts(need * 1.02).platform())
                     .fits(need * 1.02));
}

void TestMemoryAdmission::staticMemoryUnchanged()
{
    Request q = continuous(1000, 1000, "x/trtllm");
    q.mode = ServingMode::Static;
    const Platform p = AdmissionCosts(1e9).platform();
    const MemoryEstimate m = estimateMemory(tiny(), config(1), q, p);
    QCOMPARE(m.servingReserveBytes, 0.0);
    QCOMPARE(m.total(), estimateStaticMemory(tiny(), config(1), q, p).total());
}

// The gate on a configuration whose KV pool cannot hold one request though the static memory
// fits: verdict memory, with the reason, and no latency computed (nor thrown).
void TestMemoryAdmission::gateRejectsOnMemoryBeforeLatency()
{
    const Request q = continuous(3000, 1000, "x/trtllm");
    const Config c = config(1);
    // Room for 1.05 x the request's KV next to the engine's held memory (the same 70 MiB
    // activations both ways here): the static estimate fits, the KV pool (0.9 of it) does not.
    const double capacity = boundaryCapacity(c, q, "trtllm", 0) + 1.05 * 4000.0 * 3072;
    const FakeEngine engine(capacity, "x/trtllm");
    QVERIFY(estimateStaticMemory(tiny(), c, q, engine.workspace().platforms[0]).total() <=
            capacity);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             estimateServing(AdmissionCosts(capacity), tiny(), c, q));
    const GateResult g = fullGate(engine, c, q);
    QVERIFY(g.verdict == GateVerdict::Memory);
    QVERIFY(g.reason.find("memory") == 0);
    QCOMPARE(g.prediction.rawTtftMs, 0.0);
    // With room for the request (and its pool fraction) it is admitted.
    const FakeEngine roomy(boundaryCapacity(c, q, "trtllm", 1.01 * 4000.0 * 3072), "x/trtllm");
    QVERIFY(fullGate(roomy, c, q).admitted());
}

// FracMix tables and the explorer ask for the latency of every uniform configuration, fitting
// or not: the engine's path answers with the slot limit lifted, equal to the estimate of a
// device with room for the requests.
void TestMemoryAdmission::engineLatencyLiftsTheSlotLimitInsteadOfThrowing()
{
    Request q = continuous(3000, 1000, "x/vllm");
    q.concurrency = 4;
    const Config c = config(4);
    const AdmissionCosts tight(boundaryCapacity(c, q, "vllm", 0.5 * 4000.0 * 3072));
    const LatencyEstimate lifted = estimateServingLatency(tight, tiny(), c, q);
    // Ample memory changes only the slot count (the costs do not depend on capacity): 4 run.
    // Both devices are below 70 GiB, so vLLM steps 2,048 tokens on both.
    const ServingEstimate ample = estimateServing(AdmissionCosts(60 * kGiB), tiny(), c, q);
    QCOMPARE(ample.running, 4);
    QCOMPARE(lifted.ttftMs, ample.latency.ttftMs);
    QCOMPARE(lifted.tpotMs, ample.latency.tpotMs);
}

ACSEL_TEST_APPLESS_MAIN(TestMemoryAdmission)
#include "test_memoryadmission.moc"
