// The gate evaluation (core/eval/gateevaluation.h) on a fixture small enough to work out by
// hand, and the AIC estimates reader.
#include "core/data/loaderror.h"
#include "core/eval/aicestimates.h"
#include "core/eval/gateevaluation.h"
#include "testmain.h"

#include <cmath>
#include <sstream>

using namespace acsel;

namespace
{

// id, stack, workload, profile candidate, measured TTFT/TPOT, raw TTFT/TPOT, AIC TTFT/TPOT
// (empty: no AIC estimate). K = 2.
// Stack a: p1, p2 are the only candidates, so they are the profiles whatever the seed.
//   FMC TTFT through (100 -> 50), (1000 -> 500): x0.5; TPOT (10 -> 20), (100 -> 200): x2.
//   AIC+FMC TTFT (40 -> 50), (400 -> 500): x1.25; TPOT (25 -> 20), (250 -> 200): x0.8.
// Stack b: q1, q2 profiles: FMC TTFT x2, TPOT x1. No AIC estimates at all.
// Stack c: 2 rows (K + 1 needed); stack d: 1 candidate: both excluded.
const char* const kFixture = R"(id,stack,workload,candidate,mttft,mtpot,rttft,rtpot,attft,atpot
p1,a,w1,1,50,20,100,10,40,25
p2,a,,1,500,200,1000,100,400,250
h1,a,w1,0,100,20,184,10.7,85,24
h2,a,w1,0,400,50,560,25,,
q1,b,,1,20,5,10,5,,
q2,b,,1,200,50,100,50,,
g1,b,w1,0,300,30,200,29.1,,
c1,c,w1,1,10,10,10,10,,
c2,c,,1,10,10,10,10,,
d1,d,,1,10,10,10,10,,
d2,d,,0,10,10,10,10,,
d3,d,,0,10,10,10,10,,
)";

std::vector<GateRow> fixtureRows()
{
    std::istringstream in(kFixture);
    std::string line;
    std::getline(in, line); // header
    std::vector<GateRow> rows;
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::istringstream fields(line);
        for (std::string s; std::getline(fields, s, ',');)
            f.push_back(s);
        f.resize(10);
        GateRow r;
        r.id = f[0];
        r.stack = f[1];
        r.workload = f[2];
        r.profileCandidate = f[3] == "1";
        r.measured = {std::stod(f[4]), std::stod(f[5])};
        r.raw = {std::stod(f[6]), std::stod(f[7])};
        for (std::size_t m = 0; m < 2; ++m)
            if (!f[8 + m].empty())
                r.aic[m] = std::stod(f[8 + m]);
        rows.push_back(r);
    }
    return rows;
}

// false admits / over budget, false rejects / within budget
struct Expected {
    int fa, over, fr, within;
};

void check(const GateCounts& c, Expected e, int seeds, const char* what)
{
    const QByteArray msg = QByteArray(what) + ": " + QByteArray::number(c.falseAdmits()) + "/" +
                           QByteArray::number(c.overBudget()) + " " +
                           QByteArray::number(c.falseRejects()) + "/" +
                           QByteArray::number(c.withinBudget());
    QVERIFY2(c.falseAdmits() == e.fa * seeds && c.overBudget() == e.over * seeds &&
                 c.falseRejects() == e.fr * seeds && c.withinBudget() == e.within * seeds,
             msg.constData());
}

} // namespace

class TestGateEvaluation : public QObject
{
    Q_OBJECT
private slots:
    void handWorkedFixture_data();
    void handWorkedFixture();
    void calibrateChoosesTheFormAndItsConfidence();
    void addedVariantSeesTheStratifiedProfiles();
    void leaveOneSweepOutHoldsOutEachSweep();
    void oracleCentresOnTheJudgedRows();
    void badInputIsRefused();
    void aicEstimatesReader();
};

void TestGateEvaluation::handWorkedFixture_data()
{
    QTest::addColumn<int>("seeds");
    QTest::newRow("one seed") << 1;
    QTest::newRow("three seeds: the same profiles, counts x3") << 3;
}

