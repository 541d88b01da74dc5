// acsel eval: the Table-1 analogue on SIMULATED measurements (core/eval): seeded requests, a
// latency truth fitted on one half of the real silicon rows and judged on the other, FMC on
// profiled configurations of the campaign, Rand / HC (BandPareto's number of full gates) /
// BandPareto / Exact, mean +- std over seeds. Deterministic: two runs with the same arguments print
// the same bytes (wall time only with --timing).
#include "app/cli/command.h"
#include "app/cli/engineargs.h"
#include "app/cli/workspaceargs.h"
#include "core/data/configjson.h"
#include "core/eval/evaluator.h"
#include "core/eval/measuredquality.h"
#include "core/eval/siliconcrossfit.h"
#include "core/search/searchalgorithm.h"

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

namespace acsel::cli
{
namespace
{

// What the report can and cannot show (printed with every run; docs/EVALUATION.md).
const char* const kScope =
    "What this simulation can show: how the searchers and the FMC gate behave when the truth "
    "is NOT the gate's model: latency with the workload-dependent residual of real silicon rows "
    "(the gate's FMC maps the estimate only), band and memory effects the gate does not model, "
    "and RMQD from the demo generator on configurations the surrogate was not trained on.\n"
    "What it cannot show: real band-configuration latency or memory (no public measurement has "
    "band boundaries: those effects are assumptions), real RMQD (the generator is synthetic), "
    "or anything outside the silicon rows' workloads (the residual model is clamped to their "
    "range). Its feasibility rates are not a measured result.\n";

std::vector<std::string> splitList(const std::string& s)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t comma = std::min(s.find(',', start), s.size());
        if (comma > start)
            out.push_back(s.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

std::pair<double, double> meanStd(const std::vector<EvalMetrics>& v, double EvalMetrics::*field)
{
    double sum = 0, sq = 0;
    int n = 0;
    for (const EvalMetrics& m : v)
        if (!std::isnan(m.*field)) {
            sum += m.*field;
            sq += (m.*field) * (m.*field);
            ++n;
        }
    if (n == 0)
        return {std::nan(""), 0};
    const double mean = sum / n;
    return {mean, n > 1 ? std::sqrt(std::max(0.0, sq / n - mean * mean)) : 0.0};
}

// max(TTFT / L1, TPOT / L2): above 1 the budget is exceeded.
double normalised(double ttft, double tpot, const Request& q)
{
    return std::max(ttft / q.ttftBudgetMs, tpot / q.tpotBudgetMs);
}

nlohmann::ordered_json outcomeJson(const EvalOutcome& o, const Request& q, const Workspace& ws)
{
    if (!o.answered)
        return {{"answered", false}};
    const Config& c = *o.config;
    return {
        {"answered", true},
        {"model", ws.models[static_cast<std::size_t>(c.model)].name},
        {"batch", c.batch},
        {"tp", c.tp},
        {"recipe", c.recipe.describe()},
        {"predicted_norm_latency", normalised(o.predicted.ttftMs, o.predicted.tpotMs, q)},
        {"measured_norm_latency", normalised(o.measured.latency.ttft, o.measured.latency.tpot, q)},
        {"predicted_rmqd", o.predicted.rmqd},
        {"measured_rmqd", o.measured.rmqd},
        {"feasible", {o.feasible[0], o.feasible[1], o.feasible[2]}}};
}

// Per request, for the FMC rows of the paper's searchers: predicted and measured normalised
// latency (max(TTFT/L1, TPOT/L2)) and feasible@10%, so a feasibility difference between two
// searchers can be traced to the configuration each returned.
void printPerRequest(const EvalReport& report, const Workspace& ws, std::ostream& out)
{
    const auto isExact = [](const std::string& name) {
        const std::optional<SearchAlgorithm> a = SearchAlgorithm::parse(name);
        return a && a->info().exact;
    };
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < report.rows.size(); ++i)
        if (report.rows[i].stack.empty() && report.rows[i].fmc &&
            !isExact(report.rows[i].algorithm))
            rows.push_back(i);
    out << "\nPer request (FMC; pred/meas = predicted/measured max(TTFT/L1, TPOT/L2); * = "
           "feasible@10%):\n\n| seed | # | stack | isl/osl | conc |";
    for (std::size_t i : rows)
        out << " " << report.rows[i].algorithm << " pred/meas | " << report.rows[i].algorithm
            << " config |";
    out << "\n|---|---|---|---|---|";
    for (std::size_t k = 0; k < rows.size(); ++k)
        out << "---|---|";
    out << "\n" << std::setprecision(3);
    for (const RequestRecord& r : report.perRequest) {
        const Request& q = r.request;
        out << "| " << r.seed << " | " << r.index << " | " << q.stack
            << (q.gpus > 1 ? " (" + std::to_string(q.gpus) + " GPUs)" : "") << " | " << q.isl << "/"
            << q.osl << " | " << q.concurrency << " |";
        for (std::size_t i : rows) {
            const EvalOutcome& o = r.outcomes[i];
            if (!o.answered) {
                out << " - | - |";
                continue;
            }
            out << " " << normalised(o.predicted.ttftMs, o.predicted.tpotMs, q) << " / "
                << normalised(o.measured.latency.ttft, o.measured.latency.tpot, q)
                << (o.feasible[2] ? " *" : "") << " | "
                << ws.models[static_cast<std::size_t>(o.config->model)].name << " b"
                << o.config->batch << (o.config->tp > 1 ? " tp" + std::to_string(o.config->tp) : "")
                << " " << o.config->recipe.describe() << " |";
        }
        out << "\n";
    }
}

std::string fixed(double v, int digits)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

// A median |log error| of a degree's validation rows, "-" without any.
std::string errorText(double v)
{
    return std::isnan(v) ? "-" : fixed(v, 3);
}

// Which residual models each tensor-parallel degree of a stack takes (rows of several degrees
// only): its own, fitted on its rows, or the stack's, and how each judges its unseen rows.
void printDegrees(const SiliconCrossFit& f, std::ostream& out)
{
    for (const DegreeCrossFit& d : f.degrees) {
        out << "    tp " << d.tp << ": ";
        if (d.own)
            out << "its own residual model on " << d.residualRows << " rows; on its other "
                << d.validationRows << " rows TTFT " << errorText(d.heldOutTtft)
                << " vs the stack's " << errorText(d.stackTtft) << ", TPOT "
                << errorText(d.heldOutTpot) << " vs the stack's " << errorText(d.stackTpot) << "\n";
        else
            out << "the stack's residual model (" << d.residualRows << " rows of tp " << d.tp
                << ", fewer than " << kMinDegreeResidualRows << "); on its other "
                << d.validationRows << " rows TTFT " << errorText(d.heldOutTtft) << ", TPOT "
                << errorText(d.heldOutTpot) << "\n";
    }
}

nlohmann::ordered_json degreesJson(const SiliconCrossFit& f)
{
    const auto value = [](double v) {
        return std::isnan(v) ? nlohmann::ordered_json() : nlohmann::ordered_json(v);
    };
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const DegreeCrossFit& d : f.degrees)
        out.push_back({{"tp", d.tp},
                       {"model", d.own ? "tp" : "stack"},
                       {"residual_rows", d.residualRows},
                       {"validation_rows", d.validationRows},
                       {"validation_median_abs_log_error",
                        {{"ttft", value(d.heldOutTtft)},
                         {"tpot", value(d.heldOutTpot)},
                         {"stack_ttft", value(d.stackTtft)},
                         {"stack_tpot", value(d.stackTpot)}}}});
    return out;
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = engineOptions();
    // The evaluation fits its own FMC on its half of the rows: a calibration file or a
    // confidence gate from outside would be ignored, so they are not options here.
    std::erase_if(
        specs, [](const app::OptionSpec& o) { return o.name == "fmc" || o.name == "confidence"; });
    specs.push_back({"requests", "N", "requests per seed (default 50)"});
    specs.push_back({"seeds", "N", "searcher seeds 1..N (default 3)"});
    specs.push_back({"request-seed", "N", "seed of the request set (default 1)"});
    specs.push_back({"fresh-requests", "", "draw the requests again for each seed"});
    specs.push_back({"tau", "X", "FMC quantile (default 0.5, the median; above: conservative)"});
    specs.push_back(
        {"stacks", "LIST", "stacks with silicon rows (default h100_sxm/trtllm,h200_sxm/vllm)"});
    specs.push_back({"models", "LIST", "models (default the ones up to 8B, as the paper)"});
    specs.push_back({"measurements", "FILE",
                     "silicon rows the latency truth is fitted and judged on (default "
                     "<tables>/silicon/dense_tp1.csv)"});
    specs.push_back({"fmc-profiles", "K", "FMC profiled configurations per stack (default 30)"});
    specs.push_back({"split-seed", "N", "seed of the rows' split into the two halves (default 1)"});
    specs.push_back(
        {"boundary-scale", "X",
         "multiply every stack's assumed band boundary and format switch costs (default 1)"});
    specs.push_back({"per-request", "", "also list every request's answers (FMC rows)"});
    specs.push_back({"timing", "", "add search wall time per request (differs between runs)"});
    specs.push_back({"json", "", "print JSON (with every request's answers)"});
    const app::Args args("eval", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const auto engine = loadEngineFromArgs(args);
    const Workspace& ws = engine->workspace();
    EvalOptions o;
    o.requests = args.integer("requests", 50, 1, 100000);
    o.seeds.clear();
    for (int s = 1; s <= args.integer("seeds", 3, 1, 100); ++s)
        o.seeds.push_back(static_cast<std::uint64_t>(s));
    o.requestSeed = static_cast<std::uint64_t>(args.integer("request-seed", 1, 1, 1'000'000'000));
    o.freshRequestsPerSeed = args.flag("fresh-requests");
    o.setup.fmcTau = args.number("tau", 0.5, 0.01, 0.99);
    o.setup.fmcProfiles = args.integer("fmc-profiles", 30, 2, 1000);
    const auto splitSeed =
        static_cast<std::uint64_t>(args.integer("split-seed", 1, 0, 1'000'000'000));
    const double boundaryScale = args.number("boundary-scale", 1.0, 0.0, 100.0);
    o.setup.stacks = splitList(args.valueOr("stacks", "h100_sxm/trtllm,h200_sxm/vllm"));
    for (const std::string& s : o.setup.stacks)
        if (!ws.findStack(s))
            throw app::UsageError("acsel eval: --stacks: unknown stack '" + s +
                                  "' (expected stacks acsel info lists)");
    if (const auto models = args.value("models")) {
        for (const std::string& m : splitList(*models)) {
            const auto i = ws.findModel(m);
            if (!i)
                throw app::UsageError("acsel eval: --models: unknown model '" + m +
                                      "' (expected one of: " + modelNames(ws) + ")");
            o.setup.models.push_back(*i);
        }
    } else {
        for (std::size_t i = 0; i < ws.models.size(); ++i)
            if (ws.models[i].paramCount() <= std::int64_t{8'500'000'000})
                o.setup.models.push_back(static_cast<int>(i));
    }
    o.search.models = o.setup.models;
    const std::string measurements = args.valueOr(
        "measurements",
        ws.tablesDir.empty()
            ? std::string()
            : (std::filesystem::path(ws.tablesDir) / "silicon" / "dense_tp1.csv").string());
    if (measurements.empty())
        throw app::UsageError("acsel eval: no silicon rows: pass --measurements FILE (the "
                              "latency truth is fitted on them)");
    const SiliconPrediction silicon =
        predictSiliconRows(ws, loadSiliconCsv(measurements), ServingMode::Static);

    // "Measured" RMQD: the demo generator behind the workspace's quality set (the ground truth
    // the surrogate was fitted to, on other configurations); the surrogate itself only when
    // there is no such generator.
    const std::optional<QualitySet> qualitySet =
        ws.qualityFile.empty() ? std::nullopt
                               : std::optional(loadQualitySet(ws.qualityFile, ws.models));
    const DemoGenerator generator =
        qualitySet ? rebuildDemoGenerator(*qualitySet, ws.models)
                   : DemoGenerator{std::nullopt, 0, "the workspace names no quality set"};
    if (qualitySet)
        o.inTraining = trainingConfigs(*qualitySet);
    const std::string measuredQuality =
        generator.model ? "the demo quality generator behind " +
                              std::filesystem::path(ws.qualityFile).filename().string() +
                              " (seed " + std::to_string(generator.seed) + ")"
                        : "the quality surrogate's prediction (" + generator.reason + ")";
    const auto measuredRmqd = [&engine, &generator](const Config& c) {
        return generator.model
                   ? generator.model->rmqd(c.model, c.recipe, c.algorithm, c.lmHeadQuantized, c.kv)
                   : engine->rmqd(c);
    };
    SimulatedCampaign campaign(*engine, measuredRmqd, o.campaignSeed);
    std::vector<SiliconCrossFit> fits;
    for (const std::string& s : o.setup.stacks) {
        const Stack& stack = ws.stacks[static_cast<std::size_t>(*ws.findStack(s))];
        const CrossFitResult r = crossFitStack(*engine, silicon, s, ServingMode::Static, splitSeed);
        if (!r.fit)
            throw app::UsageError("acsel eval: stack " + s + " in " + measurements + ": " +
                                  r.reason + " (the latency truth is fitted on them)");
        StackTruth truth{r.fit->ttft, r.fit->tpot, assumedBandEffects(stack),
                         assumedMemoryEffect(stack), r.fit->ownModels()};
        truth.band.boundaryCostMs *= boundaryScale;
        truth.band.formatSwitchCostMs *= boundaryScale;
        campaign.setTruth(s, truth);
        o.setup.stackGrids[s] = r.fit->workloads;
        fits.push_back(*r.fit);
    }
    const std::atomic<bool> noStop{false};
    const EvalReport report = evaluate(*engine, campaign, o, {}, noStop);
    const bool timing = args.flag("timing");

    struct Column {
        const char* name;
        double EvalMetrics::*field;
        int digits;
    };
    std::vector<Column> cols{{"answer", &EvalMetrics::answerRate, 2},
                             {"feas@0", &EvalMetrics::feasible0, 2},
                             {"feas@5", &EvalMetrics::feasible5, 2},
                             {"feas@10", &EvalMetrics::feasible10, 2},
                             {"gap@10", &EvalMetrics::gap10, 4},
                             {">=unif@10", &EvalMetrics::atLeastUniform10, 2},
                             {"multi-band", &EvalMetrics::multiBand, 2},
                             {"gates/request", &EvalMetrics::meanFullGates, 0}};
    if (timing)
        cols.push_back({"s/request", &EvalMetrics::meanSeconds, 3});
    int leftOut = 0, evaluated = 0;
    for (const RequestRecord& r : report.perRequest)
        if (r.seed == report.seeds.front()) {
            leftOut += r.best.leftOut;
            evaluated += r.best.configurations;
        }
    if (args.flag("json")) {
        nlohmann::ordered_json j;
        j["simulated"] = true;
        j["measured_rmqd"] = measuredQuality;
        j["measurements"] = measurements;
        j["boundary_scale"] = boundaryScale;
        j["requests"] = report.requests;
        j["seeds"] = report.seeds;
        j["evaluation_configurations"] = evaluated;
        j["training_configurations_left_out"] = leftOut;
        for (const SiliconCrossFit& f : fits) {
            const Stack& stack = ws.stacks[static_cast<std::size_t>(*ws.findStack(f.stack))];
            nlohmann::ordered_json a = nlohmann::ordered_json::array();
            for (const CampaignAssumption& c : campaignAssumptions(stack))
                a.push_back({{"name", c.name}, {"value", c.value}, {"source", c.source}});
            j["truth"].push_back({{"stack", f.stack},
                                  {"residual_rows", f.residualRows},
                                  {"validation_rows", f.validationRows},
                                  {"residual_sigma_ttft", f.ttft.sigma()},
                                  {"residual_sigma_tpot", f.tpot.sigma()},
                                  {"residual_by_tp", degreesJson(f)},
                                  {"validation_median_abs_log_error",
                                   {{"ttft", f.heldOutTtft},
                                    {"tpot", f.heldOutTpot},
                                    {"raw_ttft", f.rawTtft},
                                    {"raw_tpot", f.rawTpot}}},
                                  {"fmc",
                                   {{"gamma_ttft", report.fmc.at(f.stack).gammaTtft},
                                    {"delta_ttft", report.fmc.at(f.stack).deltaTtft},
                                    {"gamma_tpot", report.fmc.at(f.stack).gammaTpot},
                                    {"delta_tpot", report.fmc.at(f.stack).deltaTpot}}},
                                  {"assumptions", a}});
        }
        for (const ResidualSpread& r : report.residualAfterFmc)
            j["residual_after_fmc"].push_back(
                {{"stack", r.stack},
                 {"configurations", r.metric[0].n},
                 {"ttft", {{"mean", r.metric[0].mean()}, {"sd", r.metric[0].sd()}}},
                 {"tpot", {{"mean", r.metric[1].mean()}, {"sd", r.metric[1].sd()}}}});
        for (const EvalRow& row : report.rows) {
            nlohmann::ordered_json r{{"algorithm", row.algorithm},
                                     {"fmc", row.fmc},
                                     {"stack", row.stack.empty() ? "all" : row.stack}};
            for (const Column& c : cols) {
                const auto [m, sd] = meanStd(row.perSeed, c.field);
                r[c.name] = {{"mean", m}, {"std", sd}};
            }
            j["rows"].push_back(r);
        }
        j["bp_equals_exact"] = {{"answered", report.bpAnswered},
                                {"equal", report.bpEqualsExact},
                                {"mean_predicted_gap", report.bpMeanPredictedGap}};
        j["scope"] = kScope;
        for (const RequestRecord& rec : report.perRequest) {
            const Request& q = rec.request;
            // The request in the request JSON's shape (stack + request), as `search` reads it.
            nlohmann::ordered_json r{{"seed", rec.seed}, {"index", rec.index}};
            writeRequestFields(r, q);
            r["headroom"] = {{"model", ws.models[static_cast<std::size_t>(rec.faster.model)].name},
                             {"batch", rec.faster.batch},
                             {"faster", toString(rec.faster.recipe[0].format)},
                             {"slower", toString(rec.slower.recipe[0].format)}};
            for (std::size_t i = 0; i < rec.outcomes.size(); ++i)
                r[report.rows[i].algorithm + (report.rows[i].fmc ? "+fmc" : "")] =
                    outcomeJson(rec.outcomes[i], q, ws);
            j["per_request"].push_back(r);
        }
        io.out << j.dump(2) << "\n";
        return 0;
    }
    io.out << "SIMULATED measurements (core/eval): " << report.requests << " requests x "
           << report.seeds.size() << " seeds on";
    for (const std::string& s : o.setup.stacks)
        io.out << " " << s;
    io.out << (o.freshRequestsPerSeed
                   ? "; requests drawn per seed"
                   : "; one request set (seed " + std::to_string(o.requestSeed) + ")")
           << "; FMC tau " << o.setup.fmcTau << " on " << o.setup.fmcProfiles
           << " profiled configurations of the campaign per stack; mean +- std over "
              "seeds\nMeasured RMQD: "
           << measuredQuality << "; " << leftOut
           << " training configurations of the surrogate left out of the " << evaluated + leftOut
           << " evaluation configurations (first seed)\n\nLatency truth per stack, fitted on "
              "half of the rows of "
           << measurements << " and judged on the other half (split seed " << splitSeed
           << "); median |log error| on the unseen half, truth model vs the raw estimate:\n";
    for (const SiliconCrossFit& f : fits) {
        const Calibration& c = report.fmc.at(f.stack);
        io.out << "  " << f.stack << ": residual model on " << f.residualRows.size()
               << " rows (unexplained sigma TTFT " << fixed(f.ttft.sigma(), 3) << ", TPOT "
               << fixed(f.tpot.sigma(), 3) << "); on the other " << f.validationRows.size()
               << " rows TTFT " << fixed(f.heldOutTtft, 3) << " vs " << fixed(f.rawTtft, 3)
               << ", TPOT " << fixed(f.heldOutTpot, 3) << " vs " << fixed(f.rawTpot, 3)
               << "; FMC TTFT gamma " << fixed(c.gammaTtft, 3) << " delta " << fixed(c.deltaTtft, 3)
               << ", TPOT gamma " << fixed(c.gammaTpot, 3) << " delta " << fixed(c.deltaTpot, 3)
               << "\n";
        printDegrees(f, io.out);
    }
    io.out << "ASSUMPTIONS (no measurement; per-boundary costs x" << boundaryScale << "):\n";
    for (const SiliconCrossFit& f : fits)
        for (const CampaignAssumption& c :
             campaignAssumptions(ws.stacks[static_cast<std::size_t>(*ws.findStack(f.stack))]))
            io.out << "  " << f.stack << " " << c.name << ": " << c.value << " (" << c.source
                   << ")\n";
    io.out << "\n| stack | algorithm | FMC |";
    for (const Column& c : cols)
        io.out << " " << c.name << " |";
    io.out << "\n|---|---|---|";
    for (std::size_t i = 0; i < cols.size(); ++i)
        io.out << "---:|";
    io.out << "\n";
    for (const EvalRow& row : report.rows) {
        io.out << "| " << (row.stack.empty() ? "all" : row.stack) << " | " << row.algorithm << " | "
               << (row.fmc ? "yes" : "no") << " |";
        for (const Column& c : cols) {
            const auto [m, sd] = meanStd(row.perSeed, c.field);
            if (std::isnan(m)) // no request to average over (e.g. no common answer for gap@10)
                io.out << " - |";
            else
                io.out << " " << fixed(m, c.digits) << " +- " << fixed(sd, c.digits) << " |";
        }
        io.out << "\n";
    }
    io.out << "\nBandPareto = Exact (predicted RMQD, with FMC) on " << report.bpEqualsExact
           << " of " << report.bpAnswered
           << " answered requests; mean predicted-RMQD gap where they differ "
           << fixed(report.bpMeanPredictedGap, 5) << "\n"
           << "Residual left after FMC, log(measured / FMC prediction) over the evaluation "
              "data:\n";
    for (const ResidualSpread& r : report.residualAfterFmc)
        io.out << "  " << r.stack << ": " << r.metric[0].n << " configurations, TTFT mean "
               << fixed(r.metric[0].mean(), 3) << " sd " << fixed(r.metric[0].sd(), 3)
               << ", TPOT mean " << fixed(r.metric[1].mean(), 3) << " sd "
               << fixed(r.metric[1].sd(), 3) << "\n";
    io.out << "\n" << kScope;
    if (args.flag("per-request"))
        printPerRequest(report, ws, io.out);
    return 0;
}

const RegisterCommand reg("eval", "the Table-1 analogue on simulated measurements", &run);

} // namespace
} // namespace acsel::cli
