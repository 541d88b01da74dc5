// Exact search against a brute-force reference on randomised small requests (static and
// continuous, with and without a calibration, budgets exactly at a candidate's prediction),
// with the answer order of tierule.h, and past regression cases.
#include "bruteforce.h"
#include "core/search/bandpareto.h"
#include "core/search/exactsearch.h"
#include "core/search/fracmixtable.h"
#include "core/search/recommend.h"
#include "core/search/rmqdorder.h"
#include "core/search/tierule.h"
#include "nostop.h"
#include "testmain.h"
#include "toyworkload.h"
#include "variantengine.h"

#include <random>

using namespace acsel;
using acsel::test::bruteForceBest;
using acsel::test::kAmpere;
using acsel::test::kBlackwell;
using acsel::test::keyOf;
using acsel::test::sameKey;
using acsel::test::ToyEngine;
using acsel::test::VariantEngine;

class TestSearchExact : public QObject
{
    Q_OBJECT
private slots:
    void screenPassesAtTheBudget();
    void screenPassesFracMixRoundedAboveTheEstimate();
    void exactEqualsBruteForceOnRandomRequests();
    void tieGoesToLowerLatencyThenMemory();
    void continuousTieGoesToTheSmallerBatch();
    void completeTiesGoToAFixedOrder();
    void recommendTopAndFrontier();
};

// Regression: without a calibration the screen compared FracMix with exp(log(budget)),
// which lands an ulp below some budgets and pruned a candidate exactly at the budget.
void TestSearchExact::screenPassesAtTheBudget()
{
    std::mt19937_64 rng(11);
    const Calibration toy = ToyEngine(kAmpere).cal;
    int belowByRounding = 0;
    for (int i = 0; i < 20000; ++i) {
        const double ms = static_cast<double>(1 + rng() % 10000000) / 100; // as typed: 294.22
        belowByRounding += std::exp(std::log(ms)) < ms;
        const LatencyScreen identity(Calibration{}, ms, ms);
        QVERIFY(identity.passes({ms, ms, 0}));
        QVERIFY(identity.passes({std::nextafter(ms, 1e300), ms, 0})); // FracMix's rounding
        QVERIFY(!identity.passes({ms * (1 + 1e-10), ms, 0}));
        // With a calibration, a raw value whose calibrated value is the budget passes.
        const LatencyMs cal = toy.apply({ms, ms});
        QVERIFY(LatencyScreen(toy, cal.ttft, cal.tpot).passes({ms, ms, 0}));
        QVERIFY(!LatencyScreen(toy, cal.ttft, cal.tpot).passes({ms * (1 + 1e-6), ms, 0}));
    }
    qInfo("exp(log(x)) < x for %d of 20000 budgets", belowByRounding);
    QVERIFY(belowByRounding > 0);
}

// A band boundary without a conversion (bf16 next to weight-only int4) makes FracMix equal to
// the full estimate mathematically, yet its sum rounds above it for some recipes; with the
// budget exactly at such a recipe's estimate the screen pruned the answer (found by the budget
// index's comparison with Exact).
void TestSearchExact::screenPassesFracMixRoundedAboveTheEstimate()
{
    VariantEngine e(kAmpere, false);
    e.cal = Calibration{};
    SearchOptions o;
    o.batches = {1};
    o.formats = {Format::Int4Wo};
    o.scopes = {Scope::Mlp};
    Request q;
    q.stack = "toygpu/toy";
    q.ttftBudgetMs = q.tpotBudgetMs = q.memBudgetGiB = 1e9;
    const FracMixTable table(e, q, o);
    int roundedAbove = 0, checked = 0;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        table.space(c).forEachRecipe([&](const BandRecipe& r) {
            const SoftScore s = table.soft(c, r);
            const Config cfg = table.config(c, r, ConfigSpace::fittingAlgorithms(r).front());
            const Prediction p = fullGate(e, cfg, q).prediction;
            if (!(s.rawTtft > p.rawTtftMs || s.rawTpot > p.rawTpotMs ||
                  s.memoryBytes > p.memoryBytes))
                return true;
            ++roundedAbove;
            Request at = q;
            at.ttftBudgetMs = p.ttftMs;
            at.tpotBudgetMs = p.tpotMs;
            at.memBudgetGiB = p.memoryBytes / kGiB;
            const SearchResult exact = ExactSearch().run(e, at, o, {}, kNoStop);
            QTest::qVerify(sameKey(keyOf(e, at, o, exact), bruteForceBest(e, at, o)), "exact",
                           r.describe().c_str(), __FILE__, __LINE__);
            ++checked;
            return true;
        });
    qInfo("FracMix rounded above the estimate on %d recipes", roundedAbove);
    QVERIFY(roundedAbove > 0);
    QCOMPARE(checked, roundedAbove);
}

