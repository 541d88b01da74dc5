// The nearest miss of an empty answer (nearestmiss.h) against a brute-force reference: every
// (context, recipe, fitting algorithm) through the full gate with the budget lifted; the
// suggested budget fed back answers and 0.1 below it nothing, on the toy engines and on 20
// random empty requests of the workspace; and the margin's arithmetic by hand.
#include "core/data/workspacefile.h"
#include "core/model/units.h"
#include "core/search/exactsearch.h"
#include "core/search/fracmixtable.h"
#include "core/search/nearestmiss.h"
#include "core/search/workspaceengine.h"
#include "nostop.h"
#include "testmain.h"
#include "toyworkload.h"
#include "variantengine.h"

#include <QFileInfo>
#include <limits>
#include <random>

using namespace acsel;
using acsel::test::kAmpere;
using acsel::test::kBlackwell;
using acsel::test::pick;
using acsel::test::VariantEngine;

namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

// The lowest metric over every admitted (context, recipe, fitting algorithm) of q.
std::optional<double> bruteLowest(const Engine& e, const Request& q, BudgetKind b,
                                  const SearchOptions& o)
{
    const FracMixTable table(e, q, o);
    std::optional<double> best;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        table.space(c).forEachRecipe([&](const BandRecipe& r) {
            for (Algorithm a : ConfigSpace::fittingAlgorithms(r)) {
                const GateResult g = fullGate(e, table.config(c, r, a), q);
                if (g.admitted())
                    best = std::min(best.value_or(kInf), metricOf(g.prediction, b));
            }
            return true;
        });
    return best;
}

const Platform& gpuOf(const Engine& e, const Request& q)
{
    const Workspace& ws = e.workspace();
    return ws.platformOf(ws.stacks[static_cast<std::size_t>(*ws.findStack(q.stack))]);
}

bool answers(const Engine& e, const Request& asked, const BudgetMargin& m, const SearchOptions& o)
{
    return ExactSearch().run(e, m.apply(asked, gpuOf(e, asked)), o, {}, kNoStop).config.has_value();
}

// Every budget of a nearest miss: the suggestion answers, with the configuration reported,
// and 0.1 below it nothing; a budget that cannot bind answers nothing even lifted.
void checkMiss(const Engine& e, const Request& asked, const BudgetMargin& m, const SearchOptions& o,
               const NearestMiss& miss, const QString& where)
{
    QVERIFY(!miss.stopped);
    for (const BudgetMiss& b : miss.budgets) {
        const QString at = where + QStringLiteral(", ") + QString::fromLatin1(toString(b.budget));
        if (!b.lowest) {
            const Request lifted = withBudget(asked, b.budget, 1e12);
            QVERIFY2(!answers(e, lifted, m, o), qPrintable(at));
            continue;
        }
        QVERIFY2(b.suggested > budgetOf(asked, b.budget), qPrintable(at));
        QVERIFY2(b.answer.config.has_value(), qPrintable(at));
        const Request fed = withBudget(asked, b.budget, b.suggested);
        const SearchResult again =
            ExactSearch().run(e, m.apply(fed, gpuOf(e, fed)), o, {}, kNoStop);
        QVERIFY2(again.config == b.answer.config, qPrintable(at));
        // 0.1 lower (the resolution of the suggestion) answers nothing: the value is exact.
        const double below = b.suggested - 0.1;
        if (below > 0)
            QVERIFY2(!answers(e, withBudget(asked, b.budget, below), m, o), qPrintable(at));
    }
}

} // namespace

class TestNearestMiss : public QObject
{
    Q_OBJECT
private slots:
    void marginShrinksEveryBudgetByHand();
    void lowestEqualsBruteForce();
    void suggestionsAnswerOnToyEngines();
    void suggestionsAnswerOnTheWorkspace();
};

void TestNearestMiss::marginShrinksEveryBudgetByHand()
{
    Platform gpu;
    gpu.memCapacityBytes = 64 * kGiB;
    Request q;
    q.ttftBudgetMs = 2000;
    q.tpotBudgetMs = 40;
    q.memBudgetGiB = 100; // above the device: its 64 GiB are what the margin shrinks
    QVERIFY(BudgetMargin{0}.apply(q, gpu) == q);
    const Request m = BudgetMargin{10}.apply(q, gpu);
    QCOMPARE(m.ttftBudgetMs, 1800.0); // 2000 * 0.9
    QCOMPARE(m.tpotBudgetMs, 36.0);   // 40 * 0.9
    QCOMPARE(m.memBudgetGiB, 57.6);   // 64 * 0.9
    q.memBudgetGiB = 50;
    QCOMPARE(BudgetMargin{20}.apply(q, gpu).memBudgetGiB, 40.0);
    QVERIFY(BudgetMargin{0}.valid() && BudgetMargin{99.9}.valid());
    QVERIFY(!BudgetMargin{100}.valid() && !BudgetMargin{-1}.valid());
}

