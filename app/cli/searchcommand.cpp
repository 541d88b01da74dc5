#include "app/cli/searchcommand.h"

#include "app/cli/answerdetails.h"
#include "app/cli/fmcmodewarning.h"
#include "app/cli/nearestmisstext.h"
#include "app/cli/resultsfolder.h"
#include "app/cli/workspaceargs.h"
#include "app/common/args.h"
#include "app/common/memoryfloor.h"
#include "core/data/configjson.h"
#include "core/search/exactsearch.h"
#include "core/search/nearestmiss.h"
#include "core/search/recommend.h"
#include "core/search/sizing.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace acsel::cli
{

void readRequestFile(const std::string& path, const Workspace& ws, SearchRun& run,
                     std::optional<ServingMode> mode)
{
    const Json j = parseJsonFile(path);
    run.request = parseRequestJson(j, path, mode);
    stackOf(ws, run.request.stack, path); // fails when the workspace has no such stack
    if (j.contains("models")) {
        const JsonFields f(path);
        const Json& models = f.array(j, "models", "");
        if (models.empty())
            f.fail("/models", "expected at least one model name (omit the field for every model)");
        for (std::size_t i = 0; i < models.size(); ++i) {
            const std::string ptr = "/models/" + std::to_string(i);
            if (!models[i].is_string())
                f.fail(ptr, "expected a model name");
            const auto m = ws.findModel(models[i].get<std::string>());
            if (!m)
                f.fail(ptr, "unknown model '" + models[i].get<std::string>() + "'");
            if (std::find(run.options.models.begin(), run.options.models.end(), *m) !=
                run.options.models.end())
                f.fail(ptr, "model '" + models[i].get<std::string>() + "' is listed twice");
            run.options.models.push_back(*m);
        }
    }
}

void addResultsFolderOptions(std::vector<app::OptionSpec>& specs)
{
    specs.push_back({"save-dir", "DIR",
                     "also write the results folder: request, answer, top, frontier, plots, "
                     "recipes, launch script, summary.md"});
    specs.push_back({"force", "", "with --save-dir: replace the results in a non-empty folder"});
}

void addSizingOption(std::vector<app::OptionSpec>& specs)
{
    specs.push_back({"by-gpus", "",
                     "also the answer with 1, 2, 4 and 8 GPUs of one node (tensor parallel; "
                     "memory budget per GPU)"});
}

void readResultsFolderOptions(const app::Args& args, SearchRun& run)
{
    run.saveDir = args.valueOr("save-dir", "");
    run.force = args.flag("force");
    if (run.force && run.saveDir.empty())
        throw app::UsageError("acsel: --force is for --save-dir (give the folder too)");
    run.top = args.integer("top", run.saveDir.empty() ? 0 : 4, 0, 100);
    if (!run.saveDir.empty())
        checkResultsFolder(run.saveDir, run.force); // refuse before the search, not after
}

void addMarginOption(std::vector<app::OptionSpec>& specs)
{
    specs.push_back({"margin", "P",
                     "admit only configurations predicted at least P % inside every budget "
                     "(0 to below 100; default 0; composes with --confidence)"});
}

void readMarginOption(const app::Args& args, SearchRun& run)
{
    const auto v = args.value("margin");
    if (!v)
        return;
    double p = 0;
    const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), p);
    if (v->empty() || ec != std::errc() || end != v->data() + v->size() || !std::isfinite(p) ||
        !BudgetMargin{p}.valid())
        throw app::UsageError("acsel: --margin expects a percentage in [0, 100), got '" + *v + "'");
    run.marginPercent = p;
}

namespace
{

void printPrediction(std::ostream& out, const Engine& engine, const Config& c, const Prediction& p,
                     const Request& q)
{
    out << "  TTFT " << p.ttftMs << " ms (raw " << p.rawTtftMs << "), TPOT " << p.tpotMs
        << " ms (raw " << p.rawTpotMs << "), memory " << p.memoryBytes / kGiB << " GiB"
        << engineMemoryNote(engine, c, q) << ", RMQD " << std::setprecision(5) << p.rmqd
        << std::setprecision(2) << "\n";
    printThroughput(out, throughputOf(p.ttftMs, p.tpotMs, q.osl, q.concurrency, c.tp));
}

nlohmann::ordered_json alternativesJson(const WorkspaceEngine& engine, const Request& q,
                                        const std::vector<Alternative>& list,
                                        const std::vector<std::string>& notes)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const Alternative& a : list)
        out.push_back(configDocumentJson(makeConfigDocument(
            engine.workspace(), a.config, q, a.gate.prediction, predictionNote(notes))));
    return out;
}

