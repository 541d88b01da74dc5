#include "engineloading.h"

#include "app/common/breakdownrows.h"
#include "core/data/loaderror.h"
#include "core/data/qualityset.h"
#include "core/data/workspacefile.h"
#include "core/export/launch.h"
#include "core/latency/fmc.h"
#include "core/latency/fmcfile.h"
#include "core/latency/silicon.h"
#include "core/quality/qualityreport.h"
#include "enginehooks.h"
#include "startupprofile.h"

#include <cstdio>
#include <filesystem>
#include <string>

namespace acsel::studio
{

using namespace acsel::gui;

namespace
{

// The engine's operator and memory breakdowns in place of the gate's totals, and the FMC
// file's intervals of the latencies.
void addBreakdowns(const WorkspaceEngine& e, const Config& c, const Request& q, PredictionView& p)
{
    const LatencyEstimate l = e.latencyEstimate(c, q);
    p.ttftBreakdownMs = app::operatorRows(l.prefill, c.recipe.size(), p.ttftMs);
    p.tpotBreakdownMs = app::operatorRows(l.decode, c.recipe.size(), p.tpotMs);
    p.memoryBreakdownGiB = app::memoryRows(e.memoryEstimate(c, q));
    if (!p.runnable)
        return;
    if (const std::optional<EngineMemory> m = e.engineMemory(c, q))
        p.engineMemory = engineMemoryText(*m);
    p.intervalLevel = kCardIntervalLevel;
    p.ttftInterval = e.latencyInterval(c, q, LatencyMetric::Ttft, p.rawTtftMs, kCardIntervalLevel);
    p.tpotInterval = e.latencyInterval(c, q, LatencyMetric::Tpot, p.rawTpotMs, kCardIntervalLevel);
}
} // namespace

LoadedEngine loadEngine(const std::string& workspaceFile, const std::string& tablesDir,
                        const std::string& fmcFile, double confidence, const Request& at)
{
    EngineSources sources;
    sources.fmcFile = fmcFile;
    Workspace loaded = loadWorkspace(workspaceFile, tablesDir);
    startupMark("workspace loaded (" + std::to_string(loaded.stacks.size()) + " stacks, " +
                std::to_string(loaded.models.size()) + " models)");
    auto built = std::make_shared<WorkspaceEngine>(std::move(loaded), sources);
    bool intervals = false;
    if (!fmcFile.empty()) {
        const FmcSet fmc = loadFmcFile(fmcFile);
        intervals = hasIntervals(fmc);
        if (intervals)
            applyConfidence(*built, fmc, confidence, at); // the one the CLI's --confidence uses
    }
    std::shared_ptr<const WorkspaceEngine> engine = std::move(built);
    startupMark("engine built (quality surrogate fitted, FMC read)");
    std::shared_ptr<const Workspace> ws(engine, &engine->workspace());
    ExplorerHooks hooks = makeEngineHooks(engine);
    hooks.predict = [engine, gate = hooks.predict](const Config& c, const Request& q) {
        PredictionView p = gate(c, q);
        addBreakdowns(*engine, c, q, p);
        return p;
    };
    hooks.search = [engine, run = hooks.search](const Request& q, const SpaceFilter& f,
                                                SearchAlgorithm a, const BudgetMargin& m,
                                                const SearchRunner::ProgressFn& progress,
                                                const std::atomic<bool>& stop) {
        SearchOutcome o = run(q, f, a, m, progress, stop);
        // The breakdowns do not depend on the budgets: the request as given serves.
        if (o.best)
            addBreakdowns(*engine, *o.best, q, o.bestPrediction);
        if (o.bestUniform)
            addBreakdowns(*engine, *o.bestUniform, q, o.bestUniformPrediction);
        return o;
    };
    // An index answer shows the same card as a search: its breakdowns too.
    hooks.indexBudgets = [engine, build = hooks.indexBudgets](
                             const Request& q, const SpaceFilter& f, SearchAlgorithm a,
                             const std::atomic<bool>& stop) -> ExplorerHooks::BudgetAnswerer {
        ExplorerHooks::BudgetAnswerer answer = build(q, f, a, stop);
        if (!answer)
            return {};
        return [engine, answer](const Request& r) {
            std::optional<SearchOutcome> o = answer(r);
            if (o && o->best)
                addBreakdowns(*engine, *o->best, r, o->bestPrediction);
            if (o && o->bestUniform)
                addBreakdowns(*engine, *o->bestUniform, r, o->bestUniformPrediction);
            return o;
        };
    };
    return {engine, std::move(ws), std::move(hooks), intervals};
}

std::optional<double> heldoutQualityMdape(const WorkspaceEngine& engine)
{
    const Workspace& ws = engine.workspace();
    if (ws.qualityFile.empty())
        return std::nullopt;
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    std::vector<double> predicted, measured;
    for (const QualityRow& row : set.rows)
        if (row.split == Split::Heldout) {
            predicted.push_back(
                engine.surrogate().predict(ws.models[static_cast<std::size_t>(row.model)],
                                           row.recipe, row.algorithm, row.lmHeadQuantized, row.kv));
            measured.push_back(row.rmqd);
        }
    startupMark("held-out quality MdAPE computed");
    if (measured.empty())
        return std::nullopt;
    return mdapePercent(predicted, measured);
}

std::string siliconFileOf(const Workspace& ws)
{
    if (ws.tablesDir.empty())
        return {};
    const std::filesystem::path file =
        std::filesystem::path(ws.tablesDir) / "silicon" / "dense_tp1.csv";
    std::error_code ec;
    return std::filesystem::is_regular_file(file, ec) ? file.string() : std::string();
}

StackFits stackFits(const WorkspaceEngine& engine, const Request& q)
{
    const Workspace& ws = engine.workspace();
    StackFits out;
    const std::string file = siliconFileOf(ws);
    if (file.empty()) {
        out.note = "No measured latency rows: the tables folder has no silicon/dense_tp1.csv.";
        return out;
    }
    const auto stack = ws.findStack(q.stack);
    std::vector<SiliconRow> rows;
    try {
        rows = loadSiliconCsv(file);
    } catch (const LoadError& e) {
        out.note = std::string("Cannot read the measured latency rows: ") + e.what();
        return out;
    }
    FitSeries ttft, tpot;
    int skipped = 0;
    for (const SiliconRow& row : rows) {
        SiliconMapping m = mapSiliconRow(ws, row);
        if (!m.ok || !stack || m.stack != *stack)
            continue;
        m.request.mode = q.mode;
        try {
            const LatencyEstimate e = engine.latencyEstimate(m.config, m.request);
            ttft.estimatedMs.push_back(e.ttftMs);
            tpot.estimatedMs.push_back(e.tpotMs);
            ttft.measuredMs.push_back(row.ttftMs);
            tpot.measuredMs.push_back(row.tpotMs);
        } catch (const std::invalid_argument&) {
            ++skipped; // e.g. not one request fits in memory under this serving model
        }
    }
    const std::string where = "Measured rows: " + file + " (AIC silicon, " +
                              (q.mode == ServingMode::Static ? "static" : "continuous") +
                              " serving estimates)";
    if (ttft.measuredMs.empty()) {
        out.note = "No measured latency rows for " + q.stack + " in " + file + ".";
        return out;
    }
    out.note = where + (skipped ? "; " + std::to_string(skipped) + " row(s) not predictable."
                                : std::string("."));
    const Calibration cal = engine.calibration(q.stack);
    const bool calibrated = !cal.identity();
    for (auto [series, metric, gamma, delta] :
         {std::tuple{&ttft, "TTFT", cal.gammaTtft, cal.deltaTtft},
          std::tuple{&tpot, "TPOT", cal.gammaTpot, cal.deltaTpot}}) {
        series->label = q.stack + " " + metric;
        series->rawMdapePercent = mdape(series->estimatedMs, series->measuredMs);
        series->calibrated = calibrated;
        series->gamma = gamma;
        series->delta = delta;
        if (calibrated) {
            std::vector<double> fitted;
            for (const double est : series->estimatedMs)
                fitted.push_back(std::exp(delta) * std::pow(est, gamma));
            series->mdapePercent = mdape(fitted, series->measuredMs);
        }
    }
    out.series = {std::move(ttft), std::move(tpot)};
    startupMark("measured rows estimated for the fit plot");
    return out;
}

std::string howSure(const StackFits& fits)
{
    if (fits.series.size() < 2 || fits.series[0].measuredMs.empty())
        return "no measured rows of this stack to say how far off the estimate is.";
    const FitSeries& ttft = fits.series[0];
    const FitSeries& tpot = fits.series[1];
    const auto percent = [](double p) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f %%", p);
        return std::string(buf);
    };
    const bool cal = ttft.calibrated;
    return std::string(cal ? "FMC-calibrated" : "raw estimate") + ", typical error TTFT " +
           percent(cal ? ttft.mdapePercent : ttft.rawMdapePercent) + ", TPOT " +
           percent(cal ? tpot.mdapePercent : tpot.rawMdapePercent) + " on the " +
           std::to_string(ttft.measuredMs.size()) + " measured rows of this stack.";
}

} // namespace acsel::studio