void TestSearchExact::exactEqualsBruteForceOnRandomRequests()
{
    std::mt19937_64 rng(2026);
    int answered = 0, atBudget = 0, contextsSkipped = 0;
    constexpr int kRequests = 64;
    for (int i = 0; i < kRequests; ++i) {
        test::ToyWorkload w = test::randomToyWorkload(rng, true);
        const VariantEngine& e = w.engine;
        const SearchOptions& o = w.options;
        Request& q = w.request;
        q.mode = i % 2 ? ServingMode::Continuous : ServingMode::Static;
        q.ttftBudgetMs = q.tpotBudgetMs = q.memBudgetGiB = 1e9;
        // Budgets exactly at a random candidate's calibrated prediction (some loosened).
        const FracMixTable table(e, q, o);
        const int c = static_cast<int>(rng() % table.contexts().size());
        std::vector<BandRecipe> recipes;
        table.space(c).forEachRecipe([&](const BandRecipe& r) {
            recipes.push_back(r);
            return true;
        });
        const BandRecipe& r = recipes[static_cast<std::size_t>(rng() % recipes.size())];
        const Config anchor = table.config(c, r, ConfigSpace::fittingAlgorithms(r).front());
        const Prediction p = fullGate(e, anchor, q).prediction;
        q.ttftBudgetMs = p.ttftMs * (rng() % 4 == 0 ? 1.3 : 1.0);
        q.tpotBudgetMs = p.tpotMs * (rng() % 4 == 0 ? 1.3 : 1.0);
        q.memBudgetGiB = p.memoryBytes / kGiB * (rng() % 4 == 0 ? 1.2 : 1.0);
        atBudget += q.ttftBudgetMs == p.ttftMs;

        const std::optional<AnswerKey> brute = bruteForceBest(e, q, o);
        QVERIFY(brute.has_value()); // the anchor itself is admitted
        const SearchResult exact = ExactSearch().run(e, q, o, {}, kNoStop);
        QVERIFY2(sameKey(keyOf(e, q, o, exact), brute), qPrintable(QString("request %1").arg(i)));
        contextsSkipped += exact.softEvaluations < exact.candidates; // a failing corner
        // Rounds of 1, 2 and 5 candidates walk every path of the round logic (a round of one
        // RMQD taken whole, a cut inside a tie, the last short round): the same answer, and the
        // space is counted once however often it is walked (a smaller round skips more
        // contexts by their lowest RMQD, so it may score fewer).
        for (std::size_t round : {std::size_t{1}, std::size_t{2}, std::size_t{5}}) {
            std::vector<double> progress; // never backwards, however many rounds, ends at 1
            const SearchResult small = ExactSearch(round).run(
                e, q, o, [&](double x) { progress.push_back(x); }, kNoStop);
            QVERIFY(!progress.empty() && progress.back() == 1.0);
            QVERIFY(std::is_sorted(progress.begin(), progress.end()));
            QVERIFY2(sameKey(keyOf(e, q, o, small), brute),
                     qPrintable(QString("request %1, round %2").arg(i).arg(round)));
            QCOMPARE(small.candidates, exact.candidates);
            QVERIFY(small.softEvaluations <= small.candidates);
        }
        // Any number of threads: the same configuration and the same counts, for Exact (small
        // rounds too) and BandPareto.
        const SearchResult bp = BandPareto().run(e, q, o, {}, kNoStop);
        for (int threads : {1, 3, 7}) {
            SearchOptions t = o;
            t.threads = threads;
            for (std::size_t round : {RmqdOrder::kFirstRound, std::size_t{2}}) {
                const SearchResult x = ExactSearch(round).run(e, q, t, {}, kNoStop);
                QVERIFY2(x.config == exact.config,
                         qPrintable(QString("request %1, %2 threads").arg(i).arg(threads)));
                QCOMPARE(x.candidates, exact.candidates);
                if (round == RmqdOrder::kFirstRound)
                    QCOMPARE(x.fullEvaluations, exact.fullEvaluations);
            }
            const SearchResult y = BandPareto().run(e, q, t, {}, kNoStop);
            QVERIFY(y.config == bp.config);
            QCOMPARE(y.fullEvaluations, bp.fullEvaluations);
            QCOMPARE(y.candidates, bp.candidates);
        }
        ++answered;
    }
    QCOMPARE(answered, kRequests);
    QVERIFY(atBudget > kRequests / 2);
    qInfo("whole contexts skipped in %d of %d requests", contextsSkipped, kRequests);
    QVERIFY(contextsSkipped > kRequests / 4);
}