void printAlternative(std::ostream& out, const Engine& engine, const Request& q,
                      const std::string& title, const Alternative& a)
{
    out << title << describeConfig(engine.workspace(), a.config) << "\n";
    printPrediction(out, engine, a.config, a.gate.prediction, q);
}

void printSizing(std::ostream& out, const WorkspaceEngine& engine, const Request& q,
                 const std::vector<SizingRow>& rows)
{
    out << "by GPUs (each row: the answer with that many GPUs of one node; memory per GPU):\n";
    if (!engine.supportsTp(q, 2))
        out << "  note: " << q.stack
            << " cannot cost an all-reduce: no model is split over GPUs, every row uses one\n";
    for (const SizingRow& row : rows) {
        const std::string title =
            "  " + std::to_string(row.gpus) + (row.gpus == 1 ? " GPU:  " : " GPUs: ");
        if (!row.result.config) {
            out << title << "none passes the gate\n";
            continue;
        }
        Request sized = q;
        sized.gpus = row.gpus;
        printAlternative(out, engine, sized, title,
                         Alternative{*row.result.config, row.result.gate});
    }
}

nlohmann::ordered_json sizingJson(const WorkspaceEngine& engine, const Request& q,
                                  const std::vector<SizingRow>& rows,
                                  const std::vector<std::string>& notes)
{
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const SizingRow& row : rows) {
        Request sized = q;
        sized.gpus = row.gpus;
        nlohmann::ordered_json j = {{"gpus", row.gpus}, {"answer", nullptr}};
        if (row.result.config)
            j["answer"] = configDocumentJson(
                makeConfigDocument(engine.workspace(), *row.result.config, sized,
                                   row.result.gate.prediction, predictionNote(notes)));
        out.push_back(std::move(j));
    }
    return out;
}

} // namespace

