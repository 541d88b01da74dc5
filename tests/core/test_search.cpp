// The searchers against brute force on a small hand-made engine (tests/core/toyengine.h).
#include "core/search/bandpareto.h"
#include "core/search/exactsearch.h"
#include "core/search/fracmixtable.h"
#include "core/search/hillclimb.h"
#include "core/search/paretofront.h"
#include "core/search/randomsearch.h"
#include "core/search/searchalgorithm.h"
#include "core/session/sessionfile.h"
#include "nostop.h"
#include "testmain.h"
#include "variantengine.h"

#include <chrono>
#include <limits>
#include <random>
#include <thread>

using namespace acsel;
using acsel::test::kAmpere;
using acsel::test::kBlackwell;
using acsel::test::ToyEngine;

namespace
{

Request request(double ttft, double tpot, double memGiB, int concurrency = 1)
{
    Request q;
    q.stack = "toygpu/toy";
    q.isl = 512;
    q.osl = 128;
    q.concurrency = concurrency;
    q.ttftBudgetMs = ttft;
    q.tpotBudgetMs = tpot;
    q.memBudgetGiB = memGiB;
    return q;
}

SearchOptions options()
{
    SearchOptions o;
    o.batches = {1, 4, 8};
    return o;
}

// Every configuration (context x recipe x fitting algorithm) through the full gate.
std::optional<double> bruteForceBestRmqd(const Engine& e, const Request& q, const SearchOptions& o)
{
    const FracMixTable table(e, q, o);
    std::optional<double> best;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        table.space(c).forEachRecipe([&](const BandRecipe& r) {
            for (Algorithm a : ConfigSpace::fittingAlgorithms(r)) {
                const GateResult g = fullGate(e, table.config(c, r, a), q);
                if (g.admitted() && (!best || g.prediction.rmqd < *best))
                    best = g.prediction.rmqd;
            }
        });
    return best;
}

} // namespace

class TestSearch : public QObject
{
    Q_OBJECT
private slots:
    void paretoFrontMatchesQuadraticReference();
    void qualityTermsEqualDirectPrediction();
    void fracMixIsExactForUniformAndLowerBoundForBands();
    void exactEqualsBruteForce_data();
    void exactEqualsBruteForce();
    void bandParetoOnlyReturnsAdmitted();
    void noFeasibleConfiguration();
    void neighboursAreLegalAndDistinct();
    void sameSeedSameResult();
    void cancellationStopsQuickly();
    void batchesBelowConcurrencyAreNotSearched();
    void countsBudgetsAndProgress();
    void algorithmNamesRoundTrip();
};

void TestSearch::paretoFrontMatchesQuadraticReference()
{
    std::mt19937_64 rng(7);
    for (int round = 0; round < 50; ++round) {
        const int n = 1 + static_cast<int>(rng() % 200);
        std::vector<double> x(static_cast<std::size_t>(n)), y(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i) { // a coarse grid, so that ties and duplicates occur
            x[static_cast<std::size_t>(i)] = static_cast<double>(rng() % 20);
            y[static_cast<std::size_t>(i)] = static_cast<double>(rng() % 20);
        }
        std::vector<std::size_t> reference;
        for (std::size_t p = 0; p < x.size(); ++p) {
            bool dominated = false;
            for (std::size_t o = 0; o < x.size() && !dominated; ++o)
                dominated = x[o] <= x[p] && y[o] <= y[p] && (x[o] < x[p] || y[o] < y[p]);
            if (!dominated)
                reference.push_back(p);
        }
        std::vector<std::size_t> front = paretoFront(x, y);
        for (std::size_t i = 1; i < front.size(); ++i)
            QVERIFY(x[front[i - 1]] <= x[front[i]]);
        // The streaming frontier keeps the same points, ordered by x.
        StreamingParetoFront<std::size_t> streamed;
        for (std::size_t i = 0; i < x.size(); ++i)
            streamed.add(x[i], y[i], i);
        std::vector<std::size_t> kept;
        for (const auto& p : streamed.points()) {
            QVERIFY(kept.empty() || x[kept.back()] <= p.x);
            QCOMPARE(p.x, x[p.value]);
            QCOMPARE(p.y, y[p.value]);
            kept.push_back(p.value);
        }
        std::sort(kept.begin(), kept.end());
        QCOMPARE(kept, reference);
        std::sort(front.begin(), front.end());
        QCOMPARE(front, reference);
    }
}

