#include "enginehooks.h"

#include "app/common/memoryfloor.h"
#include "core/model/requestcheck.h"
#include "core/model/units.h"
#include "core/search/explorer.h"
#include "core/search/gate.h"
#include "core/search/nearestmiss.h"
#include "core/search/recommend.h"
#include "core/search/searchalgorithm.h"
#include "core/search/sizing.h"
#include "viewmodel/explorerpoints.h"
#include "viewmodel/predictiontext.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace acsel::studio
{

using namespace acsel::gui;

namespace
{
SearchOptions optionsOf(const SpaceFilter& f)
{
    SearchOptions o;
    o.models = f.models;
    o.formats = f.formats;
    o.scopes = f.scopes;
    return o;
}

// Core treats an empty list as "everything"; in the panel an empty list means nothing checked.
bool emptySelection(const SpaceFilter& f)
{
    return f.models.empty() || f.formats.empty() || f.scopes.empty();
}

std::string over(const char* what, const QString& value, const QString& budget)
{
    return QStringLiteral("%1 %2 exceeds the budget %3")
        .arg(QLatin1String(what), value, budget)
        .toStdString();
}

// The gate's verdict in the window's fixed-point numbers ("TTFT 1460 ms exceeds the budget
// 1400 ms", not "1.46e+03 ms"); reasons without numbers are the gate's own.
std::string verdictOf(const Engine& e, const GateResult& g, const Request& q)
{
    switch (g.verdict) {
    case GateVerdict::Admitted:
        return "admitted";
    case GateVerdict::Memory: {
        const Workspace& ws = e.workspace();
        const auto s = ws.findStack(q.stack);
        const double budget =
            s ? memoryBudgetBytes(q, ws.platformOf(ws.stacks[static_cast<std::size_t>(*s)]))
              : q.memBudgetGiB * kGiB;
        // The estimate within the budget: what bound is the engine's memory at the launch
        // flag, and the gate's sentence says what it needs.
        if (g.prediction.memoryBytes <= budget)
            return "memory: " + g.reason;
        return over("memory", formatGiB(g.prediction.memoryBytes / kGiB), formatGiB(budget / kGiB));
    }
    case GateVerdict::Ttft:
        return over("TTFT", formatMs(g.prediction.ttftMs), formatMs(q.ttftBudgetMs));
    case GateVerdict::Tpot:
        return over("TPOT", formatMs(g.prediction.tpotMs), formatMs(q.tpotBudgetMs));
    case GateVerdict::NotExportable:
        break;
    }
    return g.reason;
}

PredictionView fromGate(const Engine& e, const Config& c, GateResult g, const Request& q)
{
    // The gate stops at the memory check; the window still shows where the configuration
    // would sit (its latencies), so its point does not jump to x = 0.
    if (g.verdict == GateVerdict::Memory) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        try {
            const LatencyMs raw = e.rawLatency(c, q);
            const LatencyMs cal = e.calibration(q.stack).apply(raw);
            g.prediction.rawTtftMs = raw.ttft;
            g.prediction.rawTpotMs = raw.tpot;
            g.prediction.ttftMs = cal.ttft;
            g.prediction.tpotMs = cal.tpot;
        } catch (const std::exception&) { // e.g. not one request fits under this serving model
            g.prediction.ttftMs = g.prediction.tpotMs = nan;
            g.prediction.rawTtftMs = g.prediction.rawTpotMs = nan;
        }
    }
    PredictionView p;
    if (g.verdict == GateVerdict::NotExportable) { // nothing was predicted: no numbers
        const double nan = std::numeric_limits<double>::quiet_NaN();
        g.prediction.ttftMs = g.prediction.tpotMs = g.prediction.memoryBytes = nan;
        g.prediction.rmqd = nan;
        g.prediction.rawTtftMs = g.prediction.rawTpotMs = nan;
        p.runnable = false;
    }
    static_cast<acsel::Prediction&>(p) = g.prediction;
    p.admitted = g.admitted();
    p.verdict = verdictOf(e, g, q);
    // Without an FMC line for the stack the prediction is the raw estimate: one row, not a
    // "calibrated" one equal to it.
    if (e.calibration(q.stack).identity()) {
        p.ttftBreakdownMs = {{"raw estimate", g.prediction.rawTtftMs}};
        p.tpotBreakdownMs = {{"raw estimate", g.prediction.rawTpotMs}};
    } else {
        p.ttftBreakdownMs = {{"calibrated (FMC)", g.prediction.ttftMs},
                             {"raw estimate", g.prediction.rawTtftMs}};
        p.tpotBreakdownMs = {{"calibrated (FMC)", g.prediction.tpotMs},
                             {"raw estimate", g.prediction.rawTpotMs}};
    }
    p.memoryBreakdownGiB = {{"total", p.memoryGiB()}};
    return p;
}

std::shared_ptr<const PointSet> score(const Engine& e, const Request& q, const SpaceFilter& f,
                                      std::size_t maxBandPoints,
                                      const ExplorerHooks::PointsFn& early,
                                      const std::atomic<bool>& stop)
{
    if (emptySelection(f))
        return emptyPointSet(e);
    const SearchOptions o = optionsOf(f);
    Explorer ex;
    // The uniform configurations first (about a millisecond): a frontier to draw while the
    // millions of band recipes are scored.
    if (early && ex.buildUniform(e, q, o, stop)) {
        auto first = pointSetOf(e, f.models, ex);
        first->provenance += " (uniform configurations only: the band configurations are "
                             "still being scored)";
        early(std::move(first));
    }
    if (!ex.build(e, q, o, maxBandPoints, stop))
        return emptyPointSet(e); // superseded: nobody will look at it
    return pointSetOf(e, f.models, ex);
}

// The card's outcome of a recommendation.
SearchOutcome outcomeOf(const Engine& e, const Recommendation& rec, const Request& q,
                        SearchAlgorithm a)
{
    SearchOutcome out;
    out.stats.algorithm = a;
    const SearchResult& r = rec.answer;
    out.best = r.config;
    if (r.config)
        out.bestPrediction = fromGate(e, *r.config, r.gate, q);
    if (rec.bestUniform) {
        out.bestUniform = rec.bestUniform->config;
        out.bestUniformPrediction = fromGate(e, rec.bestUniform->config, rec.bestUniform->gate, q);
    }
    out.stats.candidates = r.candidates;
    out.stats.screened = r.softEvaluations;
    out.stats.gated = r.fullEvaluations;
    out.stats.seconds = r.wallSeconds;
    return out;
}

// The core recommend use case (what acsel search runs): the searcher's answer and the best
// uniform configuration; the caveats are the card's and the banner's (rmqdExtrapolationNote).
// With a margin the gate sees the budgets less it, as acsel search --margin gates.
SearchOutcome search(const Engine& e, const Request& asked, const SpaceFilter& f, SearchAlgorithm a,
                     const BudgetMargin& margin, const SearchRunner::ProgressFn& progress,
                     const std::atomic<bool>& stop)
{
    SearchOutcome out;
    out.stats.algorithm = a;
    if (emptySelection(f))
        return out;
    const Workspace& ws = e.workspace();
    const auto s = ws.findStack(asked.stack);
    const Request q =
        s ? margin.apply(asked, ws.platformOf(ws.stacks[static_cast<std::size_t>(*s)])) : asked;
    const Recommendation rec = recommend(e, {q, optionsOf(f), a, 0, false}, progress, stop);
    if (stop.load())
        return out;
    out = outcomeOf(e, rec, q, a);
    if (!out.best) { // the card says why, exactly (a second or so on the largest spaces)
        out.nearestMiss = nearestMiss(e, asked, margin, optionsOf(f), stop);
        if (const auto w = app::memoryFloor(e, q, optionsOf(f)))
            out.memoryFloor = app::memoryFloorText(*w);
    }
    return out;
}

// The answerer of the request's workload from core's RecommendIndex: the same answer and best
// uniform as search() with Exact, for any budgets, in microseconds.
ExplorerHooks::BudgetAnswerer indexBudgets(std::shared_ptr<const Engine> e, const Request& q,
                                           const SpaceFilter& f, SearchAlgorithm a,
                                           const std::atomic<bool>& stop)
{
    if (!a.info().exact || emptySelection(f) || !BudgetIndex::applies(*e, q))
        return {};
    std::optional<RecommendIndex> built;
    try {
        built = RecommendIndex::build(*e, q, optionsOf(f), {}, stop);
    } catch (const std::length_error&) {
        return {}; // too large to index (a 1024-layer model): budgets are searched on release
    }
    if (!built)
        return {};
    auto index = std::make_shared<const RecommendIndex>(std::move(*built));
    return [e, index, a](const Request& r) -> std::optional<SearchOutcome> {
        if (!index->answers(*e, r))
            return std::nullopt;
        const Recommendation rec = index->recommend(*e, r);
        // Nothing fits: searched on a worker instead, which finds the nearest miss too.
        if (!rec.answer.config)
            return std::nullopt;
        SearchOutcome out = outcomeOf(*e, rec, r, a);
        out.stats.indexMembers = static_cast<std::int64_t>(index->bands().members());
        return out;
    };
}
std::vector<SizingOutcome> sizing(const Engine& e, const Request& q, const SpaceFilter& f,
                                  SearchAlgorithm a, const SearchRunner::ProgressFn& progress,
                                  const std::atomic<bool>& stop)
{
    std::vector<SizingOutcome> out;
    if (emptySelection(f))
        return out;
    for (const SizingRow& row : sizeByGpus(e, q, optionsOf(f), a, progress, stop)) {
        SizingOutcome o{row.gpus, row.result.config, {}};
        if (o.best) {
            Request sized = q;
            sized.gpus = row.gpus;
            o.prediction = fromGate(e, *o.best, row.result.gate, sized);
        }
        out.push_back(std::move(o));
    }
    return out;
}
} // namespace