int runSearchAndPrint(const WorkspaceEngine& engine, const SearchRun& run, CommandIo& io)
{
    const auto algorithm = run.algorithm.empty() ? std::optional(defaultSearchAlgorithm())
                                                 : SearchAlgorithm::parse(run.algorithm);
    if (!algorithm)
        throw app::UsageError("acsel search: unknown --algo '" + run.algorithm + "' (expected " +
                              searchAlgorithmChoices() + ")");
    const Workspace& ws = engine.workspace();
    // The callers checked the stack: the request was read against this workspace.
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*ws.findStack(run.request.stack))];
    const BudgetMargin margin{run.marginPercent};
    // The gate sees the budgets less the margin; request.json keeps the ones given.
    const Request gated = margin.apply(run.request, ws.platformOf(stack));
    const auto fmcMode = engine.calibrationMode(run.request.stack);
    if (fmcMode)
        io.err << fmcModeWarning(run.request.stack, *fmcMode, run.request.mode, "the request");
    const std::atomic<bool> noStop{false};
    const bool saving = !run.saveDir.empty();
    RecommendRequest rq{gated, run.options, *algorithm, run.top, run.frontier || saving};
    const Recommendation rec = recommend(engine, rq, {}, noStop);
    const SearchResult& r = rec.answer;
    // The model caveat goes to stderr as a warning; the synthetic-data one is in the
    // "quality:" line (text) or the prediction note (JSON).
    for (const std::string& n : rec.notes)
        if (isExtrapolationNote(n))
            io.err << "warning: " << n << "\n";
    // Every output names where the latencies come from: the text, the JSON's prediction note
    // (and so answer.json and the exported recipe's header), summary.md.
    std::vector<std::string> jsonNotes{engine.provenance(run.request.stack)};
    const std::string marginText = marginNote(run.request, gated, margin);
    if (!marginText.empty())
        jsonNotes.push_back(marginText);
    for (const std::string& n : rec.notes)
        jsonNotes.push_back(
            isExtrapolationNote(n) ? "no quality data of this model: its RMQD is extrapolated" : n);
    const std::vector<SizingRow> sizing =
        run.byGpus ? sizeByGpus(engine, gated, run.options, *algorithm, {}, noStop)
                   : std::vector<SizingRow>{};
    // Nothing fits: per budget, the nearest miss (an exact searcher's empty answer; another
    // searcher may miss what the exact search finds, and says so instead).
    std::optional<NearestMiss> miss;
    bool exactAnswers = false;
    if (!r.config) {
        exactAnswers = !algorithm->info().exact &&
                       ExactSearch().run(engine, gated, run.options, {}, noStop).config;
        if (!exactAnswers)
            miss = nearestMiss(engine, run.request, margin, run.options, noStop);
    }
    // Memory rules out everything: the plainest reason, under the budgets' lines.
    const std::optional<app::MemoryFloor> floor =
        miss ? app::memoryFloor(engine, gated, run.options) : std::nullopt;
    const NearestMiss none;
    const NearestMissInput missInput{engine,
                                     run.request,
                                     margin,
                                     miss ? *miss : none,
                                     predictionNote(jsonNotes),
                                     floor ? app::memoryFloorText(*floor) : ""};
    std::vector<std::string> missLines;
    if (miss)
        missLines = nearestMissLines(missInput);
    else if (exactAnswers)
        missLines.push_back("the exact search answers this request: --algo exact");
    std::string saved; // the text's last line; on stderr with --json (stdout has the document)
    if (saving) {
        const auto files = writeResultsFolder(
            run.saveDir, {engine, run, rec, jsonNotes, gated, marginText, missLines, sizing},
            io.err);
        saved = "saved: " + run.saveDir + " (" + std::to_string(files.size()) +
                " files; summary.md says what each is)\n";
    }
    if (run.json) {
        io.err << saved;
        if (!r.config) {
            io.err << "acsel search: no configuration passes the gate\n";
            for (const std::string& line : missLines)
                io.err << line << "\n";
            nlohmann::ordered_json j;
            j["answer"] = nullptr;
            if (margin.percent > 0)
                j["margin_percent"] = margin.percent;
            if (miss)
                j["nearest_miss"] = nearestMissJson(missInput);
            if (floor)
                j["memory_floor"] = missInput.memoryFloor;
            if (run.byGpus)
                j["by_gpus"] = sizingJson(engine, gated, sizing, jsonNotes);
            io.out << j.dump(2) << "\n";
            return 3;
        }
        nlohmann::ordered_json j = configDocumentJson(
            makeConfigDocument(ws, *r.config, gated, r.gate.prediction, predictionNote(jsonNotes)));
        if (run.top > 0)
            j["top"] = alternativesJson(engine, gated, rec.top, jsonNotes);
        if (run.frontier)
            j["frontier"] = alternativesJson(engine, gated, rec.frontier, jsonNotes);
        if (run.byGpus)
            j["by_gpus"] = sizingJson(engine, gated, sizing, jsonNotes);
        io.out << j.dump(2) << "\n";
        return 0;
    }
    const Request& q = gated;
    io.out << std::fixed << std::setprecision(2);
    printRequestLine(io.out, run.request, ws.platformOf(stack));
    if (!marginText.empty())
        io.out << marginText << "\n";
    io.out << "latency calibration: " << engine.calibrationSource(q.stack) << "\n";
    io.out << "latency source: " << engine.latencySource(q.stack) << "\n";
    io.out << "quality: " << engine.surrogateSource() << "\n";
    io.out << "search: " << r.algorithm << ", " << r.candidates << " candidate recipes, "
           << r.softEvaluations << " FracMix scores, " << r.fullEvaluations << " full gates, "
           << r.wallSeconds * 1e3 << " ms\n";
    if (!r.config) {
        io.out << "answer: none: no configuration passes the gate\n";
        if (run.byGpus)
            printSizing(io.out, engine, q, sizing);
        io.out << saved;
        for (const std::string& line : missLines)
            io.err << line << "\n";
        return 3;
    }
    printAlternative(io.out, engine, q, "answer: ", Alternative{*r.config, r.gate});
    io.out << "  gate: " << toString(r.gate.verdict) << "\n";
    if (rec.bestUniform) {
        const Prediction& u = rec.bestUniform->gate.prediction;
        printAlternative(io.out, engine, q, "best uniform: ", *rec.bestUniform);
        io.out << "  band vs uniform: RMQD " << std::setprecision(5)
               << r.gate.prediction.rmqd - u.rmqd << std::setprecision(2) << ", TTFT "
               << r.gate.prediction.ttftMs - u.ttftMs << " ms, TPOT "
               << r.gate.prediction.tpotMs - u.tpotMs << " ms\n";
    } else {
        io.out << "best uniform: none passes the gate\n";
    }
    for (std::size_t i = 0; i < rec.top.size(); ++i)
        printAlternative(io.out, engine, q, "alternative " + std::to_string(i + 1) + ": ",
                         rec.top[i]);
    if (run.frontier) {
        io.out << "frontier: " << rec.frontier.size() << " admitted configurations\n";
        for (const Alternative& a : rec.frontier)
            printAlternative(io.out, engine, q, "  ", a);
    }
    if (run.byGpus)
        printSizing(io.out, engine, q, sizing);
    io.out << saved;
    return 0;
}

} // namespace acsel::cli