void TestGateEvaluation::handWorkedFixture()
{
    QFETCH(int, seeds);
    const GateEvaluation g = evaluateGate(fixtureRows(), standardGateVariants(0.5, true), 2, seeds);
    QCOMPARE(g.variants, (std::vector<std::string>{"raw", "fmc", "aic", "aic+fmc", "calibrate"}));
    QCOMPARE(g.excludedStacks.size(), std::size_t{2});
    QCOMPARE(g.excludedStacks[0].first, std::string("c"));
    QCOMPARE(g.excludedStacks[0].second,
             std::string("2 row(s): needs at least 3 (K profiles + one held out)"));
    QCOMPARE(g.excludedStacks[1].first, std::string("d"));
    QCOMPARE(g.excludedStacks[1].second, std::string("1 profile candidate(s) of 3 rows: needs 2"));
    QCOMPARE(g.stacks.size(), std::size_t{2});
    const StackGateResult &a = g.stacks[0], &b = g.stacks[1];
    QCOMPARE(a.stack, std::string("a"));
    QCOMPARE(a.rows, 4);
    QCOMPARE(a.profileCandidates, 2);

    // A row is admitted at factor f when prediction / measured <= f. Ratio -> (false admits
    // among 0.8, 0.9, 0.95; false rejects among 1.05, 1.1, 1.25):
    // 0.5 (3,0) 0.535 (3,0) 0.667 (3,0) 0.7 (3,0) 0.85 (2,0) 0.92 (1,0) 0.96 (0,0) 0.97 (0,0)
    // 1.0 (0,0) 1.0625 (0,1) 1.07 (0,1) 1.2 (0,2) 1.333 (0,3) 1.4 (0,3) 1.84 (0,3);
    // no estimate: (0,3).
    // Stack a, held out h1, h2:
    //   raw TTFT 184/100 = 1.84, 560/400 = 1.4 -> FA 0, FR 6; TPOT 10.7/20 = 0.535,
    //   25/50 = 0.5 -> FA 6, FR 0.
    //   fmc TTFT 92/100 = 0.92, 280/400 = 0.7 -> FA 4, FR 0; TPOT 21.4/20 = 1.07, 50/50 = 1
    //   -> FA 0, FR 1.
    //   aic TTFT 85/100 = 0.85, none -> FA 2, FR 3; TPOT 24/20 = 1.2, none -> FA 0, FR 5.
    //   aic+fmc TTFT 106.25/100 = 1.0625, none -> FA 0, FR 4; TPOT 19.2/20 = 0.96, none ->
    //   FA 0, FR 3.
    check(a.variants[0][0], {0, 6, 6, 6}, seeds, "a raw TTFT");
    check(a.variants[0][1], {6, 6, 0, 6}, seeds, "a raw TPOT");
    check(a.variants[1][0], {4, 6, 0, 6}, seeds, "a fmc TTFT");
    check(a.variants[1][1], {0, 6, 1, 6}, seeds, "a fmc TPOT");
    check(a.variants[2][0], {2, 6, 3, 6}, seeds, "a aic TTFT");
    check(a.variants[2][1], {0, 6, 5, 6}, seeds, "a aic TPOT");
    check(a.variants[3][0], {0, 6, 4, 6}, seeds, "a aic+fmc TTFT");
    check(a.variants[3][1], {0, 6, 3, 6}, seeds, "a aic+fmc TPOT");
    QCOMPARE(a.variants[2][0].noEstimate, seeds);
    QCOMPARE(a.variants[0][0].noEstimate, 0);
    // fmc TTFT per factor: h1 (0.92) admitted from 0.95 up, h2 (0.7) everywhere.
    const std::array<int, 6> admitted{1, 1, 2, 2, 2, 2};
    for (std::size_t f = 0; f < 6; ++f)
        QCOMPARE(a.variants[1][0].admitted[f], admitted[f] * seeds);
    // Stack b, held out g1: raw TTFT 200/300 = 0.667 -> FA 3; TPOT 29.1/30 = 0.97 -> none.
    //   fmc TTFT 400/300 = 1.333 -> FR 3; TPOT x1 = 0.97 -> none. aic, aic+fmc: no estimate.
    check(b.variants[0][0], {3, 3, 0, 3}, seeds, "b raw TTFT");
    check(b.variants[0][1], {0, 3, 0, 3}, seeds, "b raw TPOT");
    check(b.variants[1][0], {0, 3, 3, 3}, seeds, "b fmc TTFT");
    check(b.variants[1][1], {0, 3, 0, 3}, seeds, "b fmc TPOT");
    for (std::size_t v : {2u, 3u})
        for (std::size_t m : {0u, 1u})
            check(b.variants[v][m], {0, 3, 3, 3}, seeds, "b aic");
    // Pooled = a + b.
    check(g.pooled[0][0], {3, 9, 6, 9}, seeds, "pooled raw TTFT");
    check(g.pooled[0][1], {6, 9, 0, 9}, seeds, "pooled raw TPOT");
    check(g.pooled[1][0], {4, 9, 3, 9}, seeds, "pooled fmc TTFT");
    check(g.pooled[1][1], {0, 9, 1, 9}, seeds, "pooled fmc TPOT");
    check(g.pooled[2][0], {2, 9, 6, 9}, seeds, "pooled aic TTFT");
    check(g.pooled[2][1], {0, 9, 8, 9}, seeds, "pooled aic TPOT");
    check(g.pooled[3][0], {0, 9, 7, 9}, seeds, "pooled aic+fmc TTFT");
    check(g.pooled[3][1], {0, 9, 6, 9}, seeds, "pooled aic+fmc TPOT");
    // calibrate, the form `acsel calibrate` chooses: on two profiles the line is no candidate
    // (it needs 6 independent profiles), and each profile left out leaves one, from which the
    // cautious offset supports no shift (P(Binomial(1, 1/2) >= 1) = 0.5 < 0.8): its
    // leave-one-out residuals are identity's, no gain, so both stacks keep the raw estimate.
    for (std::size_t m = 0; m < 2; ++m) {
        QCOMPARE(a.variants[4][m].admitted, a.variants[0][m].admitted);
        QCOMPARE(b.variants[4][m].admitted, b.variants[0][m].admitted);
    }
    QCOMPARE(g.pooled[1][0].falseAdmitRate(), 4.0 / 9.0);

    // Decisions. Workload w1: p1, h1, h2, g1, c1 (10 pairs); only pairs of held-out rows
    // count: (h1, h2) in stack a, (h1, g1) and (h2, g1) across stacks.
    //   TTFT measured h1 100 < g1 300 < h2 400. raw 184, 560 | 200: all three right.
    //   fmc 92, 280 | 400: (h2, g1) wrong (280 < 400 but measured 400 > 300).
    //   TPOT measured h1 20 < g1 30 < h2 50. raw 10.7, 25 | 29.1: (h2, g1) wrong.
    //   fmc 21.4, 50 | 29.1: all right. AIC: h2 and g1 have none -> undecided.
    QCOMPARE(g.workloadPairs, 10);
    const auto decision = [&](const std::vector<DecisionPerMetric>& set, std::size_t v,
                              std::size_t m, int pairs, int correct, int undecided) {
        const DecisionCounts& d = set[v][m];
        QCOMPARE(d.pairs, pairs * seeds);
        QCOMPARE(d.correct, correct * seeds);
        QCOMPARE(d.undecided, undecided * seeds);
    };
    decision(g.sameStack, 0, 0, 1, 1, 0);
    decision(g.sameStack, 1, 0, 1, 1, 0);
    decision(g.sameStack, 2, 0, 1, 0, 1);
    decision(g.acrossStacks, 0, 0, 2, 2, 0);
    decision(g.acrossStacks, 1, 0, 2, 1, 0);
    decision(g.acrossStacks, 3, 0, 2, 0, 2);
    decision(g.sameStack, 0, 1, 1, 1, 0);
    decision(g.acrossStacks, 0, 1, 2, 1, 0);
    decision(g.acrossStacks, 1, 1, 2, 2, 0);
    decision(g.acrossStacks, 2, 1, 2, 0, 2);
}