void TestSearch::qualityTermsEqualDirectPrediction()
{
    const ToyEngine e(kAmpere);
    const ConfigSpace space(8, {kAmpere});
    const SurrogateTerms terms = e.qualityTerms(1, Algorithm::Gptq, false, KvFormat::Fp8);
    int checked = 0;
    space.forEachRecipe([&](const BandRecipe& r) {
        Config c;
        c.model = 1;
        c.recipe = r;
        c.algorithm = Algorithm::Gptq;
        c.kv = KvFormat::Fp8;
        QVERIFY(std::abs(predictRecipe(terms, r) - e.rmqd(c)) < 1e-12 * e.rmqd(c));
        ++checked;
    });
    QVERIFY(checked > 1000);
}

void TestSearch::fracMixIsExactForUniformAndLowerBoundForBands()
{
    const ToyEngine e(kBlackwell);
    const Request q = request(1e9, 1e9, 1e9);
    const FracMixTable table(e, q, options());
    int strict = 0;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        table.space(c).forEachRecipe([&](const BandRecipe& r) {
            const Config cfg = table.config(c, r, Algorithm::Max);
            const SoftScore s = table.soft(c, r);
            const LatencyMs full = e.rawLatency(cfg, q);
            QVERIFY(std::abs(s.memoryBytes - e.memoryBytes(cfg, q)) <= 1e-6 * s.memoryBytes);
            QVERIFY(s.rawTtft <= full.ttft * (1 + 1e-12));
            QVERIFY(s.rawTpot <= full.tpot * (1 + 1e-12));
            if (r.isUniform())
                QVERIFY(std::abs(s.rawTtft - full.ttft) <= 1e-9 * full.ttft);
            strict += s.rawTtft < full.ttft * (1 - 1e-9);
        });
    QVERIFY(strict > 0); // conversions make some band recipes strictly slower than FracMix
}

void TestSearch::exactEqualsBruteForce_data()
{
    QTest::addColumn<int>("ampere");
    QTest::addColumn<double>("ttft");
    QTest::addColumn<double>("tpot");
    QTest::addColumn<double>("mem");
    QTest::addColumn<int>("concurrency");
    for (int ampere = 0; ampere < 2; ++ampere)
        for (double ttft : {9.0, 14.0, 25.0})
            for (double tpot : {0.9, 1.4, 3.0})
                QTest::addRow("%s ttft %g tpot %g", ampere ? "ampere" : "blackwell", ttft, tpot)
                    << ampere << ttft << tpot << 2.5 << (ttft > 20 ? 4 : 1);
}

void TestSearch::exactEqualsBruteForce()
{
    QFETCH(int, ampere);
    QFETCH(double, ttft);
    QFETCH(double, tpot);
    QFETCH(double, mem);
    QFETCH(int, concurrency);
    const ToyEngine e(ampere ? kAmpere : kBlackwell);
    const Request q = request(ttft, tpot, mem, concurrency);
    const std::optional<double> brute = bruteForceBestRmqd(e, q, options());
    const SearchResult exact = ExactSearch().run(e, q, options(), {}, kNoStop);
    QCOMPARE(exact.config.has_value(), brute.has_value());
    if (brute) {
        QVERIFY(exact.gate.admitted());
        QCOMPARE(exact.gate.prediction.rmqd, *brute);
        QCOMPARE(fullGate(e, *exact.config, q).prediction.rmqd, *brute);
    }
}

