// The benchmark replayed with its clients in step (benchmarkreplay.h), schedules worked out by
// hand step by step: each expected value is the sum of the steps a request lives through, every
// step costed by the same StepModel calls the replay makes (the step costs themselves are
// tested in test_opmodel and test_servingmodel). Whole prompts (TRT-LLM), chunked prompts
// (vLLM), slots and the closed loop's late arrival, SGLang's prefill steps stalling the decodes.
#include "core/latency/benchmarkreplay.h"
#include "core/latency/memorymodel.h"
#include "latencyfixtures.h"
#include "modelfixtures.h"
#include "testmain.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <vector>

using namespace acsel;

namespace
{

struct Fixture {
    test::ClosedFormCosts costs;
    ModelArch arch = test::tinyArch(4);
    Config config = test::configOf(BandRecipe::uniform(4, Format::Bf16), 64);
    StepModel model{costs, arch, config};
    // A step prefilling `prompts` prompts' worth of isl-token prompts next to `decodes`
    // decodes at mean context kv.
    double step(double prompts, int isl, int decodes, double kv) const
    {
        return model.mixedFixedMs(prompts, isl, isl, decodes) +
               (decodes > 0 ? model.mixedAttentionMs(decodes, kv) : 0.0);
    }
};

// The end of each step (t[0] = 0, t[i] after step i) from the steps' costs.
std::vector<double> endTimes(std::initializer_list<double> costs)
{
    std::vector<double> t{0.0};
    for (double c : costs)
        t.push_back(t.back() + c);
    return t;
}

// The defaults on an 80 GiB GPU: 8,192 tokens a step for every engine. The hand schedules
// below are those of an engine that schedules no step ahead (vLLM before 0.14), but for the
// one case that does.
ServingDefaults defaults(const char* backend)
{
    ServingDefaults d = servingDefaults(backend, test::fakeGpu(80 * kGiB));
    d.schedulesAhead = false;
    return d;
}

bool nearlyEqual(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

} // namespace

class TestBenchmarkReplay : public QObject
{
    Q_OBJECT

private slots:
    // One client, two rounds: prefill, then osl - 1 decodes at contexts isl + 1, isl + 2; the
    // second request finds the engine idle and starts at once.
    void oneClient()
    {
        const Fixture f;
        const auto r = replayBenchmark(f.model, defaults("vllm"), 1, 1, 100, 3, 2);
        const double prefill = f.step(1, 100, 0, 0);
        QVERIFY(nearlyEqual(r.meanTtftMs, prefill));
        QVERIFY(nearlyEqual(r.meanTpotMs, (f.step(0, 100, 1, 101) + f.step(0, 100, 1, 102)) / 2));
        QCOMPARE(r.steps, 6L);
    }

    // TRT-LLM, 3 clients, prompts of 3,000 tokens: two fit the 8,192-token budget whole, the
    // third waits a step and runs next to their decodes.
    void wholePrompts()
    {
        const Fixture f;
        const auto r = replayBenchmark(f.model, defaults("trtllm"), 3, 3, 3000, 2, 1);
        const double s1 = f.step(2, 3000, 0, 0);    // prompts A and B
        const double s2 = f.step(1, 3000, 2, 3001); // prompt C, A and B decode their last token
        const double s3 = f.step(0, 3000, 1, 3001); // C decodes
        QVERIFY(nearlyEqual(r.meanTtftMs, (s1 + s1 + (s1 + s2)) / 3));
        QVERIFY(nearlyEqual(r.meanTpotMs, (s2 + s2 + s3) / 3));
        QCOMPARE(r.steps, 3L);
    }

    // vLLM splits a prompt longer than the budget: 10,000 tokens as 8,192 + 1,808.
    void chunkedPrompt()
    {
        const Fixture f;
        const auto r = replayBenchmark(f.model, defaults("vllm"), 1, 1, 10000, 1, 1);
        QVERIFY(nearlyEqual(r.meanTtftMs, f.step(8192.0 / 10000, 10000, 0, 0) +
                                              f.step(1808.0 / 10000, 10000, 0, 0)));
        QCOMPARE(r.meanTpotMs, 0.0);
    }

    // vLLM, 3 clients on 2 slots, 2 rounds each, isl 100, osl 3 (A, B, C, then A', B', C'):
    //   1 prefill A B               6 decode C A' (C done; C' sent, seen from step 8)
    //   2 decode A B                7 prefill B' + decode A' (A' done)
    //   3 decode A B (done; A' B'   8 prefill C' + decode B'
    //     sent, seen from step 5)   9 decode B' C' (B' done)
    //   4 prefill C                10 decode C' (done)
    //   5 prefill A' + decode C (B' waits for a slot)
    void slotsAndLateArrivals()
    {
        const Fixture f;
        const auto r = replayBenchmark(f.model, defaults("vllm"), 3, 2, 100, 3, 2);
        const auto t =
            endTimes({f.step(2, 100, 0, 0), f.step(0, 100, 2, 101), f.step(0, 100, 2, 102),
                      f.step(1, 100, 0, 0), f.step(1, 100, 1, 101), f.step(0, 100, 2, 101.5),
                      f.step(1, 100, 1, 102), f.step(1, 100, 1, 101), f.step(0, 100, 2, 101.5),
                      f.step(0, 100, 1, 102)});
        // From sending (A, B, C at 0; A', B' at t3; C' at t6) to the first token.
        const double ttft = t[1] + t[1] + t[4] + (t[5] - t[3]) + (t[7] - t[3]) + (t[8] - t[6]);
        const double decode = (t[3] - t[1]) + (t[3] - t[1]) + (t[6] - t[4]) + (t[7] - t[5]) +
                              (t[9] - t[7]) + (t[10] - t[8]);
        QVERIFY(nearlyEqual(r.meanTtftMs, ttft / 6));
        QVERIFY(nearlyEqual(r.meanTpotMs, decode / 2 / 6));
        QCOMPARE(r.steps, 10L);
    }