void TestGateEvaluation::calibrateChoosesTheFormAndItsConfidence()
{
    // Four profiles (raw 100, 200, 400, 800) measured at raw x e^(+0.1, -0.1, +0.1, -0.1), one
    // held-out row measured exactly at its raw 300. Identity's leave-one-out residuals are
    // +-0.1 (pinball 0.05 each); the cautious offset on the three others (ratios both sides of
    // 0) is 0: identity's residuals, no gain, so identity stays, and calibrate predicts 300
    // (ratio 1: no false admit, no false reject). Its spread: scale sqrt(mean r^2) = 0.1, dof 3, so
    // the 0.9-quantile line is raw x exp(t_3(0.9) 0.1 sqrt(1 + 1/4)) = exp(1.637744 x 0.111803) =
    // x1.20095: ratio 1.2009 is rejected at 1.05 and 1.1, admitted at 1.25.
    std::vector<GateRow> rows;
    const double raw[] = {100, 200, 400, 800};
    const double r[] = {0.1, -0.1, 0.1, -0.1};
    for (int i = 0; i < 4; ++i) {
        GateRow g;
        g.id = "p" + std::to_string(i);
        g.stack = "s";
        g.raw = {raw[i], raw[i]};
        g.measured = {raw[i] * std::exp(r[i]), raw[i] * std::exp(r[i])};
        rows.push_back(g);
    }
    GateRow held;
    held.id = "h";
    held.stack = "s";
    held.profileCandidate = false;
    held.raw = held.measured = {300, 300};
    rows.push_back(held);
    const GateEvaluation g = evaluateGate(rows, standardGateVariants(0.5, false, 0.9), 4, 2);
    QCOMPARE(g.variants, (std::vector<std::string>{"raw", "fmc", "calibrate", "calibrate@0.9"}));
    for (std::size_t m = 0; m < 2; ++m) {
        check(g.pooled[2][m], {0, 3, 0, 3}, 2, "calibrate");
        check(g.pooled[3][m], {0, 3, 2, 3}, 2, "calibrate@0.9");
        QCOMPARE(g.pooled[3][m].noEstimate, 0);
    }
    // Two profiles leave the spread unknown: no interval, so the confidence gate cannot admit.
    const GateEvaluation few =
        evaluateGate(fixtureRows(), standardGateVariants(0.5, false, 0.9), 2, 1);
    QCOMPARE(few.variants.back(), std::string("calibrate@0.9"));
    const GateCounts& c = few.pooled.back()[0];
    QCOMPARE(c.noEstimate, c.cases);
    QCOMPARE(c.falseRejects(), c.withinBudget());
    QCOMPARE(c.falseAdmits(), 0);
}

