// Tensor parallelism in the search space: the degrees searched, the FracMix lower bound with
// TP contexts (every recipe of every context of static and continuous requests against the
// full estimate), Exact and the budget index against brute force with TP in the space, and
// the tie rule: at equal RMQD fewer GPUs win.
#include "bruteforce.h"
#include "core/model/units.h"
#include "core/search/budgetindex.h"
#include "core/search/exactsearch.h"
#include "core/search/fracmixtable.h"
#include "core/search/gate.h"
#include "nostop.h"
#include "servingengine.h"
#include "testmain.h"

#include <random>

using namespace acsel;
using acsel::test::bruteForceBest;
using acsel::test::keyOf;
using acsel::test::sameKey;
using acsel::test::ServingEngine;

namespace
{

// A device of 1 GiB: the toy models' KV caches at these requests are a few MiB to a few
// hundred, so memory per GPU binds at some degrees and not at others.
constexpr double kDevice = 1.0 * (1 << 30);

ServingEngine tpEngine(const char* backend, double device = kDevice)
{
    ServingEngine e(device, backend);
    e.enableTensorParallelism();
    return e;
}

Request request(const Engine& e, ServingMode mode, int gpus, int concurrency, int isl, int osl)
{
    Request q;
    q.stack = e.workspace().stacks[0].id;
    q.mode = mode;
    q.gpus = gpus;
    q.concurrency = concurrency;
    q.isl = isl;
    q.osl = osl;
    q.ttftBudgetMs = q.tpotBudgetMs = 1e12;
    q.memBudgetGiB = 1e6;
    return q;
}

} // namespace

class TestSearchTp : public QObject
{
    Q_OBJECT
private slots:
    void degreesSearched();
    void fracMixBoundsEveryTpRecipe();
    void exactAndIndexEqualBruteForceWithTp();
    void fewerGpusWinAtEqualRmqd();
};

// Powers of two up to the request's GPUs that divide the heads and the engine can cost.
void TestSearchTp::degreesSearched()
{
    const ServingEngine e = tpEngine("vllm");
    ModelArch arch = e.workspace().models[0]; // 8 heads
    SearchOptions o;
    const auto tps = [&](int gpus) {
        return searchTps(e, arch, request(e, ServingMode::Static, gpus, 1, 128, 64), o);
    };
    QCOMPARE(tps(1), (std::vector<int>{1}));
    QCOMPARE(tps(3), (std::vector<int>{1, 2}));
    QCOMPARE(tps(8), (std::vector<int>{1, 2, 4, 8}));
    o.tps = {8, 2};
    QCOMPARE(tps(8), (std::vector<int>{2, 8}));
    QCOMPARE(tps(4), (std::vector<int>{2}));
    o.tps.clear();
    arch.heads = 4; // tp 8 would split 4 heads over 8 GPUs
    QCOMPARE(tps(8), (std::vector<int>{1, 2, 4}));
    // An engine without collectives serves one GPU whatever the request has.
    const ServingEngine single(kDevice, "vllm");
    QCOMPARE(searchTps(single, arch, request(single, ServingMode::Static, 8, 1, 128, 64), o),
             (std::vector<int>{1}));
    // The contexts: (model, KV, tp, batch), each with its degree in the configurations.
    const Request q = request(e, ServingMode::Static, 4, 2, 128, 64);
    o.batches = {2};
    const FracMixTable table(e, q, o);
    QCOMPARE(table.contexts().size(), std::size_t{2 * 2 * 3}); // 2 models x 2 KV x tp 1, 2, 4
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        QCOMPARE(table.config(c, BandRecipe::uniform(4, Format::Bf16), Algorithm::Max).tp,
                 table.contexts()[static_cast<std::size_t>(c)].tp);
}

// The mix of uniform estimates (at the recipe's own running count in continuous serving) is
// never above the full estimate, and memory is exact, at every degree: both add the same
// all-reduces per layer, whatever the band formats (activations are all-reduced in bf16).
void TestSearchTp::fracMixBoundsEveryTpRecipe()
{
    std::mt19937_64 rng(20261206);
    std::int64_t checked = 0;
    for (int i = 0; i < 12; ++i) {
        const char* backend = test::kBackendNames[rng() % std::size(test::kBackendNames)];
        const ServingEngine e = tpEngine(backend);
        const ServingMode mode = i % 2 ? ServingMode::Continuous : ServingMode::Static;
        const int concurrency = 1 + static_cast<int>(rng() % 16);
        const Request q = request(e, mode, 8, concurrency, 128 << (rng() % 3), 64 << (rng() % 2));
        SearchOptions o;
        o.batches = {concurrency};
        const FracMixTable table(e, q, o);
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c) {
            if (table.contexts()[static_cast<std::size_t>(c)].tp == 1)
                continue;
            table.space(c).forEachRecipe([&](const BandRecipe& r) {
                const Config cfg = table.config(c, r, Algorithm::Max);
                const SoftScore s = table.soft(c, r);
                const double memory = e.memoryBytes(cfg, q);
                if (std::abs(s.memoryBytes - memory) > 1e-9 * memory) {
                    QTest::qFail("FracMix memory is not the full estimate's", __FILE__, __LINE__);
                    return false;
                }
                if (memory > kDevice) // never admitted: its latency bounds nothing
                    return true;
                const LatencyMs full = e.rawLatency(cfg, q);
                const double ulps = 1 + 1e-12;
                if (s.rawTtft > full.ttft * ulps || s.rawTpot > full.tpot * ulps) {
                    QTest::qFail(qPrintable(QString("FracMix above the estimate at tp %1: %2 "
                                                    "(mode %3: TTFT %4 > %5 or TPOT %6 > %7)")
                                                .arg(cfg.tp)
                                                .arg(QString::fromStdString(r.describe()))
                                                .arg(static_cast<int>(q.mode))
                                                .arg(s.rawTtft)
                                                .arg(full.ttft)
                                                .arg(s.rawTpot)
                                                .arg(full.tpot)),
                                 __FILE__, __LINE__);
                    return false;
                }
                ++checked;
                return true;
            });
        }
    }
    QVERIFY2(checked > 20000, qPrintable(QString::number(checked)));
}

