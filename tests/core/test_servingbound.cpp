// FracMix in continuous batching (servingmodel.h, docs/SEARCH.md "Continuous batching"): at a
// recipe's own running count the mix of uniform estimates is a lower bound of its serving
// estimate, checked on every recipe of KV-starved requests, where the running count varies
// within a context and the mix of uniform estimates at their own counts is no bound (checked
// too, so the requests are ones that need the rule); and Exact, pruning by that bound, returns
// the brute-force optimum of continuous requests.
#include "bruteforce.h"
#include "core/search/exactsearch.h"
#include "core/search/fracmixtable.h"
#include "core/search/gate.h"
#include "servingengine.h"
#include "testmain.h"

#include <algorithm>
#include <iterator>
#include <random>

using namespace acsel;
using acsel::test::bruteForceBest;
using acsel::test::continuous;
using acsel::test::deviceFor;
using acsel::test::kBackendNames;
using acsel::test::keyOf;
using acsel::test::kSlack;
using acsel::test::sameKey;
using acsel::test::ServingEngine;

class TestServingBound : public QObject
{
    Q_OBJECT
private slots:
    void ruleGivesTheServingModelsRunningCount();
    void mixAtOwnRunningCountBoundsEveryRecipe();
    void exactEqualsBruteForceOnContinuousRequests();
};

void TestServingBound::ruleGivesTheServingModelsRunningCount()
{
    int varied = 0;
    SearchOptions o;
    o.batches = {8};
    for (double slack : kSlack)
        for (const char* backend : kBackendNames) {
            const double device = deviceFor(backend, 8, 512, 128, slack);
            const ServingEngine e(device, backend);
            const Request q = continuous(e.workspace().stacks[0].id, 8, 512, 128);
            const FracMixTable table(e, q, o);
            for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c) {
                const std::optional<RunningRule> rule =
                    e.runningRule(table.config(c, BandRecipe::uniform(4, Format::Bf16), {}), q);
                QVERIFY(rule.has_value());
                int lowest = 1 << 30, highest = 0;
                table.space(c).forEachRecipe([&](const BandRecipe& r) {
                    const Config cfg = table.config(c, r, Algorithm::Max);
                    const int n = e.running(cfg, q);
                    if (e.memoryBytes(cfg, q) <= device) { // the rule reads fitting ones
                        [&] { QCOMPARE(rule->runningAt(e.memoryBytes(cfg, q)), n); }();
                        lowest = std::min(lowest, n);
                        highest = std::max(highest, n);
                    }
                    // At its own count the estimate is the serving estimate, bit for bit.
                    const LatencyMs own = e.rawLatency(cfg, q), at = e.rawLatencyAt(cfg, q, n);
                    [&] { QCOMPARE(at.ttft, own.ttft); }();
                    [&] { QCOMPARE(at.tpot, own.tpot); }();
                    return !QTest::currentTestFailed();
                });
                varied += highest > lowest ? 1 : 0;
            }
        }
    qInfo("%d contexts run a varying number of requests", varied);
    QVERIFY2(varied >= 6, "the running count must vary within some contexts");
}

void TestServingBound::mixAtOwnRunningCountBoundsEveryRecipe()
{
    std::int64_t recipes = 0, ownCountMixAbove = 0;
    for (double slack : kSlack)
        for (const char* backend : kBackendNames)
            for (int concurrency : {3, 12, 40}) {
                const double device = deviceFor(backend, concurrency, 384, 128, slack);
                const ServingEngine e(device, backend);
                const Request q = continuous(e.workspace().stacks[0].id, concurrency, 384, 128);
                SearchOptions o;
                o.batches = {concurrency, concurrency + 1};
                const FracMixTable table(e, q, o);
                for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c) {
                    const int layers = table.space(c).numLayers();
                    table.space(c).forEachRecipe([&](const BandRecipe& r) {
                        const Config cfg = table.config(c, r, Algorithm::Max);
                        if (e.memoryBytes(cfg, q) > device)
                            return true; // never admitted: its latency bounds nothing
                        ++recipes;
                        const SoftScore s = table.soft(c, r);
                        const LatencyMs full = e.rawLatency(cfg, q);
                        const double ulps = 1 + 1e-12;
                        if (s.rawTtft > full.ttft * ulps || s.rawTpot > full.tpot * ulps) {
                            QTest::qFail(qPrintable(QString("FracMix above the estimate: %1 at %2 "
                                                            "requests")
                                                        .arg(QString::fromStdString(r.describe()))
                                                        .arg(e.running(cfg, q))),
                                         __FILE__, __LINE__);
                            return false;
                        }
                        // The mix of uniform estimates at their own counts, for contrast.
                        double ttft = 0, tpot = 0;
                        for (const Band& b : r) {
                            Config u = cfg;
                            u.recipe = BandRecipe::uniform(layers, b.format, b.scope);
                            const LatencyMs lu = e.rawLatency(u, q);
                            ttft += lu.ttft * b.layers() / layers;
                            tpot += lu.tpot * b.layers() / layers;
                        }
                        ownCountMixAbove += ttft > full.ttft * ulps || tpot > full.tpot * ulps;
                        return true;
                    });
                }
            }
    QVERIFY(recipes > 10000);
    // Without the rule the mix is no bound on these requests: the test exercises the rule.
    QVERIFY2(ownCountMixAbove > 0, qPrintable(QString::number(ownCountMixAbove)));
}