void TestSearch::bandParetoOnlyReturnsAdmitted()
{
    std::mt19937_64 rng(3);
    int answered = 0, equal = 0;
    for (int i = 0; i < 40; ++i) {
        const ToyEngine e(i % 2 ? kAmpere : kBlackwell);
        const Request q = request(6 + static_cast<double>(rng() % 20),
                                  0.8 + 0.1 * static_cast<double>(rng() % 20), 2.5);
        const SearchResult bp = BandPareto().run(e, q, options(), {}, kNoStop);
        const SearchResult exact = ExactSearch().run(e, q, options(), {}, kNoStop);
        if (!bp.config)
            continue;
        ++answered;
        QVERIFY(fullGate(e, *bp.config, q).admitted());
        QVERIFY(bp.gate.prediction.rmqd >= exact.gate.prediction.rmqd - 1e-15);
        equal += bp.gate.prediction.rmqd == exact.gate.prediction.rmqd;
        QVERIFY(bp.softEvaluations > 0 && bp.fullEvaluations >= 1);
    }
    QVERIFY(answered > 20);
    qInfo("BandPareto equal to Exact on %d of %d answered toy requests", equal, answered);
}

void TestSearch::noFeasibleConfiguration()
{
    const ToyEngine e(kBlackwell);
    const Request q = request(0.001, 0.001, 80);
    for (const SearcherInfo& info : searchers()) {
        SearchOptions o = options();
        o.maxEvaluations = 200;
        const SearchResult r = info.make()->run(e, q, o, {}, kNoStop);
        QVERIFY2(!r.config, info.name.c_str());
        QVERIFY(!r.cancelled);
    }
}

void TestSearch::neighboursAreLegalAndDistinct()
{
    const ConfigSpace space(8, {kAmpere});
    std::vector<Format> ladder{Format::Int4Wo, Format::Int8Wo, Format::Int8, Format::Bf16};
    int total = 0;
    space.forEachRecipe([&](const BandRecipe& r) {
        const auto ns = recipeNeighbours(r, space.bandChoices(), ladder);
        for (std::size_t i = 0; i < ns.size(); ++i) {
            QVERIFY(ns[i].validate(8).empty());
            QVERIFY(ConfigSpace::hasFittingAlgorithm(ns[i]));
            QVERIFY(!(ns[i] == r));
            for (std::size_t j = 0; j < i; ++j)
                QVERIFY(!(ns[i] == ns[j]));
        }
        total += static_cast<int>(ns.size());
    });
    QVERIFY(total > 0);
    // A 3-band recipe's cut moves by one layer in both directions.
    const auto r = BandRecipe::fromCuts(8, {3, 5},
                                        {{Format::Int8Wo, Scope::Full},
                                         {Format::Int4Wo, Scope::Full},
                                         {Format::Bf16, Scope::Full}});
    const auto ns = recipeNeighbours(r, space.bandChoices(), ladder);
    const auto moved = BandRecipe::fromCuts(8, {4, 5},
                                            {{Format::Int8Wo, Scope::Full},
                                             {Format::Int4Wo, Scope::Full},
                                             {Format::Bf16, Scope::Full}});
    QVERIFY(std::find(ns.begin(), ns.end(), moved) != ns.end());
}

void TestSearch::sameSeedSameResult()
{
    const ToyEngine e(kAmpere);
    const Request q = request(14, 1.4, 2.5);
    for (const char* name : {"rand", "hc"}) {
        SearchOptions o = options();
        o.maxEvaluations = 300;
        o.seed = 42;
        const SearchResult a = makeSearcher(name)->run(e, q, o, {}, kNoStop);
        const SearchResult b = makeSearcher(name)->run(e, q, o, {}, kNoStop);
        QVERIFY(a.config.has_value());
        QVERIFY(a.config == b.config);
        QCOMPARE(a.fullEvaluations, b.fullEvaluations);
        QCOMPARE(a.fullEvaluations, std::int64_t{300});
    }
}

// The acceptance target is 10 ms (Exact stops in 6-7 ms in a release build); the limit leaves
// a margin for a loaded CI machine, and more for instrumented builds, where the part of Exact
// that does not look at the flag takes 320-440 ms under TSan.
constexpr double kStopLatencyLimitMs =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    2000.0;
#else
    100.0;
#endif

