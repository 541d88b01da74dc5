// The budget index: built once per workload, it answers any budgets with Exact's
// answer (checked against ExactSearch and a brute-force full gate of every configuration), and
// its dominance grid answers as a brute-force scan of its points.
#include "bruteforce.h"
#include "core/model/units.h"
#include "core/search/admittedmemoryfloor.h"
#include "core/search/blockqualitybound.h"
#include "core/search/budgetindex.h"
#include "core/search/dominancegrid.h"
#include "core/search/exactsearch.h"
#include "core/search/forwardingengine.h"
#include "core/search/fracmixtable.h"
#include "core/search/gate.h"
#include "core/search/recommend.h"
#include "core/search/tierule.h"
#include "nostop.h"
#include "servingengine.h"
#include "testmain.h"
#include "toyworkload.h"
#include "variantengine.h"

#include <algorithm>
#include <iterator>
#include <random>

using namespace acsel;
using acsel::test::bruteForceBest;
using acsel::test::kAmpere;
using acsel::test::kBlackwell;
using acsel::test::keyOf;
using acsel::test::pick;
using acsel::test::sameKey;
using acsel::test::ServingEngine;
using acsel::test::VariantEngine;

namespace
{

struct Point {
    double x, y, z;
};

// Every full-gated prediction of the workload (budgets aside), to place budgets on.
std::vector<Prediction> predictionsOf(const Engine& e, Request q, const SearchOptions& o)
{
    q.ttftBudgetMs = q.tpotBudgetMs = q.memBudgetGiB = 1e9;
    const FracMixTable table(e, q, o);
    std::vector<Prediction> out;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        table.space(c).forEachRecipe([&](const BandRecipe& r) {
            out.push_back(
                fullGate(e, table.config(c, r, ConfigSpace::fittingAlgorithms(r).front()), q)
                    .prediction);
            return true;
        });
    return out;
}

// The serving engine with each backend's memory at its launch flag (enginememory.h), as
// WorkspaceEngine has it: the gate compares the larger of the estimate and that total, and
// static batching declares it a function of the estimate.
class WithEngineMemory final : public ForwardingEngine
{
public:
    using ForwardingEngine::ForwardingEngine;
    std::optional<EngineMemory> engineMemory(const Config& c, const Request& q) const override
    {
        const Workspace& ws = workspace();
        const Stack& s = ws.stacks[0];
        const std::optional<Backend> b = parseBackend(s.backend);
        if (!b)
            return std::nullopt;
        return acsel::engineMemory(*b, ws.models[static_cast<std::size_t>(c.model)], c, q,
                                   ws.platformOf(s));
    }
    bool engineMemoryFollowsEstimate(const Request& q) const override
    {
        return q.mode == ServingMode::Static;
    }
};

// A toy serving engine of `backend` with engine memory: dense models, MoE on every layer
// (kind 1) or MoE but layers 0 and 3 (kind 2), on a device `slack` times the larger model's
// bf16 footprint, split over up to `gpus` GPUs.
struct EngineMemoryCase {
    ServingEngine base;
    WithEngineMemory engine{base};
    Request request;
    EngineMemoryCase(const char* backend, int kind, ServingMode mode, int gpus, int concurrency,
                     double slack)
        : base(test::deviceFor(backend, concurrency, 128, 64, slack), backend)
    {
        base.enableTensorParallelism();
        if (kind > 0)
            base.makeMixtureOfExperts(1, kind == 1 ? std::vector<int>{} : std::vector<int>{0, 3});
        request = test::continuous(base.workspace().stacks[0].id, concurrency, 128, 64);
        request.mode = mode;
        request.gpus = gpus;
    }
};

} // namespace

class TestBudgetIndex : public QObject
{
    Q_OBJECT
private slots:
    void gridIsExact();
    void blockBoundsAreBelowEachRecipe();
    void memoryFloorIsBelowEachRecipe();
    void memoryMemoGivesTheFloor();
    void answersWithEngineMemoryAsExact();
    void answersAsExactOnRandomWorkloads();
    void recommendIndexAsRecommend();
    void sameMembersOnAnyThreadCount();
    void sameIndexForAnyRoundSize();
    void answersOnlyItsWorkload();
    void answersContinuousWorkloadsAsExact();
    void refusesAnEngineWithoutALatencyBound();
};

