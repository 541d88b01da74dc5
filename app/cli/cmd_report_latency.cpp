// acsel report latency: the paper's Table 2 on real end-to-end measurements. Per stack, K
// profiles are drawn (stratified over log raw TTFT) and the other rows held out; the MdAPE of
// raw, FMC (form chosen per stack, fmcchoice.h), FMC line (the paper's), FMC-MSE and LR on the
// held-out rows is averaged over seeds; a diverged fit prints "diverged", out of the means. Both
// serving models (static batch, continuous batching: docs/SERVING.md) are shown side by side (raw
// and FMC), then the full table of the chosen --mode.
#include "app/cli/command.h"
#include "app/cli/siliconnotes.h"
#include "app/cli/workspaceargs.h"
#include "core/data/jsonfields.h"
#include "core/latency/aiccomparison.h"
#include "core/latency/siliconstudy.h"

#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace acsel::cli
{
namespace
{

Json mdapeJson(double v)
{
    return diverged(v) ? Json(nullptr) : Json(v);
}

Json toJson(const MethodMdape& m)
{
    return {{"raw", mdapeJson(m.raw)},
            {"fmc", mdapeJson(m.fmc)},
            {"fmc_line", mdapeJson(m.fmcLine)},
            {"fmc_mse", mdapeJson(m.fmcMse)},
            {"lr", mdapeJson(m.lr)}};
}

std::string pct(double v)
{
    if (diverged(v))
        return "diverged";
    std::ostringstream s;
    s << std::fixed << std::setprecision(1) << v;
    return s.str();
}

std::string cells(const MethodMdape& m)
{
    return pct(m.raw) + " | " + pct(m.fmc) + " | " + pct(m.fmcLine) + " | " + pct(m.fmcMse) +
           " | " + pct(m.lr);
}

Json pairJson(const ToolPair& p)
{
    return {{"ours", p.ours}, {"aic", p.aic}};
}

Json comparisonJson(const AicStackComparison& s)
{
    Json j{{"stack", s.stack},
           {"rows", s.rows},
           {"raw_ttft_mdape", pairJson(s.rawTtft)},
           {"raw_tpot_mdape", pairJson(s.rawTpot)},
           {"calibrated", s.calibrated}};
    if (s.calibrated) {
        j["held_out_rows"] = s.heldOut;
        j["raw_held_out_ttft_mdape"] = s.rawHeldOutTtft;
        j["raw_held_out_tpot_mdape"] = s.rawHeldOutTpot;
        j["fmc_ttft_mdape"] = pairJson(s.fmcTtft);
        j["fmc_tpot_mdape"] = pairJson(s.fmcTpot);
        j["coverage_ttft"] = s.coverageTtft;
        j["coverage_tpot"] = s.coverageTpot;
    }
    return j;
}

std::string winner(const ToolPair& p)
{
    return p.ours <= p.aic ? "**" + pct(p.ours) + "** | " + pct(p.aic)
                           : pct(p.ours) + " | **" + pct(p.aic) + "**";
}

void printComparisonRow(const AicStackComparison& s, std::ostream& out)
{
    out << "| " << s.stack << " | " << s.rows << " | " << winner(s.rawTtft) << " | "
        << winner(s.rawTpot) << " | ";
    if (s.calibrated)
        out << pct(s.rawHeldOutTtft) << " | " << winner(s.fmcTtft) << " | " << pct(s.rawHeldOutTpot)
            << " | " << winner(s.fmcTpot) << " | " << pct(100 * s.coverageTtft) << " | "
            << pct(100 * s.coverageTpot) << " |\n";
    else
        out << "- | - | - | - | - | - | - | - |\n";
}

void printComparison(const AicComparison& c, const std::string& against, std::ostream& out)
{
    out << "Ours vs AIConfigurator (" << against
        << "), MdAPE (%) against silicon on the rows both answer (AIC agg mode). FMC: "
        << c.profiles
        << " profiles per stack (stratified on our raw TTFT), the rest held out "
           "(raw held-out: our raw estimate on those rows), "
        << "mean over " << c.seeds
        << " seeds; AIC+FMC = the same FMC fitted on AIC's estimates "
           "of the same profiles; coverage = held-out rows inside our "
        << pct(100 * c.intervalLevel) << " % interval. Bold: the better tool.\n\n"
        << "| stack | rows | TTFT raw ours | TTFT raw AIC | TPOT raw ours | TPOT raw AIC | TTFT "
           "raw held-out | TTFT FMC ours | TTFT AIC+FMC | TPOT raw held-out | TPOT FMC ours | "
           "TPOT AIC+FMC | TTFT coverage | TPOT coverage |\n"
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const AicStackComparison& s : c.stacks)
        printComparisonRow(s, out);
    AicStackComparison pooled = c.pooled;
    pooled.stack = "pooled";
    printComparisonRow(pooled, out);
    out << "\nraw: all " << c.pooled.rows << " common rows; FMC and coverage: the held-out rows of "
        << "the stacks with at least " << c.profiles + 1 << " rows (" << c.pooled.heldOut
        << " per seed), pooled per seed. Rows only we answer: " << c.oursOnly
        << "; rows only AIC answers: " << c.aicOnly << ".\n";
    out << "\nRaw MdAPE (%) per model (as measured), stack, tensor-parallel degree and expert-"
           "parallel degree (moe_ep; 1 for dense models), on the rows both answer. Bold: the "
           "better tool.\n\n"
        << "| model | stack | tp | moe_ep | rows | TTFT raw ours | TTFT raw AIC | TPOT raw ours | "
           "TPOT raw AIC |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const AicGroupComparison& g : c.groups)
        out << "| " << g.model << " | " << g.stack << " | " << g.tp << " | " << g.moeEp << " | "
            << g.rows << " | " << winner(g.rawTtft) << " | " << winner(g.rawTpot) << " |\n";
}

// Static and continuous raw / FMC MdAPE per stack; the stacks are those both studies kept.
void printSideBySide(const LatencyStudy& st, const LatencyStudy& co, std::ostream& out)
{
    out << "Serving models side by side, MdAPE (%) on held-out rows (static = one batch, "
           "continuous = in-flight batching at the concurrency)\n\n"
        << "| stack | rows | queued | TTFT raw static | TTFT raw cont. | TTFT FMC static | "
           "TTFT FMC cont. | TPOT raw static | TPOT raw cont. | TPOT FMC static | TPOT FMC "
           "cont. |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    MethodMdape ms, mc, ps, pc;
    int n = 0;
    for (const StackStudy& c : co.stacks)
        for (const StackStudy& s : st.stacks) {
            if (s.stack != c.stack)
                continue;
            out << "| " << s.stack << " | " << s.rows << " | " << c.queuedRows << " | "
                << pct(s.ttft.raw) << " | " << pct(c.ttft.raw) << " | " << pct(s.ttft.fmc) << " | "
                << pct(c.ttft.fmc) << " | " << pct(s.tpot.raw) << " | " << pct(c.tpot.raw) << " | "
                << pct(s.tpot.fmc) << " | " << pct(c.tpot.fmc) << " |\n";
            ms.raw += s.ttft.raw, mc.raw += c.ttft.raw, ms.fmc += s.ttft.fmc, mc.fmc += c.ttft.fmc;
            ps.raw += s.tpot.raw, pc.raw += c.tpot.raw, ps.fmc += s.tpot.fmc, pc.fmc += c.tpot.fmc;
            ++n;
        }
    if (n > 0)
        out << "| mean of " << n << " stacks | | | " << pct(ms.raw / n) << " | " << pct(mc.raw / n)
            << " | " << pct(ms.fmc / n) << " | " << pct(mc.fmc / n) << " | " << pct(ps.raw / n)
            << " | " << pct(pc.raw / n) << " | " << pct(ps.fmc / n) << " | " << pct(pc.fmc / n)
            << " |\n";
    // A stack one model could not calibrate is only in the other's table below: say why.
    for (const auto& [stack, reason] : st.excludedStacks)
        for (const StackStudy& c : co.stacks)
            if (c.stack == stack)
                out << "\nnot side by side: " << stack << " (static model: " << reason << ")\n";
    out << "\n";
}

// Residuals per row: what a performance modeller looks at (docs/SERVING.md).
void printRows(const SiliconPrediction& p, const Workspace& ws, std::ostream& out)
{
    out << "stack,model,format,kv,isl,osl,concurrency,running,kv_slots,ttft_ms,ttft_static,"
           "ttft_cont,tpot_ms,tpot_static,tpot_cont,queue_wait,warmup,arrival,backlog,"
           "own_prefill_step,chunks,mixed_share,decode_step,mixed_step,in_step_ttft,"
           "in_step_tpot,request_overhead\n";
    const std::vector<BenchmarkReplay> inStep = replaySiliconRows(ws, p);
    for (std::size_t i = 0; i < p.rows.size(); ++i) {
        const PredictedSiliconRow& r = p.rows[i];
        const ServingEstimate& s = r.serving;
        out << ws.stacks[static_cast<std::size_t>(r.stack)].id << ","
            << ws.models[static_cast<std::size_t>(r.config.model)].name << ","
            << toString(r.config.recipe[0].format) << "," << toString(r.config.kv) << ","
            << r.request.isl << "," << r.request.osl << "," << s.concurrency << "," << s.running
            << "," << s.kv.requestsThatFit << "," << r.row.ttftMs << "," << r.raw.ttftMs << ","
            << s.latency.ttftMs << "," << r.row.tpotMs << "," << r.raw.tpotMs << ","
            << s.latency.tpotMs << "," << s.queueWaitMs << "," << s.warmupPrefillMs << ","
            << s.arrivalWaitMs << "," << s.backlogWaitMs << "," << s.ownPrefillStepMs << ","
            << s.prefillChunks << "," << s.mixedShare << "," << s.decodeStepMs << ","
            << s.mixedStepMs << "," << inStep[i].meanTtftMs << "," << inStep[i].meanTpotMs << ","
            << s.requestOverheadMs << "\n";
    }
}

Json studyJson(const LatencyStudy& st)
{
    Json j{{"mode", std::string(toString(st.mode))}, {"stacks", Json::array()}};
    for (const StackStudy& s : st.stacks)
        j["stacks"].push_back({{"stack", s.stack},
                               {"rows", s.rows},
                               {"queued_rows", s.queuedRows},
                               {"profile_candidates", s.profileCandidates},
                               {"ttft_mdape", toJson(s.ttft)},
                               {"tpot_mdape", toJson(s.tpot)}});
    j["mean_ttft_mdape"] = toJson(st.meanTtft);
    j["mean_tpot_mdape"] = toJson(st.meanTpot);
    j["excluded_stacks"] = Json::array();
    for (const auto& [stack, reason] : st.excludedStacks)
        j["excluded_stacks"].push_back({{"stack", stack}, {"reason", reason}});
    return j;
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = workspaceOptions();
    specs.push_back({"measurements", "FILE", "end-to-end measurements (AIC silicon CSV format)"});
    specs.push_back({"profiles", "K", "profiles per stack used for fitting (default 5)"});
    specs.push_back({"seeds", "N", "profile draws averaged (default 30)"});
    specs.push_back({"tau", "Q", "FMC quantile (default 0.5)"});
    specs.push_back(
        {"mode", "MODE", "serving model of the full table: continuous (default) or static"});
    specs.push_back({"against", "FILE",
                     "AIConfigurator's estimates of the same rows (shared/aic/estimates CSV): "
                     "print ours vs AIC, raw and FMC, per stack and pooled"});
    specs.push_back({"json", "", "print JSON instead of a markdown table"});
    specs.push_back({"rows", "",
                     "print one CSV line per row (measured, both raw estimates, the "
                     "continuous model's terms, the benchmark replayed with its clients in "
                     "step) instead of the tables"});
    const app::Args args("report latency", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string measurements = args.require("measurements");
    const int k = args.integer("profiles", 5, 1, 1000);
    const int seeds = args.integer("seeds", 30, 1, 1000);
    const double tau = args.number("tau", 0.5, 0.01, 0.99);
    const std::string modeName = args.valueOr("mode", "continuous");
    const auto mode = parseServingMode(modeName);
    if (!mode)
        throw app::UsageError("acsel report latency: --mode '" + modeName +
                              "': expected static or continuous");
    const Workspace ws = loadWorkspaceFromArgs(args);
    const SiliconPrediction p = predictSiliconRows(ws, loadSiliconCsv(measurements), *mode);
    if (const auto against = args.value("against")) {
        const AicComparison c =
            compareWithAic(p, ws, loadAicEstimates(*against), k, seeds, tau, *mode);
        if (args.flag("json")) {
            Json j{{"measurements", measurements},
                   {"against", *against},
                   {"mode", std::string(toString(*mode))},
                   {"profiles", k},
                   {"seeds", seeds},
                   {"tau", tau},
                   {"interval_level", c.intervalLevel},
                   {"stacks", Json::array()}};
            for (const AicStackComparison& s : c.stacks)
                j["stacks"].push_back(comparisonJson(s));
            j["pooled"] = comparisonJson(c.pooled);
            for (const AicGroupComparison& g : c.groups)
                j["groups"].push_back({{"model", g.model},
                                       {"stack", g.stack},
                                       {"tp", g.tp},
                                       {"moe_ep", g.moeEp},
                                       {"rows", g.rows},
                                       {"raw_ttft_mdape", pairJson(g.rawTtft)},
                                       {"raw_tpot_mdape", pairJson(g.rawTpot)}});
            j["rows_only_ours"] = c.oursOnly;
            j["rows_only_aic"] = c.aicOnly;
            io.out << j.dump(2) << "\n";
        } else {
            printComparison(c, *against, io.out);
        }
        return 0;
    }
    if (args.flag("rows")) {
        printRows(p, ws, io.out);
        return 0;
    }
    const LatencyStudy stat = runLatencyStudy(p, ws, k, seeds, tau, ServingMode::Static);
    const LatencyStudy cont = runLatencyStudy(p, ws, k, seeds, tau, ServingMode::Continuous);
    const LatencyStudy& st = *mode == ServingMode::Static ? stat : cont;

    std::map<std::string, int> rowsPerStack;
    for (const PredictedSiliconRow& r : p.rows)
        ++rowsPerStack[ws.stacks[static_cast<std::size_t>(r.stack)].id];
    if (args.flag("json")) {
        Json j = studyJson(st);
        j["measurements"] = measurements;
        j["profiles"] = k;
        j["seeds"] = seeds;
        j["tau"] = tau;
        j["static"] = studyJson(stat);
        j["continuous"] = studyJson(cont);
        j["rows_per_stack"] = rowsPerStack;
        j["row_treatment"] = Json::array();
        for (const PredictedSiliconRow& r : p.rows)
            if (r.serving.queued())
                j["row_treatment"].push_back(
                    {{"id", r.row.id},
                     {"kv_slots", r.serving.running},
                     {"concurrency", r.serving.concurrency},
                     {"static", profileExclusion(r, ServingMode::Static)},
                     {"continuous", "queued; the model predicts the queueing: profile candidate"}});
        addSiliconNotes(p, j);
        io.out << j.dump(2) << "\n";
        return 0;
    }
    printSideBySide(stat, cont, io.out);
    io.out
        << "Latency surrogate accuracy (" << toString(st.mode)
        << " model), MdAPE (%) on held-out rows; " << k << " profiles per stack, mean over "
        << seeds << " seeds, FMC tau " << tau << "\n\n"
        << "| stack | rows | TTFT raw | TTFT FMC | TTFT FMC line | TTFT FMC-MSE | TTFT LR | TPOT "
           "raw | TPOT FMC | TPOT FMC line | TPOT FMC-MSE | TPOT LR |\n"
        << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const StackStudy& s : st.stacks)
        io.out << "| " << s.stack << " | " << s.rows << " | " << cells(s.ttft) << " | "
               << cells(s.tpot) << " |\n";
    io.out << "| mean of " << st.stacks.size() << " stacks | | " << cells(st.meanTtft) << " | "
           << cells(st.meanTpot) << " |\n\n";
    io.out << "rows per stack:";
    for (const auto& [stack, n] : rowsPerStack)
        io.out << " " << stack << " " << n << ";";
    io.out << "\n";
    for (const auto& [stack, reason] : st.excludedStacks)
        io.out << "excluded stack " << stack << ": " << reason << "\n";
    for (const PredictedSiliconRow& r : p.rows)
        if (r.serving.queued())
            io.out << "queued row " << r.row.id << " (line " << r.row.line << "): concurrency "
                   << r.serving.concurrency << " > " << r.serving.running
                   << " KV slots; static: held out of profiles; continuous: profile candidate "
                      "(queueing predicted)\n";
    printSiliconNotes(p, io.out);
    return 0;
}

const RegisterCommand reg("report latency",
                          "Table 2: raw / FMC / FMC line / FMC-MSE / LR latency MdAPE per stack",
                          &run);

} // namespace
} // namespace acsel::cli