void TestGateEvaluation::addedVariantSeesTheStratifiedProfiles()
{
    // Five candidates, K = 2: the profiles are selectStratified's on the raw TTFT estimates
    // for each seed 0 .. S-1, the other three rows are held out. A variant added to the list
    // (the hook for further gates) is fitted on exactly those rows and judged on the others.
    std::vector<GateRow> rows;
    const double rawTtft[] = {300, 100, 500, 200, 400};
    for (int i = 0; i < 5; ++i) {
        GateRow r;
        r.id = "r" + std::to_string(i);
        r.stack = "s";
        r.measured = {rawTtft[i], 1};
        r.raw = {rawTtft[i], 1};
        rows.push_back(r);
    }
    std::vector<std::vector<std::string>> seen;
    std::vector<std::string> judged;
    GateVariant spy{"spy", [&](const std::vector<const GateRow*>& profiles, LatencyMetric m) {
                        std::vector<std::string> ids;
                        for (const GateRow* p : profiles)
                            ids.push_back(p->id);
                        if (m == LatencyMetric::Ttft)
                            seen.push_back(ids);
                        return GatePredictor([&judged, m](const GateRow& r) {
                            if (m == LatencyMetric::Ttft)
                                judged.push_back(r.id);
                            return std::optional<double>(2 * r.measured[0]);
                        });
                    }};
    const GateEvaluation g = evaluateGate(rows, {spy}, 2, 3);
    QCOMPARE(seen.size(), std::size_t{3});
    QCOMPARE(judged.size(), std::size_t{9});
    for (int seed = 0; seed < 3; ++seed) {
        std::vector<std::string> expected;
        for (int i : selectStratified(rawTtft, 2, static_cast<std::uint64_t>(seed)))
            expected.push_back("r" + std::to_string(i));
        QCOMPARE(seen[static_cast<std::size_t>(seed)], expected);
        for (int k = 0; k < 3; ++k) {
            const std::string& id = judged[static_cast<std::size_t>(3 * seed + k)];
            QVERIFY(std::find(expected.begin(), expected.end(), id) == expected.end());
        }
    }
    // Twice the measured TTFT: rejected at every factor, 3 held out x 3 seeds x 3 factors.
    QCOMPARE(g.pooled[0][0].falseRejects(), 27);
    QCOMPARE(g.pooled[0][0].falseAdmits(), 0);
}