ExplorerHooks makeEngineHooks(std::shared_ptr<const Engine> engine, std::size_t maxBandPoints)
{
    ExplorerHooks h;
    h.scoreSpace = [engine, maxBandPoints](const Request& q, const SpaceFilter& f,
                                           const ExplorerHooks::PointsFn& early,
                                           const std::atomic<bool>& stop) {
        return score(*engine, q, f, maxBandPoints, early, stop);
    };
    h.predict = [engine](const Config& c, const Request& q) {
        PredictionView p = fromGate(*engine, c, fullGate(*engine, c, q), q);
        // What the request cannot run is refused here as acsel predict refuses it (the core's
        // one check); the numbers stay, for the point's place.
        if (const ConfigProblem why = configProblem(c, q)) {
            p.admitted = false;
            p.verdict = why.message;
        }
        return p;
    };
    h.search = [engine](const Request& q, const SpaceFilter& f, SearchAlgorithm a,
                        const BudgetMargin& m, const SearchRunner::ProgressFn& p,
                        const std::atomic<bool>& stop) {
        return search(*engine, q, f, a, m, p, stop);
    };
    h.sizeByGpus = [engine](const Request& q, const SpaceFilter& f, SearchAlgorithm a,
                            const SearchRunner::ProgressFn& p, const std::atomic<bool>& stop) {
        return sizing(*engine, q, f, a, p, stop);
    };
    h.indexBudgets = [engine](const Request& q, const SpaceFilter& f, SearchAlgorithm a,
                              const std::atomic<bool>& stop) {
        return indexBudgets(engine, q, f, a, stop);
    };
    return h;
}

} // namespace acsel::studio
