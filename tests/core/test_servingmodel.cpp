// The continuous-batching model (docs/SERVING.md): concurrency 1 with ample memory equals the
// static estimate exactly; the KV slot count by hand; queueing zero while the requests fit and
// growing linearly with the excess (closed-loop Little's law); monotone in concurrency and
// isl, and in osl in the direction each regime fixes; the estimate at a given running count and
// the rule that gives a configuration's count from its memory total; SGLang's separate prefill
// steps by hand.
#include "core/latency/memorymodel.h"
#include "core/latency/servingmodel.h"
#include "latencyfixtures.h"
#include "modelfixtures.h"
#include "testmain.h"

#include <cmath>
#include <stdexcept>

using namespace acsel;

namespace
{

// Closed-form operator costs: a GEMM pays a weight read plus work, attention grows with the
// context, so more tokens or longer contexts always cost more.
class ServingCosts final : public test::FakeCostsBase
{
public:
    explicit ServingCosts(double capacityBytes) : FakeCostsBase(capacityBytes) {}
    bool supports(Format f) const override { return f == Format::Bf16; }
    double gemmMs(Format, double m, double n, double k) const override
    {
        return 1e-9 * m * n * k + 1e-6 * n * k / 1000.0 + 1e-3;
    }
    double contextAttentionMs(double b, double isl, int heads, int, int, KvFormat) const override
    {
        return 1e-6 * b * isl * isl * heads;
    }
    double generationAttentionMs(double b, double kvLen, int, int, int, KvFormat) const override
    {
        return 1e-5 * b * kvLen + 1e-3;
    }
};

Config servingConfig(int batch)
{
    return test::configOf(BandRecipe::uniform(6, Format::Bf16), batch);
}

Request request(int c, int isl, int osl, const char* stack = "fake/vllm")
{
    Request r;
    r.stack = stack;
    r.isl = isl;
    r.osl = osl;
    r.concurrency = c;
    r.mode = ServingMode::Continuous;
    return r;
}

constexpr double kAmple = 1e12; // bytes: every request fits

// One vLLM request of 256 + 64 tokens next to the tiny model at batch 64: its KV bytes, and
// the device capacity whose KV pool holds `requests` of them.
struct KvRoom {
    KvCapacity one;
    // What the engine holds besides KV (weights, activations, runtime): vLLM may use 0.9 of
    // the device in all, so its pool is 0.9 x capacity - heldBytes.
    double heldBytes = 0;
    double capacityFor(double requests) const
    {
        return (heldBytes + requests * one.bytesPerRequest) / 0.9;
    }
};
KvRoom kvRoom()
{
    const ServingCosts big(kAmple);
    KvRoom room;
    room.one = kvCapacity(test::tinyArch(6), servingConfig(64), request(1, 256, 64), big.platform(),
                          servingDefaults("vllm", big.platform()));
    room.heldBytes = 0.9 * kAmple - room.one.availableBytes;
    return room;
}

} // namespace

class TestServingModel : public QObject
{
    Q_OBJECT
private slots:
    void concurrencyOneEqualsStatic_data()
    {
        QTest::addColumn<int>("isl");
        QTest::addColumn<int>("osl");
        QTest::addColumn<QString>("stack");
        QTest::newRow("vllm 128x64") << 128 << 64 << "fake/vllm";
        QTest::newRow("trtllm 1000x1") << 1000 << 1 << "fake/trtllm";
        QTest::newRow("sglang 4096x2000 (wide stride)") << 4096 << 2000 << "fake/sglang";
    }
    void concurrencyOneEqualsStatic()
    {
        QFETCH(int, isl);
        QFETCH(int, osl);
        QFETCH(QString, stack);
        const ServingCosts costs(kAmple);
        const ModelArch a = test::tinyArch(6);
        const Request r = request(1, isl, osl, stack.toStdString().c_str());
        const LatencyEstimate s = estimateLatency(costs, a, servingConfig(1), r);
        const ServingEstimate c = estimateServing(costs, a, servingConfig(1), r);
        QVERIFY(c.latency.ttftMs == s.ttftMs); // bit for bit
        QVERIFY(c.latency.tpotMs == s.tpotMs);
        QCOMPARE(c.latency.decodeSamples, s.decodeSamples);
        QCOMPARE(c.running, 1);
        QCOMPARE(c.queueWaitMs, 0.0);
        QCOMPARE(c.arrivalWaitMs, 0.0);
        QCOMPARE(c.mixedShare, 0.0);
        // The dispatch follows Request::mode.
        Request st = r;
        st.mode = ServingMode::Static;
        QVERIFY(estimateServingLatency(costs, a, servingConfig(1), st).ttftMs == s.ttftMs);
        QVERIFY(estimateServingLatency(costs, a, servingConfig(1), r).tpotMs == c.latency.tpotMs);
    }