// Against a brute-force scan of the points added: dominated(q) is true exactly when an added
// point is no higher than q in every axis, and with a shrink exactly when one is lower by the
// shrink in x and y (or equal there) and no higher in z. Half the queries reuse an added
// point's coordinates, so equal values (in one axis or all) are exercised; values outside the
// bins fall in the end bins and are compared as they are.
void TestBudgetIndex::gridIsExact()
{
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> logValue(0, std::log(1000.0));
    const auto value = [&] { return std::exp(logValue(rng)); };
    DominanceGrid grid(1, 1000, 1, 1000, 256);
    std::vector<Point> added;
    int claimed = 0, queries = 0;
    for (int i = 0; i < 6000; ++i) {
        Point q{value(), value(), value()};
        if (i % 40 != 0) // queries lower than the points, half of them dominated
            q = {std::sqrt(q.x), std::sqrt(q.y), std::sqrt(q.z)};
        if (!added.empty() && rng() % 2) { // an added point's coordinate in one axis or all
            const Point& p = added[rng() % added.size()];
            const auto axes = rng() % 4;
            q.x = axes == 0 || axes == 3 ? p.x : q.x;
            q.y = axes == 1 || axes == 3 ? p.y : q.y;
            q.z = axes == 2 || axes == 3 ? p.z : q.z;
        }
        if (i % 40 == 0) {
            grid.add(q.x, q.y, q.z);
            added.push_back(q);
            continue;
        }
        const double shrink = rng() % 2 ? 1.0 : 0.99;
        bool below = false;
        for (const Point& p : added)
            below = below || ((p.x <= q.x * shrink || p.x == q.x) &&
                              (p.y <= q.y * shrink || p.y == q.y) && p.z <= q.z);
        QCOMPARE(grid.dominated(q.x, q.y, q.z, shrink), below);
        claimed += below;
        ++queries;
    }
    QVERIFY(claimed > 500 && claimed < queries - 500);
    // Outside the bins: nothing lies below the lowest; the highest bin compares values.
    QVERIFY(!grid.dominated(0.5, 2000, 2000));
    grid.add(5000, 5000, 1);
    QVERIFY(grid.dominated(6000, 6000, 1));
    QVERIFY(grid.dominated(5000, 5000, 1, 0.5)); // equal in x and y
    QVERIFY(!grid.dominated(6000, 6000, 1, 0.5));
    QVERIFY(!grid.dominated(4000, 6000, 1));
}

// The bounds a walk skips a block of recipes by, against each recipe of the block: its FracMix
// and memory (FracMixTable::lowestOfBlock) and its RMQD (BlockQualityBound) no lower than the
// block's bounds, on models dense, all MoE and mixing both (split FracMix), static and
// continuous. On static blocks the latency bound is often above the context's lowest corner,
// and the RMQD bound above the context's lowest (the bounds skipsContext uses): they bound
// the block, not the context.
void TestBudgetIndex::blockBoundsAreBelowEachRecipe()
{
    std::int64_t checked = 0, tighter = 0, rmqdTighter = 0;
    for (int i = 0; i < 6; ++i) {
        const char* backend =
            test::kBackendNames[static_cast<std::size_t>(i) % std::size(test::kBackendNames)];
        ServingEngine e(1e12, backend, {5, 7});
        if (i % 3 > 0)
            e.makeMixtureOfExperts(1, i % 3 == 1 ? std::vector<int>{} : std::vector<int>{0, 3});
        Request q = test::continuous(e.workspace().stacks[0].id, 2 + i, 128, 64);
        q.mode = i < 3 ? ServingMode::Static : ServingMode::Continuous;
        SearchOptions o;
        o.batches = {q.concurrency};
        const FracMixTable table(e, q, o);
        const BlockQualityBound quality(table);
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c) {
            SoftScore low;
            double lowRmqd = 0;
            int size = 0; // of the block walked
            table.space(c).forEachRecipe(
                [&](const BandRecipe& r) {
                    const SoftScore s = table.soft(c, r);
                    const double rmqd = table.bestQuality(c, r).second;
                    const double round = 1 + 1e-12;
                    QVERIFY2(low.rawTtft <= s.rawTtft * round && low.rawTpot <= s.rawTpot * round &&
                                 low.memoryBytes <= s.memoryBytes * round && lowRmqd <= rmqd,
                             r.describe(true).c_str());
                    ++checked;
                },
                [&](const BandRecipe& first, int n) {
                    const double round = 1 + 1e-12;
                    tighter += q.mode == ServingMode::Static && size > 1 &&
                               low.rawTtft > table.lowestUniform(c).rawTtft * round;
                    size = n;
                    low = table.lowestOfBlock(c, first);
                    lowRmqd = quality.lowest(c, first);
                    rmqdTighter += lowRmqd > table.lowestRmqd(c) * round;
                    return true;
                });
        }
    }
    QVERIFY(checked > 10000);
    QVERIFY(tighter > 100);
    QVERIFY(rmqdTighter > 100);
}

