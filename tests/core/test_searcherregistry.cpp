// A searcher added from outside the core: one class and one registerSearcher() call, and every
// reader of the registry (the CLI's --algo list, session files, the factory, eval's traits)
// knows it. The toy searcher keeps the best admitted uniform configuration.
#include "core/search/exactsearch.h"
#include "core/search/searchalgorithm.h"
#include "core/search/searcher.h"
#include "core/session/sessionfile.h"
#include "nostop.h"
#include "testmain.h"
#include "toyengine.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

using namespace acsel;
using acsel::test::ToyEngine;

namespace
{

class BestUniform final : public Searcher
{
public:
    std::string name() const override { return "uniform"; }
    SearchResult run(const Engine& e, const Request& q, const SearchOptions& o,
                     const ProgressFn& progress, const std::atomic<bool>& stop) const override
    {
        SearchOptions one = o;
        one.maxBands = 1;
        SearchResult r = ExactSearch().run(e, q, one, progress, stop);
        r.algorithm = name();
        return r;
    }
};

} // namespace

class TestSearcherRegistry : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const std::size_t builtIn = searchers().size();
        const std::size_t at =
            registerSearcher({.name = "uniform",
                              .savedName = "best_uniform",
                              .label = "Best uniform",
                              .summary = "The best admitted uniform recipe",
                              .make = [] { return std::make_unique<BestUniform>(); }});
        QCOMPARE(at, builtIn);
    }

    void everyReaderKnowsTheNewSearcher()
    {
        const std::optional<SearchAlgorithm> a = SearchAlgorithm::parse("uniform");
        QVERIFY(a);
        QVERIFY(SearchAlgorithm::parse("best_uniform") == a);
        QCOMPARE(a->info().label, std::string("Best uniform"));
        QCOMPARE(makeSearcher("uniform")->name(), std::string("uniform"));
        // The --algo help and error list.
        QCOMPARE(searchAlgorithmChoices(), std::string("bp, exact, hc, rand or uniform"));
        // A session file saves and reads it by its saved name.
        SessionDocument s;
        s.workspaceFile = "/data/workspace.json";
        s.request.stack = "toygpu/toy";
        s.searchAlgorithm = *a;
        const std::string file = "/data/a.acsel-session";
        const Json j = Json::parse(writeSessionJson(s, file, SessionPaths::Absolute));
        QCOMPARE(j["search_algorithm"].get<std::string>(), std::string("best_uniform"));
        QVERIFY(parseSessionJson(j, file).searchAlgorithm == a);
        // Eval's traits default to off: not a paper baseline, not exact, not sampling.
        QVERIFY(!a->info().paperBaseline && !a->info().exact && !a->info().sampling);
    }

    void itSearches()
    {
        // The toy engine's space with loose budgets: the answer is uniform and admitted.
        const ToyEngine e({Format::Fp8, Format::Bf16});
        Request q;
        q.stack = "toygpu/toy";
        q.isl = 512;
        q.osl = 128;
        q.ttftBudgetMs = q.tpotBudgetMs = q.memBudgetGiB = 1e9;
        SearchOptions o;
        o.batches = {1};
        const SearchResult r = SearchAlgorithm("uniform").make()->run(e, q, o, {}, kNoStop);
        QVERIFY(r.config);
        QVERIFY(r.config->recipe.isUniform());
        QCOMPARE(r.algorithm, std::string("uniform"));
    }

    void namesAreUnique()
    {
        const auto again = [](std::string name, std::string saved) {
            registerSearcher({.name = std::move(name), .savedName = std::move(saved), .make = [] {
                                  return std::make_unique<BestUniform>();
                              }});
        };
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, again("uniform", "other"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, again("other", "band_pareto"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, again("exact", "x"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 registerSearcher({.name = "nofactory", .savedName = "nf"}));
        QVERIFY(!SearchAlgorithm::parse("other") && !SearchAlgorithm::parse("nofactory"));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SearchAlgorithm("other"));
    }
};

ACSEL_TEST_APPLESS_MAIN(TestSearcherRegistry)
#include "test_searcherregistry.moc"