    // The same loop on a current vLLM, which schedules a step ahead: a re-sent request is
    // seen two steps after its predecessor's last one, not one.
    //   1 prefill A B               7 prefill B' + decode A'
    //   2 decode A B                8 decode A' B' (A' done)
    //   3 decode A B (done; A' B'   9 prefill C' + decode B' (B' done)
    //     sent, seen from step 6)  10 decode C'
    //   4 prefill C                11 decode C' (done)
    //   5 decode C (A' not seen yet)
    //   6 prefill A' + decode C (C done; C' sent, seen from step 9; B' waits for a slot)
    void stepScheduledAhead()
    {
        const Fixture f;
        const ServingDefaults d = servingDefaults("vllm", test::fakeGpu(80 * kGiB));
        QVERIFY(d.schedulesAhead);
        const auto r = replayBenchmark(f.model, d, 3, 2, 100, 3, 2);
        const auto t =
            endTimes({f.step(2, 100, 0, 0), f.step(0, 100, 2, 101), f.step(0, 100, 2, 102),
                      f.step(1, 100, 0, 0), f.step(0, 100, 1, 101), f.step(1, 100, 1, 102),
                      f.step(1, 100, 1, 101), f.step(0, 100, 2, 101.5), f.step(1, 100, 1, 102),
                      f.step(0, 100, 1, 101), f.step(0, 100, 1, 102)});
        const double ttft = t[1] + t[1] + t[4] + (t[6] - t[3]) + (t[7] - t[3]) + (t[9] - t[6]);
        const double decode = (t[3] - t[1]) + (t[3] - t[1]) + (t[6] - t[4]) + (t[8] - t[6]) +
                              (t[9] - t[7]) + (t[11] - t[9]);
        QVERIFY(nearlyEqual(r.meanTtftMs, ttft / 6));
        QVERIFY(nearlyEqual(r.meanTpotMs, decode / 2 / 6));
        QCOMPARE(r.steps, 11L);
    }

    // SGLang never mixes: while a running prompt waits, its prefill step stalls the decodes.
    // The same loop as above:
    //   1 prefill A B               7 decode C A' (both done; C' sent, seen from step 9)
    //   2 decode A B                8 prefill B'
    //   3 decode A B (done)         9 prefill C' (B' stalls)
    //   4 prefill C                10 decode B' C'
    //   5 prefill A' (C stalls)    11 decode B' C' (both done)
    //   6 decode C A'
    void separatePrefillSteps()
    {
        const Fixture f;
        const auto r = replayBenchmark(f.model, defaults("sglang"), 3, 2, 100, 3, 2);
        const auto t =
            endTimes({f.step(2, 100, 0, 0), f.step(0, 100, 2, 101), f.step(0, 100, 2, 102),
                      f.step(1, 100, 0, 0), f.step(1, 100, 0, 0), f.step(0, 100, 2, 101),
                      f.step(0, 100, 2, 102), f.step(1, 100, 0, 0), f.step(1, 100, 0, 0),
                      f.step(0, 100, 2, 101), f.step(0, 100, 2, 102)});
        const double ttft = t[1] + t[1] + t[4] + (t[5] - t[3]) + (t[8] - t[3]) + (t[9] - t[7]);
        const double decode = (t[3] - t[1]) + (t[3] - t[1]) + (t[7] - t[4]) + (t[7] - t[5]) +
                              (t[11] - t[8]) + (t[11] - t[9]);
        QVERIFY(nearlyEqual(r.meanTtftMs, ttft / 6));
        QVERIFY(nearlyEqual(r.meanTpotMs, decode / 2 / 6));
        QCOMPARE(r.steps, 11L);
    }

    void refusesEmptyCounts()
    {
        const Fixture f;
        const ServingDefaults d = defaults("vllm");
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, replayBenchmark(f.model, d, 0, 1, 1, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, replayBenchmark(f.model, d, 1, 0, 1, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, replayBenchmark(f.model, d, 1, 1, 1, 0));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, replayBenchmark(f.model, d, 1, 1, 1, 1, 0));
    }
};

ACSEL_TEST_APPLESS_MAIN(TestBenchmarkReplay)
#include "test_benchmarkreplay.moc"