void TestServingBound::exactEqualsBruteForceOnContinuousRequests()
{
    std::mt19937_64 rng(20261202);
    const std::atomic<bool> noStop{false};
    constexpr int kRequests = 48;
    std::int64_t fullGates = 0, memoryOnlyGates = 0;
    for (int i = 0; i < kRequests; ++i) {
        const char* backend = kBackendNames[rng() % std::size(kBackendNames)];
        const int concurrency = 2 + static_cast<int>(rng() % 30);
        const int isl = 128 << (rng() % 3), osl = 64 << (rng() % 3);
        ServingEngine e(deviceFor(backend, concurrency, isl, osl, kSlack[rng() % 3]), backend);
        if (i % 2 == 0)
            e.cal = Calibration{};
        Request q = continuous(e.workspace().stacks[0].id, concurrency, isl, osl);
        SearchOptions o;
        o.batches = {concurrency};
        // Budgets exactly at a random fitting recipe's calibrated prediction (some loosened).
        const FracMixTable table(e, q, o);
        std::vector<std::pair<int, BandRecipe>> fitting;
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
            table.space(c).forEachRecipe([&](const BandRecipe& r) {
                if (e.memoryBytes(table.config(c, r, Algorithm::Max), q) <=
                    e.workspace().platforms[0].memCapacityBytes)
                    fitting.emplace_back(c, r);
                return true;
            });
        QVERIFY(!fitting.empty());
        const auto& [c, r] = fitting[static_cast<std::size_t>(rng() % fitting.size())];
        const Config anchor = table.config(c, r, ConfigSpace::fittingAlgorithms(r).front());
        const Prediction p = fullGate(e, anchor, q).prediction;
        q.ttftBudgetMs = p.ttftMs * (rng() % 4 == 0 ? 1.3 : 1.0);
        q.tpotBudgetMs = p.tpotMs * (rng() % 4 == 0 ? 1.3 : 1.0);
        q.memBudgetGiB = p.memoryBytes / kGiB * (rng() % 4 == 0 ? 1.2 : 1.0);

        const std::optional<AnswerKey> brute = bruteForceBest(e, q, o);
        QVERIFY(brute.has_value()); // the anchor itself is admitted
        const SearchResult exact = ExactSearch().run(e, q, o, {}, noStop);
        QVERIFY2(sameKey(keyOf(e, q, o, exact), brute), qPrintable(QString("request %1").arg(i)));
        fullGates += exact.fullEvaluations;
        e.bounded = false;
        const SearchResult memoryOnly = ExactSearch().run(e, q, o, {}, noStop);
        QVERIFY(sameKey(keyOf(e, q, o, memoryOnly), brute));
        memoryOnlyGates += memoryOnly.fullEvaluations;
    }
    // The latency bound prunes: without it Exact full-gates every fitting candidate ahead of
    // the answer in RMQD order.
    qInfo("full gates: %lld with the bound, %lld by memory only", static_cast<long long>(fullGates),
          static_cast<long long>(memoryOnlyGates));
    QVERIFY(fullGates * 2 < memoryOnlyGates);
}

ACSEL_TEST_GUILESS_MAIN(TestServingBound)
#include "test_servingbound.moc"