// Regression: at equal predicted RMQD the answer is the faster, then the smaller one.
// Every batch has the same latency and RMQD here; only memory tells them apart.
void TestSearchExact::tieGoesToLowerLatencyThenMemory()
{
    const VariantEngine e(kAmpere, true);
    SearchOptions o;
    o.batches = {8, 1, 4};
    Request q;
    q.stack = "toygpu/toy";
    q.isl = 256;
    q.osl = 64;
    q.ttftBudgetMs = q.tpotBudgetMs = q.memBudgetGiB = 1e9;
    const std::optional<AnswerKey> brute = bruteForceBest(e, q, o);
    for (const char* algo : {"exact", "bp"}) {
        const SearchResult r = makeSearcher(algo)->run(e, q, o, {}, kNoStop);
        QVERIFY(r.config.has_value());
        QCOMPARE(r.config->batch, 1);
        QVERIFY(sameKey(keyOf(e, q, o, r), brute));
    }
}

// Regression: continuous Exact returned a larger batch (more memory) at the same latency
// and RMQD as a smaller one.
void TestSearchExact::continuousTieGoesToTheSmallerBatch()
{
    const VariantEngine e(kBlackwell, true);
    SearchOptions o;
    o.batches = {32, 8, 16};
    Request q;
    q.stack = "toygpu/toy";
    q.isl = 256;
    q.osl = 64;
    q.concurrency = 8;
    q.mode = ServingMode::Continuous;
    q.ttftBudgetMs = q.tpotBudgetMs = q.memBudgetGiB = 1e9;
    const SearchResult r = ExactSearch().run(e, q, o, {}, kNoStop);
    QVERIFY(r.config.has_value());
    QCOMPARE(r.config->batch, 8);
}

// The alternatives are the next best admitted configurations by brute force, distinct in
// (model, KV, recipe); the frontier is admitted and no point of it dominates another.
// Two recipes equal in every prediction (the quality surrogate aggregates layers per depth
// third, so moving a cut inside a third changes nothing; seen on h200_sxm/vllm: 0-15 bf16 |
// 16-20 fp8 | 21-35 bf16 against 0-11 bf16 | 12-16 fp8 | 17-35 bf16) are ordered by the
// configuration itself: model, batch, KV, then the bands' ends, formats and scopes, then the
// algorithm. Either argument order gives the same answer.
void TestSearchExact::completeTiesGoToAFixedOrder()
{
    Config early, late;
    const std::pair<Format, Scope> bf16{Format::Bf16, Scope::Full}, fp8{Format::Fp8, Scope::Full};
    early.recipe = BandRecipe::fromCuts(36, {12, 17}, {bf16, fp8, bf16});
    late.recipe = BandRecipe::fromCuts(36, {16, 21}, {bf16, fp8, bf16});
    AnswerKey a{0.1007, 1, 0.998, 2e10, 3, early}, b{0.1007, 1, 0.998, 2e10, 3, late};
    QVERIFY(answerPrecedes(a, b));
    QVERIFY(!answerPrecedes(b, a));
    QVERIFY(!answerPrecedes(a, a));
    // Only after every prediction: a lower latency still wins over the order.
    b.normLatency = 0.997;
    QVERIFY(answerPrecedes(b, a));
    // Then model, batch and KV before the recipe, the algorithm last.
    b = a;
    b.config.batch = 8;
    a.config.batch = 4;
    a.config.recipe = late.recipe;
    QVERIFY(answerPrecedes(a, b));
    b = a;
    b.config.algorithm = Algorithm::Gptq;
    QVERIFY(answerPrecedes(a, b) && !answerPrecedes(b, a));
    // Fewer GPUs come before every later key: a slower, larger answer on one GPU wins at
    // the same RMQD.
    b = a;
    b.gpus = b.config.tp = 2;
    b.normLatency = 0.5;
    b.memoryBytes = 1e10;
    QVERIFY(answerPrecedes(a, b) && !answerPrecedes(b, a));
    b.rmqd = 0.1006; // a lower RMQD still wins
    QVERIFY(answerPrecedes(b, a));
}