    void kvSlotsByHand_data()
    {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<double>("tokensHeld");
        QTest::addColumn<QString>("pool");
        // isl 100, osl 28: TRT-LLM reserves all 128 tokens; vLLM / SGLang page on demand and
        // hold 100 + 28 / 2 = 114 on average. The pool: TRT-LLM 0.9 of the free memory, vLLM
        // 0.9 of the device for everything, SGLang 0.847 of it for weights and KV.
        QTest::newRow("trtllm reserves isl + osl") << "trtllm" << 128.0 << "share of free";
        QTest::newRow("vllm pages: isl + osl / 2") << "vllm" << 114.0 << "share of device";
        QTest::newRow("sglang pages: isl + osl / 2") << "sglang" << 114.0 << "static share";
        QTest::newRow("unknown: conservative") << "other" << 128.0 << "share of free";
    }
    void kvSlotsByHand()
    {
        QFETCH(QString, backend);
        QFETCH(double, tokensHeld);
        const ModelArch a = test::tinyArch(6);
        const Config cfg = servingConfig(64);
        const Request r = request(8, 100, 28);
        QFETCH(QString, pool);
        // A 24 GiB device: vLLM's step budget is 2,048 there, SGLang's mem_fraction_static
        // 0.847 (reserve 512 + 1.5 x 2,048 + 2 x 24 + 128 = 3,760 MiB of 24,576).
        const double cap = 24.0 * kGiB;
        const Platform p = test::fakeGpu(cap, 1e8);
        const ServingDefaults d = servingDefaults(backend.toStdString(), p);
        const MemoryEstimate m = estimateMemory(a, cfg, r, p);
        const double weights = m.weightBytes + m.embeddingBytes + m.lmHeadBytes;
        const double act = 70.0 * 1024 * 1024; // above 2 x 8,192 x 4 heads x 64 x 11 bytes
        QVERIFY(2.0 * 8192 * 4 * 64 * 11 < act);
        const double avail = pool == "share of free"     ? 0.9 * (cap - weights - act - 1e8)
                             : pool == "share of device" ? 0.9 * cap - weights - act - 1e8
                                                         : 0.847 * cap - weights - 1e8;
        const double perToken = 6 * 2 * 2 * 64 * 2; // layers x (K, V) x kvHeads x headDim x bf16
        const KvCapacity k = kvCapacity(a, cfg, r, p, d);
        QCOMPARE(k.bytesPerRequest, tokensHeld * perToken);
        QCOMPARE(k.bytesFullLength, 128.0 * perToken);
        QCOMPARE(k.availableBytes, avail);
        QCOMPARE(k.requestsThatFit, static_cast<int>(std::floor(avail / (tokensHeld * perToken))));
    }

