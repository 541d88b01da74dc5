// The explorer's kept points, feasibility and frontier against direct recomputation.
#include "core/search/explorer.h"
#include "core/search/paretofront.h"
#include "nostop.h"
#include "testmain.h"
#include "toyengine.h"

using namespace acsel;
using acsel::test::ToyEngine;

class TestExplorer : public QObject
{
    Q_OBJECT
private slots:
    void keepsUniformsAndFrontiers();
    void budgetsRederiveFeasibility();
    void stopAbandonsBuild();
};

namespace
{

Request explorerRequest()
{
    Request q;
    q.stack = "toygpu/toy";
    q.isl = 512;
    q.osl = 128;
    q.ttftBudgetMs = 14;
    q.tpotBudgetMs = 1.4;
    q.memBudgetGiB = 2.5;
    return q;
}

} // namespace

void TestExplorer::keepsUniformsAndFrontiers()
{
    const ToyEngine e({Format::Nvfp4, Format::Fp8, Format::Bf16});
    SearchOptions o;
    o.batches = {1, 4};
    Explorer x;
    QVERIFY(x.build(e, explorerRequest(), o, 500, kNoStop));
    const FracMixTable& t = *x.table();
    std::int64_t total = 0, uniforms = 0;
    for (int c = 0; c < static_cast<int>(t.contexts().size()); ++c) {
        total += t.space(c).recipeCount();
        uniforms += static_cast<std::int64_t>(t.space(c).bandChoices().size());
    }
    QCOMPARE(x.stats().scored, total);
    std::int64_t keptUniform = 0;
    for (const ExplorerPoint& p : x.points())
        keptUniform += p.uniform;
    QCOMPARE(keptUniform, uniforms);
    QCOMPARE(static_cast<std::int64_t>(x.points().size()), uniforms + 500);
    // Kept scores equal the table's for the same configuration.
    for (std::size_t i = 0; i < x.points().size(); i += 37) {
        const ExplorerPoint& p = x.points()[i];
        const SoftScore s = t.soft(p.context, p.recipe);
        QCOMPARE(p.ttftMs, static_cast<float>(t.calibrated(s).ttft));
        QCOMPARE(p.rmqd, static_cast<float>(t.bestQuality(p.context, p.recipe).second));
    }
}

void TestExplorer::budgetsRederiveFeasibility()
{
    const ToyEngine e({Format::Int4Wo, Format::Int8Wo, Format::Int8, Format::Bf16});
    SearchOptions o;
    o.batches = {1};
    Explorer x;
    QVERIFY(x.build(e, explorerRequest(), o, 2000, kNoStop));
    for (double ttft : {5.0, 9.0, 14.0, 40.0}) {
        x.applyBudgets(ttft, 1.2, 2.2);
        std::size_t expected = 0;
        for (const ExplorerPoint& p : x.points())
            expected += static_cast<double>(p.ttftMs) <= ttft &&
                        static_cast<double>(p.tpotMs) <= 1.2 &&
                        static_cast<double>(p.memoryGiB) <= 2.2;
        QCOMPARE(x.feasibleCount(), expected);
        // The frontier: feasible, mutually non-dominated, and dominating every other feasible
        // point.
        const auto front = x.frontier(LatencyAxis::Ttft);
        for (std::size_t f : front)
            QVERIFY(x.feasible(f));
        for (std::size_t i = 0; i < x.points().size(); ++i) {
            if (!x.feasible(i))
                continue;
            bool covered = false;
            for (std::size_t f : front)
                covered = covered || (x.points()[f].ttftMs <= x.points()[i].ttftMs &&
                                      x.points()[f].rmqd <= x.points()[i].rmqd);
            QVERIFY(covered);
        }
    }
}

void TestExplorer::stopAbandonsBuild()
{
    const ToyEngine e({Format::Int4Wo, Format::Int8Wo, Format::Int8, Format::Bf16}, {60});
    std::atomic<bool> stop{true};
    Explorer x;
    QVERIFY(!x.build(e, explorerRequest(), {}, 100, stop));
    QVERIFY(x.points().empty());
}

ACSEL_TEST_APPLESS_MAIN(TestExplorer)
#include "test_explorer.moc"