// The admitted memory's floor of a recipe's FracMix memory, of its block's lowest corner and
// of its context's, against the memory the full gate compares (admittedMemoryBytes), on every
// recipe of every context of each backend (and one without an engine model), dense, all MoE
// and mixed models, static and continuous, on 1 and 2 GPUs, devices near the footprint and
// roomy. The FracMix memory is shrunk by 1e-9 as the index does. Static batching on a real
// backend raises the floor above the FracMix memory on most recipes, to the admitted memory
// itself on many (vLLM's and SGLang's totals are multiples of 0.001 of the device); elsewhere
// the floor is the FracMix memory.
void TestBudgetIndex::memoryFloorIsBelowEachRecipe()
{
    std::int64_t checked = 0, raised = 0, reached = 0, raisedOnTwo = 0, followed = 0;
    const double shrink = 1 - 1e-9;
    for (int i = 0; i < 48; ++i) {
        const char* backend = test::kBackendNames[static_cast<std::size_t>(i) % 4];
        const ServingMode mode = i / 4 % 2 ? ServingMode::Continuous : ServingMode::Static;
        const int kind = i / 8 % 3;
        const EngineMemoryCase w(backend, kind, mode, i / 24 == 0 ? 1 : 2, 2 + i % 3,
                                 i % 3 == 0 ? 1.0 : 1.6);
        const Engine& e = w.engine;
        const bool follows = mode == ServingMode::Static && parseBackend(backend).has_value();
        SearchOptions o;
        o.batches = {w.request.concurrency, w.request.concurrency + 2};
        const FracMixTable table(e, w.request, o);
        const AdmittedMemoryFloor floor(e, table);
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c) {
            const double contextFloor = floor.of(c, table.lowestUniform(c).memoryBytes * shrink);
            double blockFloor = 0;
            table.space(c).forEachRecipe(
                [&](const BandRecipe& r) {
                    const Config cfg = table.config(c, r, ConfigSpace::fittingAlgorithms(r)[0]);
                    const double estimate = table.soft(c, r).memoryBytes * shrink;
                    const double own = floor.of(c, estimate);
                    const std::optional<double> admitted = admittedMemoryBytes(e, cfg, w.request);
                    if (!admitted) // not loaded: never a member, no bound needed
                        return;
                    QVERIFY2(own <= *admitted && blockFloor <= *admitted &&
                                 contextFloor <= *admitted,
                             qPrintable(QString("case %1, %2: %3 %4 %5 > %6")
                                            .arg(i)
                                            .arg(QString::fromStdString(r.describe(true)))
                                            .arg(own)
                                            .arg(blockFloor)
                                            .arg(contextFloor)
                                            .arg(*admitted)));
                    if (!follows)
                        QCOMPARE(own, estimate);
                    ++checked;
                    followed += follows;
                    raised += own > estimate;
                    reached += own == *admitted;
                    raisedOnTwo += own > estimate && cfg.tp == 2;
                },
                [&](const BandRecipe& first, int) {
                    blockFloor = floor.of(c, table.lowestOfBlock(c, first).memoryBytes * shrink);
                    return true;
                });
        }
    }
    QVERIFY2(checked > 50000 && raised * 2 > followed && reached * 10 > followed &&
                 raisedOnTwo > 1000,
             qPrintable(QString("%1 checked, %2 followed, %3 raised, %4 reached, %5 on two GPUs")
                            .arg(checked)
                            .arg(followed)
                            .arg(raised)
                            .arg(reached)
                            .arg(raisedOnTwo)));
}