void TestSearch::cancellationStopsQuickly()
{
    // A large space: 3 models of 60-80 layers, so an uncancelled Exact takes far longer.
    const ToyEngine e(kAmpere, {60, 70, 80});
    const Request q = request(1e9, 1e9, 1e9);
    for (const char* name : {"exact", "bp", "rand", "hc"}) {
        std::atomic<bool> stop{false};
        SearchResult result;
        SearchOptions o = options();
        o.maxEvaluations = std::numeric_limits<std::int64_t>::max();
        std::chrono::steady_clock::time_point stoppedAt;
        std::thread worker([&] { result = makeSearcher(name)->run(e, q, o, {}, stop); });
        std::this_thread::sleep_for(std::chrono::milliseconds(30));
        stoppedAt = std::chrono::steady_clock::now();
        stop = true;
        worker.join();
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - stoppedAt)
                .count();
        qInfo("%s stopped %.2f ms after the stop flag", name, ms);
        QVERIFY2(result.cancelled, name);
        QVERIFY2(ms < kStopLatencyLimitMs, name);
    }
}

void TestSearch::batchesBelowConcurrencyAreNotSearched()
{
    const ToyEngine e(kBlackwell);
    const Request q = request(1e9, 1e9, 1e9, 5);
    const FracMixTable table(e, q, options());
    for (const SearchContext& c : table.contexts())
        QVERIFY(c.batch >= 5);
    QCOMPARE(searchBatches(request(1, 1, 1, 64), options()), std::vector<int>{64});
}

void TestSearch::countsBudgetsAndProgress()
{
    // BandPareto scores every legal recipe once, Exact at most once (it skips the contexts
    // whose lowest possible RMQD cannot beat the candidates it holds); the sampling ones spend
    // the default 2000 full gates when no budget is given; progress rises to exactly 1.
    const ToyEngine e(kAmpere);
    const Request q = request(1e9, 1e9, 1e9);
    const SearchOptions o = options();
    const std::int64_t recipes = FracMixTable(e, q, o).recipeCount();
    QVERIFY(recipes > 1000);
    for (const char* name : {"exact", "bp", "rand", "hc"}) {
        std::vector<double> seen;
        const SearchResult r = makeSearcher(name)->run(
            e, q, o, [&](double f) { seen.push_back(f); }, kNoStop);
        QCOMPARE(r.candidates, recipes);
        if (std::string(name) == "exact" || std::string(name) == "bp") {
            if (std::string(name) == "bp")
                QCOMPARE(r.softEvaluations, recipes);
            QVERIFY(r.softEvaluations > 0 && r.softEvaluations <= recipes);
            QCOMPARE(r.fullEvaluations, std::int64_t{1}); // no budget binds: the best passes
        } else {
            QCOMPARE(r.fullEvaluations, std::int64_t{2000});
        }
        QVERIFY2(r.config.has_value() && !r.cancelled, name);
        QVERIFY(fullGate(e, *r.config, q).admitted());
        QVERIFY2(!seen.empty() && seen.back() == 1.0, name);
        for (std::size_t i = 0; i < seen.size(); ++i)
            QVERIFY2(seen[i] >= 0 && seen[i] <= 1 && (i == 0 || seen[i] >= seen[i - 1]), name);
    }
}

void TestSearch::algorithmNamesRoundTrip()
{
    // One registry (the CLI, the GUI, session files and eval read it): each searcher answers
    // to its short and its saved name and names itself by the short one.
    for (std::size_t i = 0; i < searchers().size(); ++i) {
        const SearcherInfo& n = searchers()[i];
        QCOMPARE(SearchAlgorithm::at(i).index(), i);
        QVERIFY(SearchAlgorithm::parse(n.name) == SearchAlgorithm::at(i));
        QVERIFY(SearchAlgorithm::parse(n.savedName) == SearchAlgorithm::at(i));
        QCOMPARE(makeSearcher(n.savedName)->name(), n.name);
        QCOMPARE(SearchAlgorithm::at(i).make()->name(),
                 std::string(toString(SearchAlgorithm::at(i))));
    }
    QVERIFY(!SearchAlgorithm::parse("BP") && !SearchAlgorithm::parse("") && !makeSearcher("pb"));
    QCOMPARE(searchAlgorithmChoices(), std::string("bp, exact, hc or rand"));
    // The default is one of them, and the only exact one is Exact.
    QCOMPARE(defaultSearchAlgorithm().info().name, std::string("exact"));
    int exact = 0;
    for (const SearcherInfo& n : searchers())
        exact += n.exact ? 1 : 0;
    QCOMPARE(exact, 1);
}

ACSEL_TEST_APPLESS_MAIN(TestSearch)
#include "test_search.moc"
