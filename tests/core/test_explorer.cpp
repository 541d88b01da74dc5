// The explorer's kept points, feasibility and frontier against direct recomputation; the
// budget reach against its definition (what loosening one budget admits) and a hand example.
#include "core/search/budgetreach.h"
#include "core/search/explorer.h"
#include "core/search/paretofront.h"
#include "toyengine.h"

#include <QTest>
#include <cmath>
#include <span>

using namespace acsel;
using acsel::test::ToyEngine;

class TestExplorer : public QObject
{
    Q_OBJECT
private slots:
    void keepsUniformsAndFrontiers();
    void budgetsRederiveFeasibility();
    void stopAbandonsBuild();
    void budgetReachIsWhatLooseningOneBudgetAdmits();
    void budgetReachByHand();
};

namespace
{

Request request()
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

const std::atomic<bool> kNoStop{false};

} // namespace

void TestExplorer::keepsUniformsAndFrontiers()
{
    const ToyEngine e({Format::Nvfp4, Format::Fp8, Format::Bf16});
    SearchOptions o;
    o.batches = {1, 4};
    Explorer x;
    QVERIFY(x.build(e, request(), o, 500, kNoStop));
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
    QVERIFY(x.build(e, request(), o, 2000, kNoStop));
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
    QVERIFY(!x.build(e, request(), {}, 100, stop));
    QVERIFY(x.points().empty());
}

void TestExplorer::budgetReachIsWhatLooseningOneBudgetAdmits()
{
    const ToyEngine e({Format::Int4Wo, Format::Int8Wo, Format::Int8, Format::Bf16});
    SearchOptions o;
    o.batches = {1};
    Explorer x;
    QVERIFY(x.build(e, request(), o, 2000, kNoStop));
    const std::span<const ExplorerPoint> points(x.points());
    const auto admitted = [&](double t, double d, double m) {
        std::size_t n = 0;
        for (const ExplorerPoint& p : points)
            n += withinBudgets(static_cast<double>(p.ttftMs), static_cast<double>(p.tpotMs),
                               static_cast<double>(p.memoryGiB), t, d, m);
        return n;
    };
    int bindingSeen = 0;
    for (const double t : {2.0, 5.0, 9.0, 14.0})
        for (const double d : {0.3, 0.8, 1.2})
            for (const double m : {0.5, 1.5, 2.2}) {
                const BudgetReach r = budgetReach(points, t, d, m);
                QCOMPARE(r.anyFeasible, admitted(t, d, m) > 0);
                // Loosening one budget to its reach admits a point; just below it, none (when
                // nothing met all three); no reach: loosening that budget alone never helps.
                const auto check = [&](const std::optional<double>& reach, auto relaxed) {
                    if (!reach) {
                        QCOMPARE(relaxed(1e30), std::size_t{0});
                        return;
                    }
                    QVERIFY(relaxed(*reach) > 0);
                    if (!r.anyFeasible) {
                        QCOMPARE(relaxed(std::nextafter(*reach, 0.0)), std::size_t{0});
                        ++bindingSeen;
                    }
                };
                check(r.ttftMs, [&](double v) { return admitted(v, d, m); });
                check(r.tpotMs, [&](double v) { return admitted(t, v, m); });
                check(r.memoryGiB, [&](double v) { return admitted(t, d, v); });
            }
    QVERIFY(bindingSeen > 0); // the grid has infeasible requests with a binding budget
}

void TestExplorer::budgetReachByHand()
{
    struct P {
        double ttftMs, tpotMs, memoryGiB;
    };
    const double nan = std::nan("");
    const std::vector<P> points{{100, 10, 20}, {80, 12, 30}, {120, 8, 10}, {nan, nan, 5}};
    // Budgets TTFT 90, TPOT 9, memory 25: no point meets all three. Within TPOT and memory
    // only {120, 8, 10}: TTFT binds at 120. Within TTFT and memory: {80, 12, 30} is over the
    // memory budget, the others over TTFT (NaN meets nothing): no TPOT reach; likewise none
    // within TTFT and TPOT.
    const BudgetReach r = budgetReach(std::span<const P>(points), 90, 9, 25);
    QVERIFY(!r.anyFeasible);
    QCOMPARE(r.ttftMs.value_or(-1), 120.0);
    QVERIFY(!r.tpotMs && !r.memoryGiB);
    // TTFT 100, TPOT 12, memory 25: {100, 10, 20} meets all three. TTFT reach: {100, 10, 20}
    // and {120, 8, 10} are within TPOT and memory: 100. TPOT reach: only {100, 10, 20}: 10.
    // Memory reach: {100, 10, 20} and {80, 12, 30}: 20.
    const BudgetReach f = budgetReach(std::span<const P>(points), 100, 12, 25);
    QVERIFY(f.anyFeasible);
    QCOMPARE(f.ttftMs.value_or(-1), 100.0);
    QCOMPARE(f.tpotMs.value_or(-1), 10.0);
    QCOMPARE(f.memoryGiB.value_or(-1), 20.0);
}

QTEST_APPLESS_MAIN(TestExplorer)
#include "test_explorer.moc"