// The memo the walks ask gives the floor itself for every recipe's estimate, asked in the
// walk's order and then shuffled (a fresh memo: steps met out of order, joined from both
// sides), on the workloads of memoryFloorIsBelowEachRecipe; the static ones on a real backend
// have floors above the estimate, a step function the memo must not blur.
void TestBudgetIndex::memoryMemoGivesTheFloor()
{
    std::mt19937_64 rng(77);
    std::int64_t checked = 0, raised = 0;
    for (int i = 0; i < 24; ++i) {
        const char* backend = test::kBackendNames[static_cast<std::size_t>(i) % 4];
        const ServingMode mode = i / 4 % 2 ? ServingMode::Continuous : ServingMode::Static;
        const EngineMemoryCase w(backend, i / 8 % 3, mode, i % 2 + 1, 2 + i % 3,
                                 i % 3 == 0 ? 1.0 : 1.6);
        SearchOptions o;
        o.batches = {w.request.concurrency, w.request.concurrency + 2};
        const FracMixTable table(w.engine, w.request, o);
        const AdmittedMemoryFloor floor(w.engine, table);
        std::vector<std::pair<int, double>> asked;
        int walkMisses = 0;
        AdmittedMemoryMemo walkOrder;
        for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
            table.space(c).forEachRecipe([&](const BandRecipe& r) {
                const double estimate = table.soft(c, r).memoryBytes * (1 - 1e-9);
                asked.emplace_back(c, estimate);
                walkMisses += walkOrder.of(floor, c, estimate) != floor.of(c, estimate);
                raised += floor.of(c, estimate) > estimate;
                return true;
            });
        QCOMPARE(walkMisses, 0);
        std::shuffle(asked.begin(), asked.end(), rng);
        AdmittedMemoryMemo shuffled;
        for (const auto& [c, estimate] : asked)
            QCOMPARE(shuffled.of(floor, c, estimate), floor.of(c, estimate));
        checked += static_cast<std::int64_t>(asked.size());
    }
    QVERIFY2(checked > 20000 && raised * 10 > checked,
             qPrintable(QString("%1 checked, %2 raised").arg(checked).arg(raised)));
}

// With the engines' memory in the gate (the floor raising the bounds the index drops
// candidates by): 24 static and continuous workloads of each backend, MoE or not, on 1 or 2
// GPUs, budgets at an admitted configuration's prediction (memory: its admitted memory) or
// loosened; the index gives Exact's configuration and the brute force's answer.
void TestBudgetIndex::answersWithEngineMemoryAsExact()
{
    std::mt19937_64 rng(4044);
    int answered = 0;
    for (int i = 0; i < 24; ++i) {
        const char* backend = test::kBackendNames[rng() % 3 == 0 ? 0 : 2 + rng() % 2];
        const EngineMemoryCase w(backend, static_cast<int>(rng() % 3),
                                 i % 4 == 3 ? ServingMode::Continuous : ServingMode::Static,
                                 1 + static_cast<int>(rng() % 2), 2 + static_cast<int>(rng() % 6),
                                 1.0 + 0.3 * static_cast<double>(rng() % 3));
        const Engine& e = w.engine;
        Request q = w.request;
        SearchOptions o;
        o.batches = {q.concurrency, q.concurrency + 3};
        o.threads = 1 + static_cast<int>(rng() % 2);
        const std::optional<BudgetIndex> index = BudgetIndex::build(e, q, o, {}, kNoStop);
        QVERIFY(index.has_value());
        std::vector<Prediction> admitted;
        for (const Prediction& p : predictionsOf(e, q, o))
            if (p.rawTtftMs > 0) // latency computed: the gate found the memory within the device
                admitted.push_back(p);
        QVERIFY(!admitted.empty());
        for (int k = 0; k < 4; ++k) {
            const Prediction& p = pick(rng, admitted);
            const double loosen = k == 0 ? 1.0 : 1.0 + 0.5 * static_cast<double>(rng() % 3);
            q.ttftBudgetMs = p.ttftMs * loosen;
            q.tpotBudgetMs = p.tpotMs * (rng() % 2 ? 1.0 : loosen);
            q.memBudgetGiB = p.admittedMemoryBytes() / kGiB * (k % 2 ? 1.0 : 1.2);
            const SearchResult fromIndex = index->answer(q);
            const SearchResult exact = ExactSearch().run(e, q, o, {}, kNoStop);
            const QString where =
                QString("workload %1 (%2), budgets %3").arg(i).arg(backend).arg(k);
            QVERIFY2(fromIndex.config == exact.config, qPrintable(where));
            QVERIFY2(sameKey(keyOf(e, q, o, fromIndex), bruteForceBest(e, q, o)),
                     qPrintable(where));
            answered += fromIndex.config.has_value();
        }
    }
    QVERIFY(answered > 48);
}