// Budgets at a random candidate's prediction (some loosened), GPUs 1 to 8: Exact and the
// budget index give the brute force's answer over every (context, recipe, algorithm).
void TestSearchTp::exactAndIndexEqualBruteForceWithTp()
{
    std::mt19937_64 rng(77);
    int answered = 0, onSeveralGpus = 0;
    for (int i = 0; i < 24; ++i) {
        const char* backend = test::kBackendNames[rng() % std::size(test::kBackendNames)];
        const ServingEngine e = tpEngine(backend, kDevice * static_cast<double>(1 << (rng() % 4)));
        const ServingMode mode = i % 2 ? ServingMode::Continuous : ServingMode::Static;
        const int concurrency = 1 + static_cast<int>(rng() % 12);
        const int gpus = 1 << (rng() % 4);
        Request q = request(e, mode, gpus, concurrency, 128 << (rng() % 3), 64 << (rng() % 2));
        SearchOptions o;
        o.batches = {concurrency, concurrency + 3};
        o.threads = 1 + static_cast<int>(rng() % 2);
        const std::optional<BudgetIndex> index = BudgetIndex::build(e, q, o, {}, kNoStop);
        QVERIFY(index.has_value());
        const FracMixTable table(e, q, o);
        for (int k = 0; k < 3; ++k) {
            // A random uniform candidate the gate admits under the loosest budgets.
            GateResult g;
            int tries = 0;
            do {
                const int c = static_cast<int>(rng() % table.contexts().size());
                const auto& choices = table.space(c).bandChoices();
                const FormatScope pick = choices[rng() % choices.size()];
                const BandRecipe r =
                    BandRecipe::uniform(table.space(c).numLayers(), pick.format, pick.scope);
                Request loose = q;
                loose.ttftBudgetMs = loose.tpotBudgetMs = 1e12;
                loose.memBudgetGiB = 1e6;
                g = fullGate(e, table.config(c, r, ConfigSpace::fittingAlgorithms(r)[0]), loose);
            } while (!g.admitted() && ++tries < 100);
            if (!g.admitted())
                break; // nothing fits this device: the next request
            const double loosen = k == 0 ? 1.0 : 1.0 + 0.25 * static_cast<double>(rng() % 4);
            q.ttftBudgetMs = g.prediction.ttftMs * loosen;
            q.tpotBudgetMs = g.prediction.tpotMs * loosen;
            q.memBudgetGiB = g.prediction.admittedMemoryBytes() / kGiB * (k == 2 ? 1.5 : 1.0);
            const SearchResult exact = ExactSearch(k == 1 ? 3 : 0).run(e, q, o, {}, kNoStop);
            const SearchResult fromIndex = index->answer(q);
            const QString where = QString("request %1, budgets %2").arg(i).arg(k);
            QVERIFY2(sameKey(keyOf(e, q, o, exact), bruteForceBest(e, q, o)), qPrintable(where));
            QVERIFY2(fromIndex.config == exact.config, qPrintable(where));
            answered += exact.config.has_value();
            onSeveralGpus += exact.config && exact.config->tp > 1;
        }
    }
    QVERIFY2(
        answered > 40 && onSeveralGpus > 5,
        qPrintable(QString("%1 answered, %2 on several GPUs").arg(answered).arg(onSeveralGpus)));
}

// One recipe (bf16, the only format searched) at every degree, so every candidate has the
// same RMQD: one GPU wins while it fits; with a budget between the one-GPU and the two-GPU
// footprint two GPUs do, though four and eight are faster; with one GPU nothing fits.
void TestSearchTp::fewerGpusWinAtEqualRmqd()
{
    const ServingEngine e = tpEngine("trtllm", 64.0 * (1 << 30));
    Request q = request(e, ServingMode::Static, 8, 4, 512, 128);
    SearchOptions o;
    o.models = {1};
    o.batches = {4};
    o.kvFormats = {KvFormat::Bf16};
    o.formats = {Format::Bf16};
    Config bf16;
    bf16.model = 1;
    bf16.batch = 4;
    bf16.recipe = BandRecipe::uniform(e.workspace().models[1].layers, Format::Bf16);
    const auto answer = [&] { return ExactSearch().run(e, q, o, {}, kNoStop).config; };
    std::optional<Config> a = answer();
    QVERIFY(a);
    QCOMPARE(a->tp, 1);

    const double one = e.memoryBytes(bf16, q);
    bf16.tp = 2;
    const double two = e.memoryBytes(bf16, q);
    const LatencyMs twoLatency = e.rawLatency(bf16, q);
    bf16.tp = 8;
    QVERIFY(e.rawLatency(bf16, q).tpot < twoLatency.tpot); // more GPUs would be faster
    QVERIFY(two < one);
    q.memBudgetGiB = (one + two) / 2 / kGiB;
    a = answer();
    QVERIFY(a);
    QCOMPARE(a->tp, 2);

    q.gpus = 1;
    QVERIFY(!answer());
}

ACSEL_TEST_GUILESS_MAIN(TestSearchTp)
#include "test_searchtp.moc"
