// acsel eval gate: the gate's admit/reject judged on real measured rows (core/eval/
// gateevaluation.h): per stack K profiles, the rest held out, budgets at the measured latency
// x 0.8 .. 1.25; false-admit and false-reject rates of raw, FMC (the paper's line, the form
// calibrate chooses, its confidence quantile) and (with --aic) AIC's own estimates, per stack and
// pooled, and the decision accuracy between two measured configurations of one workload.
#include "app/cli/command.h"
#include "app/cli/siliconnotes.h"
#include "app/cli/workspaceargs.h"
#include "core/data/jsonfields.h"
#include "core/eval/silicongaterows.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace acsel::cli
{
namespace
{

const LatencyMetric kMetrics[] = {LatencyMetric::Ttft, LatencyMetric::Tpot};

std::string rate(int n, int d)
{
    std::ostringstream s;
    if (d == 0)
        s << "- (0/0)";
    else
        s << std::fixed << std::setprecision(1) << 100.0 * n / d << "% (" << n << "/" << d << ")";
    return s.str();
}

Json countsJson(const GateCounts& c)
{
    Json admitted = Json::object();
    for (std::size_t f = 0; f < kBudgetFactors.size(); ++f) {
        std::ostringstream key;
        key << kBudgetFactors[f];
        admitted[key.str()] = c.admitted[f];
    }
    const auto orNull = [](double v) { return std::isnan(v) ? Json() : Json(v); };
    return {{"cases", c.cases},
            {"no_estimate", c.noEstimate},
            {"admitted_at_factor", admitted},
            {"false_admits", c.falseAdmits()},
            {"over_budget", c.overBudget()},
            {"false_admit_rate", orNull(c.falseAdmitRate())},
            {"false_rejects", c.falseRejects()},
            {"within_budget", c.withinBudget()},
            {"false_reject_rate", orNull(c.falseRejectRate())},
            {"intervals", c.intervals},
            {"interval_coverage", c.intervals > 0 ? Json(double(c.covered) / c.intervals) : Json()},
            {"interval_mean_factor", c.intervals > 0 ? Json(c.widthSum / c.intervals) : Json()}};
}

Json variantsJson(const std::vector<std::string>& names, const std::vector<PerMetric>& v)
{
    Json j = Json::object();
    for (std::size_t i = 0; i < names.size(); ++i)
        j[names[i]] = {{"ttft", countsJson(v[i][0])}, {"tpot", countsJson(v[i][1])}};
    return j;
}

Json decisionJson(const std::vector<std::string>& names, const std::vector<DecisionPerMetric>& v)
{
    Json j = Json::object();
    for (std::size_t i = 0; i < names.size(); ++i)
        for (LatencyMetric m : kMetrics) {
            const DecisionCounts& d = v[i][static_cast<std::size_t>(m)];
            j[names[i]][m == LatencyMetric::Ttft ? "ttft" : "tpot"] = {
                {"pairs", d.pairs}, {"correct", d.correct}, {"undecided", d.undecided}};
        }
    return j;
}

void printGateRows(const std::string& stack, int heldOut, const GateEvaluation& g,
                   const std::vector<PerMetric>& v, std::ostream& out)
{
    for (std::size_t i = 0; i < g.variants.size(); ++i) {
        const GateCounts &t = v[i][0], &p = v[i][1];
        out << "| " << stack << " | " << heldOut << " | " << g.variants[i] << " | "
            << rate(t.falseAdmits(), t.overBudget()) << " | "
            << rate(t.falseRejects(), t.withinBudget()) << " | "
            << rate(p.falseAdmits(), p.overBudget()) << " | "
            << rate(p.falseRejects(), p.withinBudget()) << " | " << t.noEstimate << " |\n";
    }
}

// "90.9% (100/110), x/2.12": coverage and mean half-width factor of a variant's 90 % intervals.
std::string intervalCell(const GateCounts& c)
{
    if (c.intervals == 0)
        return "-";
    std::ostringstream s;
    s << rate(c.covered, c.intervals) << ", x/" << std::fixed << std::setprecision(2)
      << c.widthSum / c.intervals;
    return s.str();
}

void printIntervalRows(const std::string& stack, const GateEvaluation& g,
                       const std::vector<PerMetric>& v, std::ostream& out)
{
    for (std::size_t i = 0; i < g.variants.size(); ++i)
        if (v[i][0].intervals + v[i][1].intervals > 0)
            out << "| " << stack << " | " << g.variants[i] << " | " << intervalCell(v[i][0])
                << " | " << intervalCell(v[i][1]) << " |\n";
}

// The two errors weighed against each other, pooled: what the median gate lets through (its
// false admissions) beside what the confidence gate turns away (its false rejections).
void printTradeOff(const GateEvaluation& g, const std::string& confidenceGate, std::ostream& out)
{
    const auto pooled = [&](const std::string& name) -> const PerMetric& {
        const auto it = std::find(g.variants.begin(), g.variants.end(), name);
        return g.pooled[static_cast<std::size_t>(it - g.variants.begin())];
    };
    const PerMetric &median = pooled("calibrate"), &sure = pooled(confidenceGate);
    out << "\nPooled, TTFT: the median gate (calibrate) false-admits "
        << rate(median[0].falseAdmits(), median[0].overBudget()) << ", " << confidenceGate
        << " false-rejects " << rate(sure[0].falseRejects(), sure[0].withinBudget())
        << "; TPOT: " << rate(median[1].falseAdmits(), median[1].overBudget()) << ", "
        << rate(sure[1].falseRejects(), sure[1].withinBudget()) << "\n";
}

// The bound of both gates (oracleGate): the estimate centred on the judged rows' own median and
// confidence-quantile of measured / raw, per stack.
void printOracle(const PerMetric& median, const PerMetric& sure, double confidence,
                 std::ostream& out)
{
    out << "Bound, an oracle centred on each stack's judged rows (median, " << confidence
        << "-quantile of measured / raw): TTFT false-admit "
        << rate(median[0].falseAdmits(), median[0].overBudget()) << ", false-reject "
        << rate(sure[0].falseRejects(), sure[0].withinBudget()) << "; TPOT "
        << rate(median[1].falseAdmits(), median[1].overBudget()) << ", "
        << rate(sure[1].falseRejects(), sure[1].withinBudget()) << "\n";
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = workspaceOptions();
    specs.push_back({"measurements", "FILE", "end-to-end measurements (AIC silicon CSV format)"});
    specs.push_back({"split", "SPLIT",
                     "held-out rows: stratified (K profiles per seed, the rest held out; default) "
                     "or sweeps (each concurrency sweep held out in turn, the stack's other rows "
                     "the profiles)"});
    specs.push_back({"profiles", "K", "profile rows per stack for FMC (default 5)"});
    specs.push_back({"seeds", "N", "profile draws 0 .. N-1, counts summed (default 30)"});
    specs.push_back({"tau", "Q", "FMC quantile (default 0.5)"});
    specs.push_back({"confidence", "P",
                     "also gate at the P-quantile of the calibrated prediction, as search "
                     "--confidence P does (default 0.9; 0.5 leaves the gate out)"});
    specs.push_back(
        {"mode", "MODE", "serving model of the raw estimates: continuous (default) or static"});
    specs.push_back({"aic", "FILE",
                     "AIConfigurator's estimates of the same rows (aic_estimates CSV): adds the "
                     "aic and aic+fmc gates"});
    specs.push_back({"json", "", "print JSON instead of markdown tables"});
    const app::Args args("eval gate", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string measurements = args.require("measurements");
    const int k = args.integer("profiles", 5, 1, 1000);
    const int seeds = args.integer("seeds", 30, 1, 1000);
    const double tau = args.number("tau", 0.5, 0.01, 0.99);
    const double confidence = args.number("confidence", 0.9, 0.01, 0.99);
    const std::string modeName = args.valueOr("mode", "continuous");
    const auto mode = parseServingMode(modeName);
    if (!mode)
        throw app::UsageError("acsel eval gate: --mode '" + modeName +
                              "': expected static or continuous");
    const std::string splitName = args.valueOr("split", "stratified");
    if (splitName != "stratified" && splitName != "sweeps")
        throw app::UsageError("acsel eval gate: --split '" + splitName +
                              "': expected stratified or sweeps");
    const GateSplit split =
        splitName == "sweeps" ? GateSplit::LeaveOneSweepOut : GateSplit::Stratified;
    const std::string aicFile = args.valueOr("aic", "");
    const std::vector<AicEstimate> aic =
        aicFile.empty() ? std::vector<AicEstimate>{} : loadAicEstimatesCsv(aicFile);
    const Workspace ws = loadWorkspaceFromArgs(args);
    if (ws.stacks.empty())
        throw app::UsageError("acsel eval gate: no operator tables (pass --tables DIR)");
    const SiliconPrediction p = predictSiliconRows(ws, loadSiliconCsv(measurements), *mode);
    const SiliconGateRows rows = siliconGateRows(p, ws, *mode, aic, aicFile);
    const GateEvaluation g = evaluateGate(
        rows.rows, standardGateVariants(tau, !aicFile.empty(), confidence), k, seeds, split);
    const bool bySweep = split == GateSplit::LeaveOneSweepOut;
    std::vector<std::string> studied;
    for (const StackGateResult& s : g.stacks)
        studied.push_back(s.stack);
    const PerMetric oracleMedian = oracleGate(rows.rows, studied, 0.5);
    const PerMetric oracleSure = oracleGate(rows.rows, studied, confidence);

    if (args.flag("json")) {
        Json j{{"measurements", measurements},
               {"aic_estimates", aicFile.empty() ? Json() : Json(aicFile)},
               {"serving_mode", std::string(toString(*mode))},
               {"split", splitName},
               {"profiles", bySweep ? Json() : Json(k)},
               {"seeds", bySweep ? Json() : Json(seeds)},
               {"tau", tau},
               {"confidence", confidence},
               {"budget_factors", kBudgetFactors},
               {"gates", g.variants},
               {"stacks", Json::array()}};
        for (const StackGateResult& s : g.stacks)
            j["stacks"].push_back({{"stack", s.stack},
                                   {"rows", s.rows},
                                   {"profile_candidates", s.profileCandidates},
                                   {"gates", variantsJson(g.variants, s.variants)}});
        j["pooled"] = variantsJson(g.variants, g.pooled);
        std::ostringstream sure;
        sure << "oracle@" << confidence;
        j["bound"] = variantsJson({"oracle", sure.str()}, {oracleMedian, oracleSure});
        j["decision"] = {{"workload_pairs", g.workloadPairs},
                         {"same_stack", decisionJson(g.variants, g.sameStack)},
                         {"across_stacks", decisionJson(g.variants, g.acrossStacks)}};
        j["excluded_stacks"] = Json::array();
        for (const auto& [stack, reason] : g.excludedStacks)
            j["excluded_stacks"].push_back({{"stack", stack}, {"reason", reason}});
        j["aic_rows"] = rows.aicRows;
        j["aic_refused"] = rows.aicRefused;
        j["aic_missing"] = rows.aicMissing;
        addSiliconNotes(p, j);
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << "Gate evaluation on MEASURED rows of " << measurements << ": ";
    if (bySweep)
        io.out << "per stack each concurrency sweep held out in turn, the stack's other rows the "
                  "profiles";
    else
        io.out << "per stack " << k << " profiles (stratified over raw TTFT, seeds 0.." << seeds - 1
               << "), the other rows held out";
    io.out << "; budgets at measured x 0.8, 0.9, 0.95 (over budget: "
              "admit = false admit) and 1.05, 1.1, 1.25 (within: reject = false reject); "
           << toString(*mode) << " serving model, FMC tau " << tau << "; counts summed over "
           << (bySweep ? "sweeps" : "seeds")
           << ". Gates: raw estimate; fmc, the paper's median line; "
              "calibrate, the form acsel calibrate chooses (identity, offset or line)";
    if (confidence != 0.5)
        io.out << "; calibrate@" << confidence << ", its " << confidence
               << "-quantile line (search --confidence " << confidence << ")";
    io.out << "\n\n"
           << "| stack | held out | gate | TTFT false-admit | TTFT false-reject | TPOT "
              "false-admit | TPOT false-reject | no estimate |\n"
           << "|---|---:|---|---:|---:|---:|---:|---:|\n";
    int pooledHeldOut = 0;
    for (const StackGateResult& s : g.stacks) {
        const int heldOut = s.variants.empty() ? 0 : s.variants[0][0].cases / (bySweep ? 1 : seeds);
        pooledHeldOut += heldOut;
        printGateRows(s.stack, heldOut, g, s.variants, io.out);
    }
    printGateRows("all", pooledHeldOut, g, g.pooled, io.out);
    if (confidence != 0.5) {
        std::ostringstream gate;
        gate << "calibrate@" << confidence;
        printTradeOff(g, gate.str(), io.out);
    }
    if (confidence == 0.5)
        io.out << "\n";
    printOracle(oracleMedian, oracleSure, confidence, io.out);
    io.out
        << "\nIntervals: share of held-out (row, " << (bySweep ? "sweep" : "seed")
        << ") cases whose measurement lies in the gate's central 90 % predictive interval "
           "(at the row's concurrency when the profiles have 5 or more there and the stack's "
           "concurrencies differ in spread), and the mean half-width factor\n\n"
        << "| stack | gate | TTFT coverage, width | TPOT coverage, width |\n|---|---|---:|---:|\n";
    for (const StackGateResult& s : g.stacks)
        printIntervalRows(s.stack, g, s.variants, io.out);
    printIntervalRows("all", g, g.pooled, io.out);
    io.out << "\nDecision accuracy: of two measured configurations of one workload (system, "
              "isl, osl, concurrency), both held out, is the faster one ranked faster? "
           << g.workloadPairs << " pairs in the file; (pair, seed) counts\n\n"
           << "| gate | TTFT same stack | TTFT across stacks | TPOT same stack | TPOT across "
              "stacks |\n|---|---:|---:|---:|---:|\n";
    for (std::size_t i = 0; i < g.variants.size(); ++i) {
        io.out << "| " << g.variants[i] << " |";
        for (LatencyMetric m : kMetrics)
            for (const auto* set : {&g.sameStack, &g.acrossStacks}) {
                const DecisionCounts& d = (*set)[i][static_cast<std::size_t>(m)];
                io.out << " " << rate(d.correct, d.pairs);
                if (d.undecided > 0)
                    io.out << ", " << d.undecided << " undecided";
                io.out << " |";
            }
        io.out << "\n";
    }
    io.out << "\n";
    if (!aicFile.empty())
        io.out << "AIC (" << aicFile << ", agg mode): " << rows.aicRows << " of "
               << rows.rows.size() << " rows estimated, " << rows.aicRefused
               << " refused (no estimate: the gate rejects), " << rows.aicMissing.size()
               << " without a line\n";
    for (const auto& [stack, reason] : g.excludedStacks)
        io.out << "excluded stack " << stack << ": " << reason << "\n";
    printSiliconNotes(p, io.out);
    return 0;
}

const RegisterCommand reg("eval gate",
                          "false-admit / false-reject of the latency gate on measured rows", &run);

} // namespace
} // namespace acsel::cli
