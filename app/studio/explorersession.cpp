#include "explorersession.h"

#include "core/data/loaderror.h"
#include "core/data/qualityset.h"
#include "core/data/silicon.h"
#include "core/data/workspacefile.h"
#include "core/latency/fmc.h"
#include "core/model/configspace.h"
#include "core/quality/qualityreport.h"
#include "core/search/recommend.h"
#include "enginehooks.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <tuple>

namespace acsel::studio
{

using namespace acsel::gui;
using acsel::gui::Prediction; // not the gate's acsel::Prediction

namespace
{
struct Scored {
    std::shared_ptr<const PointSet> points;
    double seconds;
};
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
std::atomic<const QElapsedTimer*> startupClock{nullptr};

// The raw estimate's operator classes, plus what calibration and the serving model add on top
// (so each column sums to the prediction shown above it).
Breakdown operatorRows(const StepBreakdown& s, int bands, double predictedMs)
{
    Breakdown rows;
    double sum = 0;
    auto add = [&rows, &sum](std::string name, double ms) {
        rows.emplace_back(std::move(name), ms);
        sum += ms;
    };
    for (int b = 0; b < bands; ++b)
        add("GEMMs, band " + std::to_string(b + 1), s.gemmByBand[static_cast<std::size_t>(b)]);
    add("attention", s.attention);
    add("norms, residuals, activation", s.memoryOps);
    add("lm_head", s.lmHead);
    add("embedding", s.embedding);
    add("band-boundary conversions", s.conversion);
    if (std::abs(predictedMs - sum) > 1e-6 * std::max(1.0, predictedMs))
        rows.emplace_back("calibration and serving", predictedMs - sum);
    return rows;
}

// The engine's operator and memory breakdowns in place of the gate's totals.
void addBreakdowns(const WorkspaceEngine& e, const Config& c, const Request& q, Prediction& p)
{
    const LatencyEstimate l = e.latencyEstimate(c, q);
    p.ttftBreakdownMs = operatorRows(l.prefill, c.recipe.size(), p.ttftMs);
    p.tpotBreakdownMs = operatorRows(l.decode, c.recipe.size(), p.tpotMs);
    const MemoryEstimate m = e.memoryEstimate(c, q);
    p.memoryBreakdownGiB = {
        {"decoder weights", m.weightBytes / kGiB}, {"embedding", m.embeddingBytes / kGiB},
        {"lm_head", m.lmHeadBytes / kGiB},         {"KV cache", m.kvCacheBytes / kGiB},
        {"activations", m.activationBytes / kGiB}, {"runtime", m.runtimeBytes / kGiB}};
    if (m.servingReserveBytes > 0) // continuous batching: the KV pool's share for one request
        p.memoryBreakdownGiB.push_back({"serving reserve", m.servingReserveBytes / kGiB});
}

bool sameSpace(const Request& a, const Request& b)
{
    return a.stack == b.stack && a.isl == b.isl && a.osl == b.osl &&
           a.concurrency == b.concurrency && a.mode == b.mode;
}
} // namespace

ExplorerSession::ExplorerSession(QObject* parent)
    : QObject(parent), scoring_(new SearchRunner(this)), search_(new SearchRunner(this)),
      kick_(new QTimer(this))
{
    kick_->setSingleShot(true);
    kick_->setInterval(0);
    connect(kick_, &QTimer::timeout, this, &ExplorerSession::startQueued);
    connect(scoring_, &SearchRunner::failed, this, [this](int, const QString& m) {
        emit searchFailed(m);
        startQueued();
    });
    connect(search_, &SearchRunner::cancelled, this, [this] { searched_.reset(); });
    connect(search_, &SearchRunner::failed, this, [this](int, const QString& m) {
        searched_.reset(); // the same request may be tried again
        emit searchFailed(m);
    });
}

void ExplorerSession::setWorkspace(std::shared_ptr<const Workspace> ws, ExplorerHooks hooks)
{
    scoring_->cancel();
    search_->cancel();
    kick_->stop();
    rescoreQueued_ = searchQueued_ = false;
    searched_.reset();
    ws_ = std::move(ws);
    hooks_ = std::move(hooks);
}

void ExplorerSession::setRequest(const Request& r)
{
    const bool rescore = !sameSpace(r, request_);
    request_ = r;
    if (rescore)
        queueRescore();
}

void ExplorerSession::setFilter(const SpaceFilter& f)
{
    filter_ = f;
    queueRescore();
    startSearch();
}

void ExplorerSession::setAlgorithm(SearchAlgorithmChoice a)
{
    algorithm_ = a;
    startSearch();
}

void ExplorerSession::start(const Request& r, const SpaceFilter& f, SearchAlgorithmChoice a)
{
    request_ = r;
    filter_ = f;
    algorithm_ = a;
    searched_.reset();
    queueRescore();
    startSearch();
}

void ExplorerSession::queueRescore()
{
    if (!hooks_.scoreSpace)
        return;
    scoring_->cancel(); // its points are stale now
    rescoreQueued_ = true;
    kick_->start();
}

void ExplorerSession::startSearch()
{
    if (!hooks_.search)
        return;
    if (!searchQueued_ && searched_ == key())
        return; // e.g. the panel settling on the request the workspace opened with
    search_->cancel();
    searched_.reset();
    searchQueued_ = true;
    kick_->start();
}

void ExplorerSession::firstFrameShown()
{
    if (!scoring_->isRunning() || firstFrameDrawn_)
        return;
    firstFrameDrawn_ = true;
    if (searchQueued_)
        kick_->start();
}

void ExplorerSession::startQueued()
{
    if (rescoreQueued_) {
        rescoreQueued_ = false;
        firstFrameDrawn_ = false;
        const SearchRunner::Handler<Scored> drawn = [this](int, const Scored& s) {
            emit pointsReady(s.points, s.seconds);
        };
        const SearchRunner::Handler<Scored> scored = [this, drawn](int job, const Scored& s) {
            drawn(job, s);
            startQueued(); // a search waiting for the points
        };
        scoring_->start<Scored>(
            [score = hooks_.scoreSpace, r = request_, f = filter_](
                const SearchRunner::ProgressFn&, const SearchRunner::PublishFn<Scored>& publish,
                const std::atomic<bool>& stop) {
                const auto t0 = std::chrono::steady_clock::now();
                const auto since = [t0] {
                    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                        .count();
                };
                startupMark("scoring started");
                auto points = score(
                    r, f,
                    [&](std::shared_ptr<const PointSet> early) {
                        startupMark("uniform points scored: " +
                                    std::to_string(early->points.size()) + " points");
                        publish(Scored{std::move(early), since()});
                    },
                    stop);
                startupMark("scoring done: " + std::to_string(points->points.size()) + " points");
                return Scored{points, since()};
            },
            scored, drawn); // the uniform configurations first, a first frame
    }
    // The search starts once the first frame (the uniform configurations) is on screen: it then
    // shares the cores with the rest of the scoring, and its answer (tens of milliseconds of
    // Exact) arrives long before the millions of band points are scored. Not before: on two
    // cores the first paint of the window would wait for it.
    if (searchQueued_ && (!scoring_->isRunning() || firstFrameDrawn_)) {
        searchQueued_ = false;
        runSearch();
    }
}

void ExplorerSession::runSearch()
{
    const SearchKey key = this->key();
    searched_ = key;
    search_->start<SearchOutcome>(
        [search = hooks_.search, key](const SearchRunner::ProgressFn& progress,
                                      const std::atomic<bool>& stop) {
            startupMark("search started");
            SearchOutcome o = search(key.request, key.filter, key.algorithm, progress, stop);
            startupMark("search done: " + std::to_string(o.stats.candidates) + " candidates");
            return o;
        },
        [this, key](int, const SearchOutcome& o) { emit searchFinished(o, key); });
}

SearchKey ExplorerSession::key() const
{
    return {request_, filter_, resolvedAlgorithm(algorithm_, request_.mode)};
}

std::optional<Prediction> ExplorerSession::predict(const Config& c) const
{
    if (!hooks_.predict)
        return std::nullopt;
    return hooks_.predict(c, request_);
}

void setStartupClock(const QElapsedTimer* sinceStart)
{
    startupClock.store(sinceStart);
}

void startupMark(const std::string& what)
{
    if (const QElapsedTimer* clock = startupClock.load())
        std::fprintf(stderr, "startup %7.1f ms  %s\n",
                     static_cast<double>(clock->nsecsElapsed()) / 1e6, what.c_str());
}

LoadedEngine loadEngine(const std::string& workspaceFile, const std::string& tablesDir,
                        const std::string& fmcFile)
{
    EngineSources sources;
    sources.fmcFile = fmcFile;
    Workspace loaded = loadWorkspace(workspaceFile, tablesDir);
    startupMark("workspace loaded (" + std::to_string(loaded.stacks.size()) + " stacks, " +
                std::to_string(loaded.models.size()) + " models)");
    auto engine = std::make_shared<const WorkspaceEngine>(std::move(loaded), sources);
    startupMark("engine built (quality surrogate fitted, FMC read)");
    std::shared_ptr<const Workspace> ws(engine, &engine->workspace());
    ExplorerHooks hooks = makeEngineHooks(engine);
    hooks.predict = [engine, gate = hooks.predict](const Config& c, const Request& q) {
        Prediction p = gate(c, q);
        addBreakdowns(*engine, c, q, p);
        return p;
    };
    hooks.search = [engine, run = hooks.search](
                       const Request& q, const SpaceFilter& f, SearchAlgorithm a,
                       const SearchRunner::ProgressFn& progress, const std::atomic<bool>& stop) {
        SearchOutcome o = run(q, f, a, progress, stop);
        if (o.best)
            addBreakdowns(*engine, *o.best, q, o.bestPrediction);
        if (o.bestUniform)
            addBreakdowns(*engine, *o.bestUniform, q, o.bestUniformPrediction);
        return o;
    };
    return {engine, std::move(ws), std::move(hooks)};
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
        // As the latency study: fp8 checkpoints are served with an fp8 KV cache.
        const Format f = m.config.recipe[0].format;
        if ((f == Format::Fp8 || f == Format::Fp8Block) &&
            ws.stacks[static_cast<std::size_t>(*stack)].kvFp8)
            m.config.kv = KvFormat::Fp8;
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

QStringList bannerLines(const Workspace& ws, const ExplorerHooks& hooks, bool fmcLoaded,
                        bool qualitySynthetic)
{
    // What makes the numbers less than measured first, then the workspace's own notes.
    QStringList lines;
    if (!hooks.connected())
        lines << QObject::tr("No prediction engine: the plot stays empty.");
    if (qualitySynthetic)
        lines << QObject::tr("RMQD comes from the quality surrogate fitted on this workspace's "
                             "SYNTHETIC quality set: the quality axis is illustrative, not "
                             "measured.");
    if (hooks.connected() && !fmcLoaded)
        lines << QObject::tr("Latency is the raw operator-model estimate: no FMC calibration "
                             "loaded (File > Open FMC calibration...).");
    for (const std::string& n : ws.notes)
        lines << QString::fromStdString(n);
    return lines;
}

QString servingModelMismatch(const WorkspaceEngine& engine, const Request& q)
{
    const auto fitted = engine.calibrationMode(q.stack);
    const std::string_view asked = toString(q.mode);
    if (!fitted || *fitted == asked)
        return {};
    return QObject::tr("The FMC line of %1 was fitted on the %2 serving model, the request uses "
                       "the %3 one: its calibrated latencies correct the wrong estimate. Switch "
                       "the serving mode or load an FMC file fitted on the %3 model.")
        .arg(QString::fromStdString(q.stack), QString::fromStdString(*fitted),
             QString::fromUtf8(asked.data(), static_cast<qsizetype>(asked.size())));
}

QString rmqdExtrapolationNote(const WorkspaceEngine& engine, const std::string& model)
{
    const std::vector<ModelArch>& models = engine.workspace().models;
    const auto it = std::find_if(models.begin(), models.end(),
                                 [&model](const ModelArch& m) { return m.name == model; });
    if (it == models.end())
        return {};
    // acsel search's words (core's recommend caveat), as a sentence.
    QString note = QString::fromStdString(
        extrapolationNote(engine, static_cast<int>(std::distance(models.begin(), it))));
    if (!note.isEmpty())
        note = note.front().toUpper() + note.mid(1) + QLatin1Char('.');
    return note;
}

std::string predictionsNote(const WorkspaceEngine& engine, const std::string& model)
{
    std::string note;
    if (engine.qualitySynthetic())
        note = "RMQD from the surrogate fitted on synthetic quality data";
    if (engine.surrogate().extrapolatesModel(model))
        note += std::string(note.empty() ? "" : "; ") +
                "no quality data of this model: its RMQD is extrapolated";
    return note;
}

QString extrapolatedModelsLine(const WorkspaceEngine& engine)
{
    QStringList models;
    for (const ModelArch& m : engine.workspace().models)
        if (engine.surrogate().extrapolatesModel(m.name))
            models << QString::fromStdString(m.name);
    if (models.isEmpty())
        return {};
    return models.size() == 1
               ? QObject::tr("RMQD extrapolated: %1 has no quality rows in the quality set; its "
                             "RMQD is the other models' trend, not its own.")
                     .arg(models.front())
               : QObject::tr("RMQD extrapolated: %1 have no quality rows in the quality set; "
                             "their RMQD is the other models' trend, not their own.")
                     .arg(models.join(QStringLiteral(", ")));
}

std::string defaultStack(const Workspace& ws)
{
    for (const char* id : {"jetson_agx_thor/vllm", "rtx_a6000/trtllm", "h100_sxm/trtllm"})
        if (ws.findStack(id))
            return id;
    const Stack* best = nullptr;
    for (const Stack& s : ws.stacks)
        if (!best || s.formats.size() > best->formats.size())
            best = &s;
    return best ? best->id : std::string();
}

SpaceFilter defaultFilter(const Workspace& ws, const std::string& stack)
{
    SpaceFilter f;
    std::string family = "qwen3";
    if (std::none_of(ws.models.begin(), ws.models.end(),
                     [&](const ModelArch& m) { return m.family == family; }) &&
        !ws.models.empty())
        family = ws.models.front().family;
    for (std::size_t i = 0; i < ws.models.size(); ++i)
        if (ws.models[i].family == family)
            f.models.push_back(static_cast<int>(i));
    if (const auto s = ws.findStack(stack))
        f.formats = ws.stacks[static_cast<std::size_t>(*s)].formats;
    f.scopes = {Scope::Full, Scope::Mlp, Scope::Attn};
    return f;
}

Request defaultRequest(const Workspace& ws, const ExplorerHooks& hooks, const SpaceFilter& filter,
                       const std::string& stack)
{
    Request r;
    r.stack = stack;
    r.isl = 1024;
    r.osl = 256;
    r.concurrency = 4;
    const auto si = ws.findStack(stack);
    if (!hooks.predict || !si)
        return r;
    const Stack& s = ws.stacks[static_cast<std::size_t>(*si)];
    const auto has = [&s](Format f) {
        return std::find(s.formats.begin(), s.formats.end(), f) != s.formats.end();
    };
    const Format anchor = has(Format::Fp8) ? Format::Fp8 : Format::Int8;
    if (!has(anchor))
        return r;
    const double capGiB = ws.platformOf(s).memCapacityBytes / kGiB;
    std::vector<int> models = filter.models;
    std::sort(models.begin(), models.end(), [&ws](int a, int b) {
        return ws.models[static_cast<std::size_t>(a)].paramCount() >
               ws.models[static_cast<std::size_t>(b)].paramCount();
    });
    Request open = r; // budgets that admit anything: only the predictions matter here
    open.ttftBudgetMs = open.tpotBudgetMs = open.memBudgetGiB = 1e12;
    for (const int m : models) {
        Config c;
        c.model = m;
        c.batch = r.concurrency;
        c.recipe = BandRecipe::uniform(ws.models[static_cast<std::size_t>(m)].layers, anchor);
        const auto fits = ConfigSpace::fittingAlgorithms(c.recipe);
        if (fits.empty())
            continue;
        c.algorithm = fits.front();
        const Prediction p = hooks.predict(c, open);
        if (capGiB > 0 && p.memoryGiB > 0.9 * capGiB)
            continue;
        constexpr double kMargin = 1.1;
        r.ttftBudgetMs = p.ttftMs * kMargin;
        r.tpotBudgetMs = p.tpotMs * kMargin;
        r.memBudgetGiB =
            capGiB > 0 ? std::min(capGiB, p.memoryGiB * kMargin) : p.memoryGiB * kMargin;
        startupMark("default request predicted (operator tables of " + stack + " loaded)");
        break;
    }
    return r;
}

} // namespace acsel::studio
