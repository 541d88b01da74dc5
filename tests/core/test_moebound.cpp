// The FracMix lower bound on mixture-of-experts models: every recipe of every context (static
// and continuous requests, one GPU and tensor parallelism, each serving backend's policy) has
// its FracMix latency at most the full estimate, its memory exactly the full one, and its
// score within the context's lowest and highest (the walks skip contexts by them). On the toy
// models with an MoE block on every layer, and on toy models mixing dense and MoE layers
// (decoder_sparse_step, mlp_only_layers), where a band's share of the layers is not its share
// of the cost: there FracMix mixes the dense and the MoE layers as separate fractions.
#include "bruteforce.h"
#include "core/search/exactsearch.h"
#include "core/search/fracmixtable.h"
#include "servingengine.h"
#include "testmain.h"

#include <random>

using namespace acsel;
using acsel::test::ServingEngine;

class TestMoeBound : public QObject
{
    Q_OBJECT
private slots:
    void fracMixBoundsEveryMoeRecipe_data();
    void fracMixBoundsEveryMoeRecipe();
    void exactEqualsBruteForceOnMixedModels();
};

void TestMoeBound::fracMixBoundsEveryMoeRecipe_data()
{
    QTest::addColumn<std::vector<int>>("layers");
    QTest::addColumn<int>("sparseStep");
    QTest::addColumn<std::vector<int>>("mlpOnlyLayers");
    QTest::addColumn<std::vector<int>>("moeLayers"); // of each model, by hand
    const std::vector<int> toy{4, 5};
    QTest::newRow("every layer") << toy << 1 << std::vector<int>{} << std::vector<int>{4, 5};
    QTest::newRow("alternate layers") << toy << 2 << std::vector<int>{} // 1, 3
                                      << std::vector<int>{2, 2};
    QTest::newRow("first layer dense") << toy << 1 << std::vector<int>{0} // 1-3, 1-4
                                       << std::vector<int>{3, 4};
    QTest::newRow("dense at 0 and 3") << toy << 1 << std::vector<int>{0, 3} // 1-2, 1-2 and 4
                                      << std::vector<int>{2, 3};
    // Two layers have no layer between the first and the last to probe the kinds' costs with:
    // FracMix bounds their latency by 0, their memory exactly.
    QTest::newRow("two and three layers")
        << std::vector<int>{2, 3} << 2 << std::vector<int>{} << std::vector<int>{1, 1}; // layer 1
}

void TestMoeBound::fracMixBoundsEveryMoeRecipe()
{
    QFETCH(std::vector<int>, layers);
    QFETCH(int, sparseStep);
    QFETCH(std::vector<int>, mlpOnlyLayers);
    QFETCH(std::vector<int>, moeLayers);
    std::mt19937_64 rng(20261206);
    std::int64_t checked = 0, strict = 0, admitted = 0;
    for (int i = 0; i < 8; ++i) {
        const char* backend =
            test::kBackendNames[static_cast<std::size_t>(i) % std::size(test::kBackendNames)];
        ServingEngine e(0.5 * (1 << 30), backend, layers); // half a GiB: memory binds some
        e.makeMixtureOfExperts(sparseStep, mlpOnlyLayers);
        e.enableTensorParallelism();
        for (std::size_t m = 0; m < layers.size(); ++m)
            QCOMPARE(e.workspace().models[m].moeLayers(), moeLayers[m]);
        const int concurrency = 1 + static_cast<int>(rng() % 12);
        Request q = test::continuous(e.workspace().stacks[0].id, concurrency, 128 << (rng() % 3),
                                     64 << (rng() % 2));
        q.mode = i < 4 ? ServingMode::Static : ServingMode::Continuous;
        q.gpus = 2;
        SearchOptions o;
        o.batches = {concurrency};
        const FracMixTable table(e, q, o);
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c) {
            const SoftScore& low = table.lowestUniform(c);
            const SoftScore& high = table.highestUniform();
            table.space(c).forEachRecipe([&](const BandRecipe& r) {
                const Config cfg = table.config(c, r, Algorithm::Max);
                const SoftScore s = table.soft(c, r);
                const double memory = e.memoryBytes(cfg, q);
                ++checked;
                const QString what = QString("%1 tp %2").arg(r.describe(true).c_str()).arg(cfg.tp);
                if (std::abs(s.memoryBytes - memory) > 1e-9 * memory) {
                    QTest::qFail(qPrintable("FracMix memory is not the estimate's: " + what),
                                 __FILE__, __LINE__);
                    return false;
                }
                const double round = 1 + 1e-12;
                if (s.rawTtft < low.rawTtft / round || s.rawTpot < low.rawTpot / round ||
                    s.memoryBytes < low.memoryBytes / round || s.rawTtft > high.rawTtft * round ||
                    s.rawTpot > high.rawTpot * round || s.memoryBytes > high.memoryBytes * round) {
                    QTest::qFail(qPrintable("FracMix outside the context's bounds: " + what),
                                 __FILE__, __LINE__);
                    return false;
                }
                if (memory > 0.5 * (1 << 30)) // never admitted: its latency bounds nothing
                    return true;
                ++admitted;
                const LatencyMs full = e.rawLatency(cfg, q);
                if (s.rawTtft > full.ttft * round || s.rawTpot > full.tpot * round) {
                    QTest::qFail(qPrintable("FracMix above the estimate: " + what), __FILE__,
                                 __LINE__);
                    return false;
                }
                strict += s.rawTtft < full.ttft * (1 - 1e-9);
                return true;
            });
            if (QTest::currentTestFailed())
                return;
        }
    }
    QVERIFY(checked > 5000);
    QVERIFY(admitted > 1000);
    QVERIFY(strict > 0); // the bound is not the estimate itself: some bands cost more
}