// 64 workloads (Ampere/Blackwell formats, with/without a calibration, batches tied in latency
// or not, 1-3 bands), 5 budget triples each: exactly at a configuration's prediction, loosened,
// and one that admits nothing. The index's answer is ExactSearch's configuration with the same
// prediction, and the brute force's answer.
void TestBudgetIndex::answersAsExactOnRandomWorkloads()
{
    std::mt19937_64 rng(2027);
    int queries = 0, answered = 0, smaller = 0;
    for (int i = 0; i < 64; ++i) {
        test::ToyWorkload w = test::randomToyWorkload(rng);
        const VariantEngine& e = w.engine;
        const SearchOptions& o = w.options;
        Request& q = w.request;
        const std::optional<BudgetIndex> index = BudgetIndex::build(e, q, o, {}, kNoStop);
        QVERIFY(index.has_value());
        smaller += index->members() * 4 < static_cast<std::size_t>(index->stats().candidates);
        const std::vector<Prediction> predictions = predictionsOf(e, q, o);
        for (int k = 0; k < 5; ++k) {
            const Prediction& p = pick(rng, predictions);
            const double loosen = k == 0 ? 1.0 : 1.0 + 0.5 * static_cast<double>(rng() % 3);
            q.ttftBudgetMs = p.ttftMs * (k == 4 ? 1e-3 : loosen);
            q.tpotBudgetMs = p.tpotMs * (rng() % 2 ? 1.0 : loosen);
            q.memBudgetGiB = p.memoryBytes / kGiB * (rng() % 2 ? 1.0 : 1.3);
            QVERIFY(index->answers(e, q));
            const SearchResult fromIndex = index->answer(q);
            const SearchResult exact = ExactSearch().run(e, q, o, {}, kNoStop);
            const QString where = QString("workload %1, budgets %2").arg(i).arg(k);
            QVERIFY2(fromIndex.config == exact.config, qPrintable(where));
            QCOMPARE(fromIndex.candidates, exact.candidates);
            if (exact.config) {
                const Prediction& a = fromIndex.gate.prediction;
                const Prediction& b = exact.gate.prediction;
                QVERIFY(fromIndex.gate.admitted());
                QVERIFY2(a.ttftMs == b.ttftMs && a.tpotMs == b.tpotMs &&
                             a.memoryBytes == b.memoryBytes && a.rmqd == b.rmqd,
                         qPrintable(where));
                const std::optional<AnswerKey> brute = bruteForceBest(e, q, o);
                QVERIFY(brute && brute->config == *fromIndex.config);
                ++answered;
            }
            ++queries;
        }
    }
    QCOMPARE(queries, 320);
    QVERIFY(answered > 200 && answered < queries);
    QVERIFY(smaller > 32); // the index holds a small share of the candidates
}