void TestGateEvaluation::leaveOneSweepOutHoldsOutEachSweep()
{
    // Stack s: sweeps a (2 rows), b (1 row), c (2 rows, one not a profile candidate); stack t:
    // one sweep, excluded. Each sweep of s is judged in turn, the profiles the candidates of
    // the other two sweeps; an interval variant holding [0.5, 2] x measured TTFT for sweep a
    // only covers 2 of 5 cases, each of width factor 2.
    std::vector<GateRow> rows;
    const char* sweeps[] = {"a", "a", "b", "c", "c", "z"};
    for (int i = 0; i < 6; ++i) {
        GateRow r;
        r.id = "r" + std::to_string(i);
        r.stack = i < 5 ? "s" : "t";
        r.sweep = sweeps[i];
        r.profileCandidate = i != 4;
        r.measured = {100.0 * (i + 1), 1};
        r.raw = r.measured;
        rows.push_back(r);
    }
    std::vector<std::pair<std::string, std::vector<std::string>>> seen; // judged sweep, profiles
    GateVariant spy{
        "spy",
        [&](const std::vector<const GateRow*>& profiles, LatencyMetric m) {
            std::vector<std::string> ids;
            for (const GateRow* p : profiles)
                ids.push_back(p->id);
            if (m == LatencyMetric::Ttft)
                seen.emplace_back("", ids);
            return GatePredictor([&seen, m](const GateRow& r) {
                if (m == LatencyMetric::Ttft)
                    seen.back().first = r.sweep;
                return std::optional<double>(r.measured[0]);
            });
        },
        [](const std::vector<const GateRow*>&, LatencyMetric) {
            return IntervalPredictor([](const GateRow& r) -> std::optional<LatencyInterval> {
                if (r.sweep != "a")
                    return LatencyInterval{0.25 * r.measured[0], 0.5 * r.measured[0]};
                return LatencyInterval{0.5 * r.measured[0], 2 * r.measured[0]};
            });
        }};
    const GateEvaluation g = evaluateGate(rows, {spy}, 1, 1, GateSplit::LeaveOneSweepOut);
    QCOMPARE(seen.size(), std::size_t{3});
    QCOMPARE(seen[0].first, std::string("a"));
    QCOMPARE(seen[0].second, (std::vector<std::string>{"r2", "r3"}));
    QCOMPARE(seen[1].first, std::string("b"));
    QCOMPARE(seen[1].second, (std::vector<std::string>{"r0", "r1", "r3"}));
    QCOMPARE(seen[2].first, std::string("c"));
    QCOMPARE(seen[2].second, (std::vector<std::string>{"r0", "r1", "r2"}));
    QCOMPARE(g.stacks.size(), std::size_t{1});
    QCOMPARE(g.excludedStacks.size(), std::size_t{1});
    QCOMPARE(g.excludedStacks[0].first, std::string("t"));
    const GateCounts& ttft = g.pooled[0][0];
    QCOMPARE(ttft.cases, 5);
    QCOMPARE(ttft.intervals, 5);
    QCOMPARE(ttft.covered, 2);
    // half-width factors: sqrt(4) = 2 for a, sqrt(2) for the others
    QVERIFY(std::abs(ttft.widthSum - (2 * 2 + 3 * std::sqrt(2.0))) < 1e-12);
}

