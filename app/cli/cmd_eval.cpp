// acsel eval: the Table-1 analogue on SIMULATED measurements (core/eval): seeded requests, FMC
// fitted on simulated profiles or none, Rand / HC / BandPareto / Exact, mean +- std over seeds.
#include "app/cli/command.h"
#include "app/cli/engineargs.h"
#include "core/data/configjson.h"
#include "core/eval/evaluator.h"
#include "core/eval/measuredquality.h"

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace acsel::cli
{
namespace
{

// Stack effects of the simulated campaign, by GPU class: systematic measured/estimate ratios,
// per-step framework overhead, band-boundary conversion cost and measurement noise. The ratios
// and the overhead follow the gap between raw static estimates and the real silicon rows of
// ../shared/aic/silicon (docs/LATENCY.md, docs/SERVING.md: measured TTFT is a fraction of the
// static-batch estimate, TPOT within about 20%). No silicon row has band boundaries: their cost
// is one extra kernel launch per boundary per step (tens of microseconds; the conversion's
// memory traffic is already in the estimate). All are assumptions, not measurements
// (docs/EVALUATION.md, with the sensitivity to the boundary cost).
StackEffects effectsFor(const Stack& s)
{
    if (s.id.find("thor") != std::string::npos)
        return {0.45, 1.3, 3.0, 0.05, 0.10};
    if (s.source == LatencySource::Empirical)
        return {0.35, 1.2, 1.5, 0.025, 0.08};
    return {0.3, 1.15, 1.0, 0.02, 0.06};
}

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
    std::vector<std::size_t> rows;
    for (std::size_t i = 0; i < report.rows.size(); ++i)
        if (report.rows[i].stack.empty() && report.rows[i].fmc &&
            report.rows[i].algorithm != "exact")
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
        out << "| " << r.seed << " | " << r.index << " | " << q.stack << " | " << q.isl << "/"
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
                << o.config->batch << " " << o.config->recipe.describe() << " |";
        }
        out << "\n";
    }
}

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = engineOptions();
    specs.push_back({"requests", "N", "requests per seed (default 50)"});
    specs.push_back({"seeds", "N", "searcher seeds 1..N (default 3)"});
    specs.push_back({"request-seed", "N", "seed of the request set and FMC profiles (default 1)"});
    specs.push_back({"fresh-requests", "", "draw the requests and profiles again for each seed"});
    specs.push_back({"tau", "X", "FMC quantile (default 0.5, the median; above: conservative)"});
    specs.push_back({"stacks", "LIST", "stacks (default rtx_a6000/trtllm,jetson_agx_thor/vllm)"});
    specs.push_back({"models", "LIST", "models (default the ones up to 8B, as the paper)"});
    specs.push_back(
        {"boundary-scale", "X",
         "multiply every stack's simulated per-boundary cost (default 1; sensitivity)"});
    specs.push_back({"per-request", "", "also list every request's answers (FMC rows)"});
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
    o.setup.stacks = splitList(args.valueOr("stacks", "rtx_a6000/trtllm,jetson_agx_thor/vllm"));
    for (const std::string& s : o.setup.stacks)
        if (!ws.findStack(s))
            throw app::UsageError("acsel eval: unknown stack '" + s + "' (acsel info lists them)");
    if (const auto models = args.value("models")) {
        for (const std::string& m : splitList(*models)) {
            const auto i = ws.findModel(m);
            if (!i)
                throw app::UsageError("acsel eval: unknown model '" + m + "'");
            o.setup.models.push_back(*i);
        }
    } else {
        for (std::size_t i = 0; i < ws.models.size(); ++i)
            if (ws.models[i].paramCount() <= std::int64_t{8'500'000'000})
                o.setup.models.push_back(static_cast<int>(i));
    }
    o.search.models = o.setup.models;
    o.search.batches = o.setup.batches;
    // "Measured" RMQD: the demo generator behind the workspace's quality set (the ground truth
    // the surrogate was fitted to); the surrogate itself only when there is no such generator.
    const DemoGenerator generator =
        ws.qualityFile.empty()
            ? DemoGenerator{std::nullopt, 0, "the workspace names no quality set"}
            : rebuildDemoGenerator(loadQualitySet(ws.qualityFile, ws.models), ws.models);
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
    const double boundaryScale = args.number("boundary-scale", 1.0, 0.0, 100.0);
    for (const std::string& s : o.setup.stacks) {
        StackEffects fx = effectsFor(ws.stacks[static_cast<std::size_t>(*ws.findStack(s))]);
        fx.boundaryCostMs *= boundaryScale;
        campaign.setEffects(s, fx);
    }
    const std::atomic<bool> noStop{false};
    const EvalReport report = evaluate(*engine, campaign, o, {}, noStop);

    struct Column {
        const char* name;
        double EvalMetrics::*field;
    };
    const Column cols[] = {
        {"answer", &EvalMetrics::answerRate},    {"feas@0", &EvalMetrics::feasible0},
        {"feas@5", &EvalMetrics::feasible5},     {"feas@10", &EvalMetrics::feasible10},
        {"gap@10", &EvalMetrics::gap10},         {">=unif@10", &EvalMetrics::atLeastUniform10},
        {"s/request", &EvalMetrics::meanSeconds}};
    if (args.flag("json")) {
        nlohmann::ordered_json j;
        j["simulated"] = true;
        j["measured_rmqd"] = measuredQuality;
        j["boundary_scale"] = boundaryScale;
        j["requests"] = report.requests;
        j["seeds"] = report.seeds;
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
        for (const RequestRecord& rec : report.perRequest) {
            const Request& q = rec.request;
            // The request in the request JSON's shape (stack + request), as `search` reads it.
            nlohmann::ordered_json r{{"seed", rec.seed}, {"index", rec.index}};
            writeRequestFields(r, q);
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
           << "; FMC tau " << o.setup.fmcTau
           << "; mean +- std over seeds\nMeasured RMQD: " << measuredQuality
           << "; per-boundary cost x" << boundaryScale << "\n\n| stack | algorithm | FMC |";
    for (const Column& c : cols)
        io.out << " " << c.name << " |";
    io.out << "\n|---|---|---|";
    for (std::size_t i = 0; i < std::size(cols); ++i)
        io.out << "---:|";
    io.out << "\n" << std::fixed;
    for (const EvalRow& row : report.rows) {
        io.out << "| " << (row.stack.empty() ? "all" : row.stack) << " | " << row.algorithm << " | "
               << (row.fmc ? "yes" : "no") << " |";
        for (const Column& c : cols) {
            const auto [m, sd] = meanStd(row.perSeed, c.field);
            const int digits = c.field == &EvalMetrics::gap10 ? 4 : 2;
            if (std::isnan(m)) // no request to average over (e.g. no common answer for gap@10)
                io.out << " - |";
            else
                io.out << " " << std::setprecision(digits) << m << " +- " << sd << " |";
        }
        io.out << "\n";
    }
    io.out << "\nBandPareto = Exact (predicted RMQD, with FMC) on " << report.bpEqualsExact
           << " of " << report.bpAnswered
           << " answered requests; mean predicted-RMQD gap where they differ "
           << std::setprecision(5) << report.bpMeanPredictedGap << "\n";
    if (args.flag("per-request"))
        printPerRequest(report, ws, io.out);
    return 0;
}

const RegisterCommand reg("eval", "the Table-1 analogue on simulated measurements", &run);

} // namespace
} // namespace acsel::cli