    // Paging lets more requests run, but each must still fit whole at its end.
    void pagedRequestMustFitWhole()
    {
        const ModelArch a = test::tinyArch(6);
        const Request probe = request(1, 256, 64, "fake/vllm");
        const ServingCosts big(kAmple);
        const KvCapacity one = kvCapacity(a, servingConfig(64), probe, big.platform(),
                                          servingDefaults("vllm", big.platform()));
        const double heldBytes = 0.9 * kAmple - one.availableBytes;
        // Room for 0.95 of a full request: 1.06 average (288-token) footprints, not one 320.
        const ServingCosts tight((heldBytes + 0.95 * one.bytesFullLength) / 0.9);
        QCOMPARE(kvCapacity(a, servingConfig(64), probe, tight.platform(),
                            servingDefaults("vllm", tight.platform()))
                     .requestsThatFit,
                 1);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 estimateServing(tight, a, servingConfig(64), probe));
    }

    // The first benchmark round, worked out step by step: n = 5 prompts of 3,000 tokens,
    // step token budget 8,192.
    void firstWaveByHand()
    {
        const ServingCosts costs(kAmple);
        const ModelArch a = test::tinyArch(6);
        const Config cfg = servingConfig(64);
        const StepModel m(costs, a, cfg);
        // TRT-LLM (whole prompts): floor(8192 / 3000) = 2 prompts a step; steps of 2, 2, 1
        // prompts; prompts 1-2 wait one step, 3-4 two, 5 two plus the single-prompt step.
        const double two = m.prefillStepMs(2, 3000), one = m.prefillStepMs(1, 3000);
        QCOMPARE(firstWaveMeanTtftMs(m, 5, 3000, servingDefaults("trtllm", costs.platform())),
                 (two + two + 2 * two + 2 * two + (2 * two + one)) / 5.0);
        // vLLM (chunked, FCFS token stream): steps of 8,192 and 6,808 tokens; prompts 1-2
        // (tokens up to 6,000) end in step 1, prompts 3-5 in step 2.
        const double full = m.mixedFixedMs(8192.0 / 3000, 3000, 3000, 0);
        const double last = m.mixedFixedMs(6808.0 / 3000, 3000, 3000, 0);
        QCOMPARE(firstWaveMeanTtftMs(m, 5, 3000, servingDefaults("vllm", costs.platform())),
                 (2 * full + 3 * (full + last)) / 5.0);
        // One prompt: its own prefill, both ways.
        QCOMPARE(firstWaveMeanTtftMs(m, 1, 3000, servingDefaults("trtllm", costs.platform())), one);
        QCOMPARE(firstWaveMeanTtftMs(m, 1, 3000, servingDefaults("vllm", costs.platform())), one);
        // A prompt longer than the budget without chunking runs alone: n such steps.
        QCOMPARE(firstWaveMeanTtftMs(m, 3, 9000, servingDefaults("trtllm", costs.platform())),
                 (1 + 2 + 3) / 3.0 * m.prefillStepMs(1, 9000));
    }

    // TTFT = queueing + (first round + 9 steady rounds) / 10 with the terms it reports.
    void ttftComposition()
    {
        const ServingCosts costs(kAmple);
        const ModelArch a = test::tinyArch(6);
        const Config cfg = servingConfig(64);
        const ServingEstimate e = estimateServing(costs, a, cfg, request(16, 700, 50, "x/trtllm"));
        const StepModel m(costs, a, cfg);
        QCOMPARE(e.warmupPrefillMs,
                 firstWaveMeanTtftMs(m, 16, 700, servingDefaults("trtllm", costs.platform())));
        const double run = e.backlogWaitMs + e.arrivalWaitMs + e.prefillChunks * e.ownPrefillStepMs;
        QCOMPARE(e.latency.ttftMs,
                 (e.warmupPrefillMs + (kBenchmarkRounds - 1) * run) / kBenchmarkRounds);
        QCOMPARE(e.queueWaitMs, 0.0);
    }

    void queueingZeroWhileFitsThenGrowsWithExcess()
    {
        const ModelArch a = test::tinyArch(6);
        const KvRoom room = kvRoom();
        const ServingCosts costs(room.capacityFor(10.5)); // exactly 10 requests next to the weights
        double previous = 0;
        for (int c = 1; c <= 30; ++c) {
            const ServingEstimate e =
                estimateServing(costs, a, servingConfig(64), request(c, 256, 64));
            QCOMPARE(e.kv.requestsThatFit, 10);
            QCOMPARE(e.running, std::min(c, 10));
            if (c <= 10) {
                QCOMPARE(e.queueWaitMs, 0.0);
                QVERIFY(!e.queued());
            } else {
                // Closed loop: c = throughput x (wait + cycle), throughput = n / cycle.
                QVERIFY(e.queueWaitMs > previous);
                QCOMPARE(e.queueWaitMs, e.cycleMs * (c - 10) / 10.0);
                QVERIFY(e.latency.ttftMs > e.queueWaitMs);
            }
            previous = e.queueWaitMs;
        }
        // A request that cannot fit at all is an error, not a silent estimate.
        const ServingCosts tight(room.capacityFor(0.5));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 estimateServing(tight, a, servingConfig(64), request(1, 256, 64)));
    }

    void batchLimitQueuesLikeKv()
    {
        const ServingCosts costs(kAmple);
        const ServingEstimate e =
            estimateServing(costs, test::tinyArch(6), servingConfig(4), request(12, 256, 64));
        QCOMPARE(e.running, 4);
        QCOMPARE(e.queueWaitMs, e.cycleMs * 8 / 4.0);
    }

    void monotoneInConcurrencyIslOsl()
    {
        const ServingCosts costs(kAmple);
        const ModelArch a = test::tinyArch(6);
        auto est = [&](int c, int isl, int osl) {
            return estimateServing(costs, a, servingConfig(512), request(c, isl, osl)).latency;
        };
        for (int isl : {64, 1024, 9000})
            for (int osl : {2, 100, 1000}) {
                LatencyEstimate prev = est(1, isl, osl);
                for (int c = 2; c <= 300; c += (c < 20 ? 1 : 37)) {
                    const LatencyEstimate e = est(c, isl, osl);
                    QVERIFY2(e.ttftMs >= prev.ttftMs, qPrintable(QString("TTFT c %1").arg(c)));
                    QVERIFY2(e.tpotMs >= prev.tpotMs, qPrintable(QString("TPOT c %1").arg(c)));
                    prev = e;
                }
            }
        for (int c : {1, 8, 64})
            for (int osl : {2, 300}) {
                LatencyEstimate prev = est(c, 16, osl);
                for (int isl = 32; isl <= 20000; isl = isl * 3 / 2) {
                    const LatencyEstimate e = est(c, isl, osl);
                    QVERIFY2(e.ttftMs >= prev.ttftMs, qPrintable(QString("TTFT isl %1").arg(isl)));
                    QVERIFY2(e.tpotMs >= prev.tpotMs, qPrintable(QString("TPOT isl %1").arg(isl)));
                    prev = e;
                }
            }
        // osl: at c = 1 both grow (the static integration: longer contexts). With others
        // running, fewer prefills per output token compete with each arrival, so TTFT and
        // TPOT fall with osl (as measured on silicon at high concurrency) until the longer
        // contexts dominate; the test fixes the direction where one effect wins.
        for (int c : {1, 8, 64}) {
            LatencyEstimate prev = est(c, 512, 2);
            for (int osl = 3; osl <= 5000; osl = osl * 3 / 2) {
                const LatencyEstimate e = est(c, 512, osl);
                if (c == 1) {
                    QVERIFY(e.ttftMs == prev.ttftMs);
                    QVERIFY(e.tpotMs >= prev.tpotMs);
                } else if (osl <= 200) {
                    QVERIFY2(e.ttftMs <= prev.ttftMs, qPrintable(QString("TTFT osl %1").arg(osl)));
                }
                prev = e;
            }
        }
        const double short64 = est(64, 512, 50).tpotMs, long64 = est(64, 512, 2000).tpotMs;
        QVERIFY(long64 < short64);
    }

    // At its own running count, estimateServingAt is the serving estimate; at a smaller count
    // the steps carry fewer tokens (TPOT no higher) and, above the running requests, more
    // requests wait for a slot.
    void estimateAtRunningCount()
    {
        const ModelArch a = test::tinyArch(6);
        const ServingCosts costs(kAmple);
        const Request r = request(8, 256, 64);
        const ServingEstimate own = estimateServing(costs, a, servingConfig(64), r);
        QCOMPARE(own.running, 8);
        const LatencyEstimate at = estimateServingAt(costs, a, servingConfig(64), r, 8);
        QCOMPARE(at.ttftMs, own.latency.ttftMs);
        QCOMPARE(at.tpotMs, own.latency.tpotMs);
        const LatencyEstimate fewer = estimateServingAt(costs, a, servingConfig(64), r, 3);
        QVERIFY(fewer.tpotMs <= at.tpotMs);
        QVERIFY(fewer.ttftMs > at.ttftMs); // 5 of 8 clients queue
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 estimateServingAt(costs, a, servingConfig(64), r, 9));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 estimateServingAt(costs, a, servingConfig(64), r, 0));
    }

    // The running rule reads the serving model's count from the memory total alone.
    void runningRuleByHand()
    {
        const ModelArch a = test::tinyArch(6);
        const KvRoom room = kvRoom();
        const KvCapacity& one = room.one;
        const ServingCosts costs(room.capacityFor(10.5));
        const Request r = request(30, 256, 64);
        const RunningRule rule = runningRule(a, servingConfig(64), r, costs.platform());
        QCOMPARE(rule.limit, 30);
        const double total = estimateMemory(a, servingConfig(64), r, costs.platform()).total();
        QCOMPARE(rule.slotsAt(total), 10);
        QCOMPARE(rule.runningAt(total), estimateServing(costs, a, servingConfig(64), r).running);
        // One request's bytes more: one slot fewer; the pool empty: the limit (lifted).
        QCOMPARE(rule.slotsAt(total + one.bytesPerRequest / 0.9), 9);
        QCOMPARE(rule.runningAt(total + 20 * one.bytesPerRequest / 0.9), 30);
        const RunningRule batch8 = runningRule(a, servingConfig(8), r, costs.platform());
        QCOMPARE(batch8.limit, 8);
    }

    // SGLang runs prefills and decodes in separate steps: every prefill step stalls the
    // decodes (TPOT = decode step + phi prefill-only steps), where vLLM's chunks ride in the
    // decode steps. osl 2: one decode step, so TPOT is that step; c 16, 700-token prompts:
    // r = 15 x 1 / 2 = 7.5 chunks a step, phi 1.
    void separatePrefillStepsByHand()
    {
        const ServingCosts costs(kAmple);
        const ModelArch a = test::tinyArch(6);
        const Config cfg = servingConfig(64);
        const StepModel m(costs, a, cfg);
        const double ctxMean = 700 + 1 + 0.5;
        const double len = (701 + 15 * ctxMean) / 16; // the own context blended with the others'
        const ServingEstimate sg = estimateServing(costs, a, cfg, request(16, 700, 2, "x/sglang"));
        const double prefillOnly = m.mixedFixedMs(7.5, 700, 700, 0);
        QCOMPARE(sg.mixedShare, 1.0);
        QCOMPARE(sg.mixedStepMs, prefillOnly);
        QCOMPARE(sg.latency.tpotMs,
                 m.decodeFixedMs(16) + prefillOnly + m.mixedAttentionMs(16, len));
        QCOMPARE(sg.decodeStepMs, m.decodeFixedMs(16) + m.mixedAttentionMs(16, ctxMean));
        // Half the steps are prefill steps; SGLang schedules a step ahead, so an arriving
        // request waits for two of them.
        QCOMPARE(sg.arrivalWaitMs, sg.decodeStepMs + prefillOnly);
        // vLLM: the 7.5 chunks share one step with the 8.5 other decodes.
        const ServingEstimate vl = estimateServing(costs, a, cfg, request(16, 700, 2, "x/vllm"));
        QCOMPARE(vl.latency.tpotMs,
                 m.mixedFixedMs(7.5, 700, 700, 8.5) + m.mixedAttentionMs(8.5, len));
        QVERIFY(sg.latency.tpotMs > vl.latency.tpotMs);
    }

    // An engine that schedules a step ahead (vLLM from 0.14) makes an arriving request wait
    // for the step in progress and the one already scheduled: one mean step more than vLLM
    // 0.12's, in each of the 9 steady rounds of the 10 (no queueing here); nothing else moves,
    // and a lone client (n = 1) finds the engine idle either way.
    void stepScheduledAheadWaitsOneStepMore()
    {
        const ServingCosts costs(kAmple);
        const ModelArch a = test::tinyArch(6);
        const Config cfg = servingConfig(64);
        Request older = request(16, 700, 50);
        older.engineVersion = "0.12.0";
        const ServingEstimate before = estimateServing(costs, a, cfg, older);
        const ServingEstimate ahead = estimateServing(costs, a, cfg, request(16, 700, 50));
        const double meanStep = before.arrivalWaitMs;
        QVERIFY(meanStep > 0);
        QCOMPARE(ahead.arrivalWaitMs, 2 * meanStep);
        QCOMPARE(ahead.latency.tpotMs, before.latency.tpotMs);
        QCOMPARE(ahead.warmupPrefillMs, before.warmupPrefillMs);
        QCOMPARE(ahead.queueWaitMs, 0.0);
        QVERIFY(std::abs(ahead.latency.ttftMs - before.latency.ttftMs -
                         (kBenchmarkRounds - 1.0) / kBenchmarkRounds * meanStep) <=
                1e-12 * ahead.latency.ttftMs);
        Request lone = request(1, 700, 50);
        const double alone = estimateServing(costs, a, cfg, lone).latency.ttftMs;
        lone.engineVersion = "0.12.0";
        QCOMPARE(estimateServing(costs, a, cfg, lone).latency.ttftMs, alone);
    }

    // Which releases schedule a step ahead: TRT-LLM and SGLang by default in every release the
    // tables come from; vLLM from 0.14.0 (async scheduling on by default); an empty or
    // unreadable release is a current one.
    void schedulingAheadByRelease()
    {
        const Platform gpu = test::fakeGpu(80 * kGiB);
        QVERIFY(servingDefaults("trtllm", gpu).schedulesAhead);
        QVERIFY(servingDefaults("sglang", gpu, "0.5.6.post2").schedulesAhead);
        for (const char* v : {"", "0.14.0", "0.24.0", "v0.14", "1.0", "nightly", "0."})
            QVERIFY2(servingDefaults("vllm", gpu, v).schedulesAhead, v);
        for (const char* v : {"0.12.0", "v0.13.1rc2", "0.9", "0.13"})
            QVERIFY2(!servingDefaults("vllm", gpu, v).schedulesAhead, v);
        Request r = request(8, 100, 10);
        r.engineVersion = "0.12.0";
        QVERIFY(!servingDefaults(r, gpu).schedulesAhead);
    }

    // A measured release's request overhead (Request::requestOverheadMs, set by the silicon
    // reader) is added to TTFT alone: the same estimate without it differs by exactly that,
    // at c 1 and when queued; TPOT and the queueing do not move.
    void requestOverheadGoesToTtft_data()
    {
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<double>("overhead");
        QTest::newRow("c 1") << 1 << 152.0;
        QTest::newRow("c 64, queued") << 64 << 152.0;
        QTest::newRow("c 16, queued") << 16 << 382.0;
        QTest::newRow("none") << 16 << 0.0;
    }
    void requestOverheadGoesToTtft()
    {
        QFETCH(int, concurrency);
        QFETCH(double, overhead);
        const ServingCosts costs(kAmple);
        const ModelArch a = test::tinyArch(6);
        Request r = request(concurrency, 512, 64, "h100_sxm/trtllm");
        r.engineVersion = "1.0.0rc3";
        r.requestOverheadMs = overhead;
        Request current = r;
        current.requestOverheadMs = 0;
        QCOMPARE(servingDefaults(r, costs.platform()).requestOverheadMs, overhead);
        const Config cfg =
            servingConfig(concurrency > 1 ? concurrency / 2 : 1); // queued when c > 1
        const ServingEstimate with = estimateServing(costs, a, cfg, r);
        const ServingEstimate without = estimateServing(costs, a, cfg, current);
        QCOMPARE(with.requestOverheadMs, overhead);
        QCOMPARE(with.queueWaitMs, without.queueWaitMs); // no slot held, the cycle unchanged
        QVERIFY(std::abs(with.latency.ttftMs - without.latency.ttftMs - overhead) < 1e-9);
        QVERIFY(with.latency.tpotMs == without.latency.tpotMs);
        QVERIFY(estimateServingAt(costs, a, cfg, r, with.running).ttftMs == with.latency.ttftMs);
    }

    // SGLang's server_args.py by hand at tp 1: reserve = 512 + 1.5 x max(chunk, 2048) + 2 x
    // CUDA-graph batch + 128 MiB, mem_fraction_static = (C - reserve) / C to 3 decimals.
    void defaultsFollowTheGpu()
    {
        auto sglang = [](double gib) {
            return servingDefaults("sglang", test::fakeGpu(gib * kGiB));
        };
        QCOMPARE(sglang(24).stepTokenBudget, 2048.0); // 3,760 MiB of 24,576: 0.84701
        QCOMPARE(sglang(24).kvMemoryFraction, 0.847);
        QCOMPARE(sglang(48).stepTokenBudget, 4096.0); // 6,848 of 49,152: 0.86068
        QCOMPARE(sglang(48).kvMemoryFraction, 0.861);
        QCOMPARE(sglang(80).stepTokenBudget, 8192.0); // 13,440 of 81,920: 0.83594
        QCOMPARE(sglang(80).kvMemoryFraction, 0.836);
        QCOMPARE(sglang(141).kvMemoryFraction, 0.907);  // 13,440 of 144,384: 0.90691
        QCOMPARE(sglang(180).stepTokenBudget, 16384.0); // 26,240 of 184,320: 0.85764
        QCOMPARE(sglang(180).kvMemoryFraction, 0.858);
        QVERIFY(sglang(80).kvPool == KvPoolRule::StaticShareOfDevice);
        QCOMPARE(sglang(2).kvMemoryFraction, 0.0); // 2,048 MiB against a 3,728 MiB reserve
        // vLLM's API server: 8,192 tokens a step from 70 GiB on, except on the A100.
        QCOMPARE(servingDefaults("vllm", test::fakeGpu(80 * kGiB)).stepTokenBudget, 8192.0);
        QCOMPARE(servingDefaults("vllm", test::fakeGpu(48 * kGiB)).stepTokenBudget, 2048.0);
        Platform a100 = test::fakeGpu(80 * kGiB);
        a100.id = "a100_sxm";
        QCOMPARE(servingDefaults("vllm", a100).stepTokenBudget, 2048.0);
        Platform named = test::fakeGpu(80 * kGiB); // the device name as the driver spells it
        named.name = "NVIDIA A100-SXM4-80GB";
        QCOMPARE(servingDefaults("vllm", named).stepTokenBudget, 2048.0);
        QVERIFY(servingDefaults("vllm", a100).kvPool == KvPoolRule::ShareOfDevice);
        QCOMPARE(servingDefaults("trtllm", a100).stepTokenBudget, 8192.0);
        QVERIFY(servingDefaults("trtllm", a100).kvPool == KvPoolRule::ShareOfFree);
    }

    void backendDefaults()
    {
        auto servingDefaults = [](const char* backend) {
            return acsel::servingDefaults(backend, test::fakeGpu(80 * kGiB));
        };
        QVERIFY(servingDefaults("trtllm").mixesPrefillAndDecode);
        QVERIFY(servingDefaults("vllm").mixesPrefillAndDecode);
        QVERIFY(!servingDefaults("sglang").mixesPrefillAndDecode);
        QVERIFY(!servingDefaults("trtllm").chunkedPrefill);
        QVERIFY(servingDefaults("trtllm").reservesFullLength);
        QVERIFY(servingDefaults("vllm").chunkedPrefill && servingDefaults("sglang").known);
        QVERIFY(!servingDefaults("vllm").reservesFullLength);
        QVERIFY(!servingDefaults("sglang").reservesFullLength);
        QVERIFY(!servingDefaults("other").known && servingDefaults("other").reservesFullLength);
        QVERIFY(backendOf("h100_sxm/trtllm") == "trtllm");
    }
};

ACSEL_TEST_APPLESS_MAIN(TestServingModel)
#include "test_servingmodel.moc"