void TestGateEvaluation::oracleCentresOnTheJudgedRows()
{
    const std::vector<GateRow> rows = fixtureRows();
    // TTFT measured / raw. Stack a: p1 0.5, p2 0.5, h1 100/184, h2 400/560 = 0.714; stack b:
    // q1 2, q2 2, g1 1.5. The median (the ceil(0.5 n)-th smallest): a 0.5, b 2. Predicted /
    // measured: a p1, p2 1.0, h1 0.92 (admitted at 0.95: 1 false admit), h2 0.7 (at 0.8, 0.9,
    // 0.95: 3); b q1, q2 1.0, g1 1.333 (rejected at 1.05, 1.1, 1.25: 3 false rejects). Rows
    // 7 (a, b; c and d not asked for): 21 over-budget and 21 within-budget cases.
    const PerMetric median = oracleGate(rows, {"a", "b"}, 0.5);
    check(median[0], {4, 21, 3, 21}, 1, "oracle median TTFT");
    // The 0.9-quantile (the 4th of 4, the 3rd of 3): a 0.714, b 2. a: p1, p2 1.43, h1 1.31
    // (each rejected at every factor above 1: 9), h2 1.0; b as the median (3).
    const PerMetric q90 = oracleGate(rows, {"a", "b"}, 0.9);
    check(q90[0], {0, 21, 12, 21}, 1, "oracle 0.9 TTFT");
    // TPOT of stack b alone: ratios 1, 1, 30/29.1 = 1.031; median 1: g1 predicted 29.1 / 30 =
    // 0.97 (no false admit at 0.95, none rejected above 1).
    check(oracleGate(rows, {"b"}, 0.5)[1], {0, 9, 0, 9}, 1, "oracle median TPOT b");
    QCOMPARE(oracleGate(rows, {"none"}, 0.5)[0].cases, 0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, oracleGate(rows, {"a"}, 1.0));
}

void TestGateEvaluation::badInputIsRefused()
{
    std::vector<GateRow> rows = fixtureRows();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             evaluateGate(rows, standardGateVariants(0.5, false), 0, 1));
    rows[3].raw[1] = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             evaluateGate(rows, standardGateVariants(0.5, false), 2, 1));
}

void TestGateEvaluation::aicEstimatesReader()
{
    const std::string header = "id,system,backend,aic_agg_status,aic_agg_ttft_ms,aic_agg_tpot_ms\n";
    const auto e = parseAicEstimatesCsv(header + "r1,h100_sxm,trtllm,ok,281.5,35.25\n"
                                                 "r2,h100_sxm,vllm,refused,,\n",
                                        "aic.csv");
    QCOMPARE(e.size(), std::size_t{2});
    QCOMPARE(*e[0].ttftMs, 281.5);
    QCOMPARE(*e[0].tpotMs, 35.25);
    QCOMPARE(e[1].backend, std::string("vllm"));
    QVERIFY(!e[1].ttftMs && !e[1].tpotMs);
    const auto message = [&](const std::string& body) {
        try {
            parseAicEstimatesCsv(header + body, "aic.csv");
        } catch (const LoadError& err) {
            return std::string(err.what());
        }
        return std::string("accepted");
    };
    const std::string status = message("r1,h,t,maybe,1,1\n");
    QVERIFY2(status.find("line 2") != std::string::npos &&
                 status.find("expected ok or refused, found 'maybe'") != std::string::npos,
             status.c_str());
    const std::string twice = message("r1,h,t,ok,1,1\nr1,h,t,ok,2,2\n");
    QVERIFY2(twice.find("line 3") != std::string::npos &&
                 twice.find("'r1' appears twice") != std::string::npos,
             twice.c_str());
    QVERIFY(message("r1,h,t,ok,0,1\n") != "accepted");
    QVERIFY(message("r1,h,t,ok,,1\n") != "accepted");
    QVERIFY(message("") != "accepted");
}

ACSEL_TEST_APPLESS_MAIN(TestGateEvaluation)
#include "test_gateevaluation.moc"