// The recommend use case from the indexes: the same answer, best uniform and notes as
// recommend() run on each budget triple.
void TestBudgetIndex::recommendIndexAsRecommend()
{
    std::mt19937_64 rng(99);
    for (int i = 0; i < 12; ++i) {
        const VariantEngine e(i % 2 ? kAmpere : kBlackwell, i % 3 == 0);
        Request q;
        q.stack = "toygpu/toy";
        q.concurrency = 1 + i % 3;
        SearchOptions o;
        o.batches = {1, 4};
        const std::optional<RecommendIndex> index = RecommendIndex::build(e, q, o, {}, kNoStop);
        QVERIFY(index.has_value());
        const std::vector<Prediction> predictions = predictionsOf(e, q, o);
        for (int k = 0; k < 3; ++k) {
            const Prediction& p = pick(rng, predictions);
            q.ttftBudgetMs = p.ttftMs;
            q.tpotBudgetMs = p.tpotMs * (1 + 0.2 * k);
            q.memBudgetGiB = p.memoryBytes / kGiB;
            const Recommendation fromIndex = index->recommend(e, q);
            const Recommendation direct =
                recommend(e, {q, o, SearchAlgorithm("exact"), 0, false}, {}, kNoStop);
            QVERIFY(fromIndex.answer.config == direct.answer.config);
            QCOMPARE(fromIndex.bestUniform.has_value(), direct.bestUniform.has_value());
            if (direct.bestUniform)
                QVERIFY(fromIndex.bestUniform->config == direct.bestUniform->config);
            QVERIFY(fromIndex.notes == direct.notes);
        }
    }
}

void TestBudgetIndex::sameMembersOnAnyThreadCount()
{
    const VariantEngine e(kBlackwell, false);
    Request q;
    q.stack = "toygpu/toy";
    q.concurrency = 2;
    SearchOptions o;
    o.batches = {2, 4, 8};
    std::size_t members = 0;
    for (int threads : {1, 2, 5}) {
        o.threads = threads;
        const std::optional<BudgetIndex> index = BudgetIndex::build(e, q, o, {}, kNoStop);
        QVERIFY(index.has_value());
        if (members == 0)
            members = index->members();
        QCOMPARE(index->members(), members);
    }
}

// Rounds of a few candidates (many walks, a bin alone over the round, keepers dropping bins
// mid-walk) give the index of the default round: the same members, full gates on any thread
// count, and Exact's answer on budgets at a configuration's prediction.
void TestBudgetIndex::sameIndexForAnyRoundSize()
{
    std::mt19937_64 rng(31);
    for (int i = 0; i < 8; ++i) {
        const VariantEngine e(i % 2 ? kAmpere : kBlackwell, i % 3 == 0);
        Request q;
        q.stack = "toygpu/toy";
        q.concurrency = 1 + i % 2;
        SearchOptions o;
        o.batches = {1, 2, 4};
        const std::optional<BudgetIndex> whole = BudgetIndex::build(e, q, o, {}, kNoStop);
        QVERIFY(whole.has_value());
        QCOMPARE(whole->stats().walks, std::int64_t{1}); // the toy space fits one round
        const std::vector<Prediction> predictions = predictionsOf(e, q, o);
        for (const std::int64_t round : {1, 5, 64}) {
            std::int64_t gates = -1;
            for (const int threads : {1, 3}) {
                o.threads = threads;
                const std::optional<BudgetIndex> index =
                    BudgetIndex::build(e, q, o, {}, kNoStop, round);
                QVERIFY(index.has_value());
                QCOMPARE(index->members(), whole->members());
                QCOMPARE(index->stats().candidates, whole->stats().candidates);
                QVERIFY(index->stats().walks > 1);
                if (gates < 0)
                    gates = index->stats().fullGates;
                QCOMPARE(index->stats().fullGates, gates);
                for (int k = 0; k < 4; ++k) {
                    const Prediction& p = pick(rng, predictions);
                    Request b = q;
                    b.ttftBudgetMs = p.ttftMs;
                    b.tpotBudgetMs = p.tpotMs * (k % 2 ? 1.0 : 1.5);
                    b.memBudgetGiB = p.memoryBytes / kGiB;
                    QVERIFY(index->answer(b).config == whole->answer(b).config);
                    QVERIFY(index->answer(b).config ==
                            ExactSearch().run(e, b, o, {}, kNoStop).config);
                }
            }
            o.threads = 0;
        }
    }
}