void TestSearchExact::recommendTopAndFrontier()
{
    const VariantEngine e(kAmpere, false);
    SearchOptions o;
    o.batches = {1, 4};
    o.formats = {Format::Int8, Format::Int4Wo};
    Request q;
    q.stack = "toygpu/toy";
    q.isl = 256;
    q.osl = 64;
    q.ttftBudgetMs = 5.0;
    q.tpotBudgetMs = 0.9;
    q.memBudgetGiB = 2.2;
    const RecommendRequest r{q, o, SearchAlgorithm("exact"), 5, true};
    const Recommendation rec = recommend(e, r, {}, kNoStop);
    QVERIFY(rec.answer.config.has_value());

    const FracMixTable table(e, q, o);
    std::vector<std::pair<AnswerKey, Config>> admitted;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        table.space(c).forEachRecipe([&](const BandRecipe& rec2) {
            for (Algorithm a : ConfigSpace::fittingAlgorithms(rec2)) {
                const Config cfg = table.config(c, rec2, a);
                const GateResult g = fullGate(e, cfg, q);
                if (g.admitted())
                    admitted.push_back(
                        {answerKey(table.quality(c, a, rec2), g.prediction, cfg, q), cfg});
            }
        });
    std::stable_sort(admitted.begin(), admitted.end(),
                     [](const auto& a, const auto& b) { return answerPrecedes(a.first, b.first); });
    const auto same = [](const Config& a, const Config& b) {
        return a.model == b.model && a.kv == b.kv && a.recipe == b.recipe;
    };
    // Distinct from the answer and every earlier one in (model, KV, recipe) and in predictions.
    std::vector<AnswerKey> expected;
    std::vector<std::pair<AnswerKey, Config>> seen{
        {*keyOf(e, q, o, rec.answer), *rec.answer.config}};
    for (const auto& candidate : admitted) {
        if (std::any_of(seen.begin(), seen.end(), [&](const auto& s) {
                return same(s.second, candidate.second) ||
                       samePredictions(s.first, candidate.first);
            }))
            continue;
        seen.push_back(candidate);
        expected.push_back(candidate.first);
    }
    QVERIFY(expected.size() >= 5);
    QCOMPARE(rec.top.size(), std::size_t{5});
    for (std::size_t i = 0; i < rec.top.size(); ++i)
        QVERIFY(sameKey(keyOf(e, q, o, {"", rec.top[i].config, rec.top[i].gate}), expected[i]));

    QVERIFY(!rec.frontier.empty());
    for (std::size_t i = 1; i < rec.frontier.size(); ++i)
        QVERIFY(!samePredictions(*keyOf(e, q, o, {"", rec.frontier[i - 1].config, {}}),
                                 *keyOf(e, q, o, {"", rec.frontier[i].config, {}})));
    for (const Alternative& a : rec.frontier) {
        QVERIFY(fullGate(e, a.config, q).admitted());
        for (const Alternative& b : rec.frontier) {
            const auto ka = *keyOf(e, q, o, {"", a.config, a.gate});
            const auto kb = *keyOf(e, q, o, {"", b.config, b.gate});
            QVERIFY(!(kb.rmqd <= ka.rmqd && kb.normLatency <= ka.normLatency &&
                      (kb.rmqd < ka.rmqd || kb.normLatency < ka.normLatency)));
        }
    }
}

ACSEL_TEST_APPLESS_MAIN(TestSearchExact)
#include "test_searchexact.moc"