// Exact prunes by the split FracMix: its answer is the brute force's on models mixing dense and
// MoE layers, static and continuous, with budgets exactly at a random recipe's prediction.
void TestMoeBound::exactEqualsBruteForceOnMixedModels()
{
    std::mt19937_64 rng(20261207);
    const std::atomic<bool> noStop{false};
    std::int64_t fullGates = 0, memoryOnlyGates = 0;
    for (int i = 0; i < 24; ++i) {
        const char* backend =
            test::kBackendNames[static_cast<std::size_t>(i) % std::size(test::kBackendNames)];
        const bool continuous = i >= 12;
        const int concurrency = 1 + static_cast<int>(rng() % 12);
        const int isl = 128 << (rng() % 3), osl = 64 << (rng() % 2);
        // Continuous: a device the KV pool limits (servingengine.h), static: half a GiB.
        const double device =
            continuous ? test::deviceFor(backend, concurrency, isl, osl, test::kSlack[rng() % 3])
                       : 0.5 * (1 << 30);
        ServingEngine e(device, backend);
        e.makeMixtureOfExperts(i % 3 == 0 ? 2 : 1,
                               i % 3 == 0 ? std::vector<int>{} : std::vector<int>{0, i % 3 + 1});
        e.enableTensorParallelism();
        if (i % 2 == 0)
            e.cal = Calibration{};
        Request q = test::continuous(e.workspace().stacks[0].id, concurrency, isl, osl);
        q.mode = continuous ? ServingMode::Continuous : ServingMode::Static;
        q.gpus = 2;
        SearchOptions o;
        o.batches = {concurrency};
        const FracMixTable table(e, q, o);
        std::vector<Config> fitting;
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
            table.space(c).forEachRecipe([&](const BandRecipe& r) {
                const Config cfg = table.config(c, r, ConfigSpace::fittingAlgorithms(r).front());
                if (e.memoryBytes(cfg, q) <= device)
                    fitting.push_back(cfg);
                return true;
            });
        QVERIFY2(!fitting.empty(), qPrintable(QString("request %1").arg(i)));
        const Prediction p = fullGate(e, fitting[rng() % fitting.size()], q).prediction;
        q.ttftBudgetMs = p.ttftMs;
        q.tpotBudgetMs = p.tpotMs;
        q.memBudgetGiB = p.memoryBytes / kGiB;
        const std::optional<AnswerKey> brute = test::bruteForceBest(e, q, o);
        QVERIFY(brute.has_value()); // the anchor itself is admitted
        const SearchResult exact = ExactSearch().run(e, q, o, {}, noStop);
        QVERIFY2(test::sameKey(test::keyOf(e, q, o, exact), brute),
                 qPrintable(QString("request %1").arg(i)));
        fullGates += exact.fullEvaluations;
        e.bounded = false;
        memoryOnlyGates += ExactSearch().run(e, q, o, {}, noStop).fullEvaluations;
    }
    QVERIFY(fullGates < memoryOnlyGates); // the latency bound prunes
}

ACSEL_TEST_APPLESS_MAIN(TestMoeBound)
#include "test_moebound.moc"