void TestBudgetIndex::answersOnlyItsWorkload()
{
    const VariantEngine e(kAmpere, false);
    Request q;
    q.stack = "toygpu/toy";
    std::vector<double> progress;
    const std::optional<BudgetIndex> index = BudgetIndex::build(
        e, q, {}, [&](double x) { progress.push_back(x); }, kNoStop);
    QVERIFY(index.has_value());
    QVERIFY(!progress.empty() && progress.back() == 1.0);
    QVERIFY(std::is_sorted(progress.begin(), progress.end()));
    Request budgets = q;
    budgets.ttftBudgetMs = 3;
    budgets.tpotBudgetMs = 0.5;
    budgets.memBudgetGiB = 1;
    QVERIFY(index->answers(e, budgets));
    Request other = q;
    other.isl = 2048;
    QVERIFY(!index->answers(e, other));
    VariantEngine recalibrated(kAmpere, false);
    recalibrated.cal.deltaTtft = 0.25;
    QVERIFY(!index->answers(recalibrated, q)); // another engine and calibration
    const std::atomic<bool> stopped{true};
    QVERIFY(!BudgetIndex::build(e, q, {}, {}, stopped).has_value());
}

// Continuous batching with the real serving model on KV-starved toy devices (the running
// count varies within contexts): 16 workloads x 4 budget triples, the index gives Exact's
// configuration and the brute force's answer.
void TestBudgetIndex::answersContinuousWorkloadsAsExact()
{
    std::mt19937_64 rng(2028);
    int answered = 0;
    for (int i = 0; i < 16; ++i) {
        const char* backend = test::kBackendNames[rng() % std::size(test::kBackendNames)];
        const int concurrency = 2 + static_cast<int>(rng() % 18);
        const int isl = 128 << (rng() % 3), osl = 64 << (rng() % 2);
        ServingEngine e(test::deviceFor(backend, concurrency, isl, osl, test::kSlack[rng() % 3]),
                        backend);
        if (rng() % 2)
            e.cal = Calibration{};
        Request q = test::continuous(e.workspace().stacks[0].id, concurrency, isl, osl);
        SearchOptions o;
        o.batches = {concurrency, concurrency + 1};
        const std::optional<BudgetIndex> index = BudgetIndex::build(e, q, o, {}, kNoStop);
        QVERIFY(index.has_value());
        const std::vector<Prediction> predictions = predictionsOf(e, q, o);
        for (int k = 0; k < 4; ++k) {
            const Prediction& p = pick(rng, predictions);
            const double loosen = k == 0 ? 1.0 : 1.0 + 0.5 * static_cast<double>(rng() % 3);
            q.ttftBudgetMs = p.ttftMs * loosen;
            q.tpotBudgetMs = p.tpotMs * (rng() % 2 ? 1.0 : loosen);
            q.memBudgetGiB = p.memoryBytes / kGiB * (rng() % 2 ? 1.0 : 1.3);
            const SearchResult fromIndex = index->answer(q);
            const SearchResult exact = ExactSearch().run(e, q, o, {}, kNoStop);
            const QString where = QString("workload %1, budgets %2").arg(i).arg(k);
            QVERIFY2(fromIndex.config == exact.config, qPrintable(where));
            QVERIFY2(sameKey(keyOf(e, q, o, fromIndex), bruteForceBest(e, q, o)),
                     qPrintable(where));
            answered += fromIndex.config.has_value();
        }
    }
    QVERIFY(answered > 32);
}

// The toy variant's continuous latency is no FracMix bound (and it has no running rule); a
// 1024-layer model's space (billions of candidates) is too large to index, said at once.
void TestBudgetIndex::refusesAnEngineWithoutALatencyBound()
{
    const test::ToyEngine deep(kAmpere, {1024});
    Request big;
    big.stack = "toygpu/toy";
    QVERIFY(BudgetIndex::applies(deep, big));
    QVERIFY_THROWS_EXCEPTION(std::length_error, BudgetIndex::build(deep, big, {}, {}, kNoStop));
    SearchOptions twoBands;
    twoBands.maxBands = 2; // 1023 cuts per pair of choices: indexed
    twoBands.formats = {Format::Int8};
    QVERIFY(BudgetIndex::build(deep, big, twoBands, {}, kNoStop).has_value());

    const VariantEngine e(kAmpere, false);
    Request q;
    q.stack = "toygpu/toy";
    q.mode = ServingMode::Continuous;
    QVERIFY(!BudgetIndex::applies(e, q));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, BudgetIndex::build(e, q, {}, {}, kNoStop));
}

ACSEL_TEST_GUILESS_MAIN(TestBudgetIndex)
#include "test_budgetindex.moc"