void TestNearestMiss::lowestEqualsBruteForce()
{
    std::mt19937_64 rng(37);
    int bound = 0, none = 0;
    for (int i = 0; i < 24; ++i) {
        test::ToyWorkload w = test::randomToyWorkload(rng);
        const VariantEngine& e = w.engine;
        const SearchOptions& o = w.options;
        Request& q = w.request;
        // Continuous: the variant engine's FracMix is no bound, so every candidate is gated.
        q.mode = i % 3 == 2 ? ServingMode::Continuous : ServingMode::Static;
        bound += q.mode == ServingMode::Static;
        q.ttftBudgetMs = std::uniform_real_distribution<double>(20, 400)(rng);
        q.tpotBudgetMs = std::uniform_real_distribution<double>(1, 8)(rng);
        q.memBudgetGiB = std::uniform_real_distribution<double>(1, 6)(rng);
        for (BudgetKind b : kBudgetKinds) {
            const Request lifted = withBudget(q, b, b == BudgetKind::Memory ? 1e12 : kInf);
            const std::optional<double> brute = bruteLowest(e, lifted, b, o);
            none += !brute.has_value();
            for (std::size_t round : {std::size_t{0}, std::size_t{1}, std::size_t{3}})
                for (int threads : {1, 3}) {
                    SearchOptions t = o;
                    t.threads = threads;
                    const auto got = lowestAdmitted(e, lifted, b, t, kNoStop, nullptr, round);
                    QVERIFY2(got == brute, qPrintable(QStringLiteral("request %1, %2, round %3")
                                                          .arg(i)
                                                          .arg(QString::fromLatin1(toString(b)))
                                                          .arg(round)));
                }
        }
    }
    QVERIFY(bound > 0 && bound < 24);
    QVERIFY(none > 0); // some budget cannot bind in some request
}

void TestNearestMiss::suggestionsAnswerOnToyEngines()
{
    std::mt19937_64 rng(2037);
    int empty = 0, suggestions = 0;
    while (empty < 20) {
        VariantEngine e(rng() % 2 ? kAmpere : kBlackwell, false);
        SearchOptions o;
        o.batches = {1, 4};
        o.maxBands = 1 + static_cast<int>(rng() % 3);
        Request q;
        q.stack = "toygpu/toy";
        q.isl = 256;
        q.osl = 64;
        q.concurrency = pick(rng, std::vector<int>{1, 2, 4});
        q.mode = rng() % 3 ? ServingMode::Static : ServingMode::Continuous;
        q.ttftBudgetMs = std::uniform_real_distribution<double>(5, 300)(rng);
        q.tpotBudgetMs = std::uniform_real_distribution<double>(0.5, 6)(rng);
        q.memBudgetGiB = std::uniform_real_distribution<double>(2, 10)(rng);
        const BudgetMargin m{rng() % 2 ? 0.0 : 15.0};
        if (answers(e, q, m, o))
            continue;
        const NearestMiss miss = nearestMiss(e, q, m, o, kNoStop);
        checkMiss(e, q, m, o, miss, QStringLiteral("toy request %1").arg(empty));
        for (const BudgetMiss& b : miss.budgets)
            suggestions += b.lowest.has_value();
        ++empty;
    }
    QVERIFY(suggestions >= 20);
}

void TestNearestMiss::suggestionsAnswerOnTheWorkspace()
{
    const std::string tables = ACSEL_SHARED_DIR "/aic";
    if (!QFileInfo::exists(QString::fromStdString(tables)))
        QSKIP("../shared/aic not present");
    const WorkspaceEngine e(loadWorkspace(ACSEL_DATASETS "/workspace.json", tables),
                            EngineSources{});
    const Workspace& ws = e.workspace();
    std::mt19937_64 rng(20);
    // 20 empty requests that one budget alone can fix, and those no single budget fixes.
    int fixable = 0, hopeless = 0, suggestions = 0, tried = 0;
    while (fixable < 20) {
        QVERIFY(++tried < 600);
        Request q;
        q.stack = ws.stacks[static_cast<std::size_t>(rng() % ws.stacks.size())].id;
        q.isl = pick(rng, std::vector<int>{256, 1024, 4096});
        q.osl = pick(rng, std::vector<int>{64, 256});
        q.concurrency = pick(rng, std::vector<int>{1, 4, 16});
        q.mode = rng() % 2 ? ServingMode::Continuous : ServingMode::Static;
        q.ttftBudgetMs = std::uniform_real_distribution<double>(50, 2000)(rng);
        q.tpotBudgetMs = std::uniform_real_distribution<double>(5, 60)(rng);
        q.memBudgetGiB = std::uniform_real_distribution<double>(8, 80)(rng);
        SearchOptions o;
        o.models = {static_cast<int>(rng() % ws.models.size())};
        const BudgetMargin m{rng() % 3 ? 0.0 : 10.0};
        if (answers(e, q, m, o))
            continue;
        const NearestMiss miss = nearestMiss(e, q, m, o, kNoStop);
        checkMiss(e, q, m, o, miss,
                  QStringLiteral("%1, %2").arg(QString::fromStdString(q.stack)).arg(tried));
        for (const BudgetMiss& b : miss.budgets)
            suggestions += b.lowest.has_value();
        (miss.anyBudgetAlone() ? fixable : hopeless) += 1;
    }
    qInfo("%d suggestions in %d empty requests one budget fixes; %d no single budget fixes "
          "(%d requests tried)",
          suggestions, fixable, hopeless, tried);
}

ACSEL_TEST_APPLESS_MAIN(TestNearestMiss)
#include "test_nearestmiss.moc"
