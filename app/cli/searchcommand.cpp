#include "app/cli/searchcommand.h"

#include "app/cli/fmcmodewarning.h"
#include "app/common/args.h"
#include "core/data/configjson.h"
#include "core/data/loaderror.h"
#include "core/search/exactsearch.h"

#include <algorithm>
#include <iomanip>
#include <ostream>

namespace acsel::cli
{

void readRequestFile(const std::string& path, const Workspace& ws, SearchRun& run)
{
    const Json j = parseJsonFile(path);
    run.request = parseRequestJson(j, path);
    if (!ws.findStack(run.request.stack))
        throw LoadError(path, "/stack",
                        "unknown stack '" + run.request.stack +
                            "' (acsel info lists the workspace's stacks)");
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

namespace
{

void printPrediction(std::ostream& out, const Prediction& p)
{
    out << "  TTFT " << p.ttftMs << " ms (raw " << p.rawTtftMs << "), TPOT " << p.tpotMs
        << " ms (raw " << p.rawTpotMs << "), memory " << p.memoryBytes / kGiB << " GiB, RMQD "
        << std::setprecision(5) << p.rmqd << std::setprecision(2) << "\n";
}

std::string describe(const Workspace& ws, const Config& c)
{
    return ws.models[static_cast<std::size_t>(c.model)].name + ", batch " +
           std::to_string(c.batch) + ", " + c.recipe.describe() + ", " +
           std::string(toString(c.algorithm)) + ", KV " + std::string(toString(c.kv));
}

// The answer's model had no rows in the quality data: the surrogate predicts it from the
// other models' shared trend, which can rank it anywhere (docs/QUALITY.md 3).
std::string extrapolationWarning(const WorkspaceEngine& engine, const ModelArch& model)
{
    if (!engine.surrogate().extrapolatesModel(model.name))
        return {};
    return "warning: the quality data has no rows of " + model.name +
           ": its predicted RMQD is the other models' trend over log(params), not its own; "
           "measure a few of its configurations (acsel rmqd) before trusting the answer\n";
}

} // namespace

int runSearchAndPrint(const WorkspaceEngine& engine, const SearchRun& run, CommandIo& io)
{
    const auto searcher = makeSearcher(run.algorithm);
    if (!searcher)
        throw app::UsageError("acsel search: unknown --algo '" + run.algorithm +
                              "' (expected bp, exact, hc or rand)");
    const Workspace& ws = engine.workspace();
    const auto fmcMode = engine.calibrationMode(run.request.stack);
    if (fmcMode)
        io.err << fmcModeWarning(run.request.stack, *fmcMode, run.request.mode, "the request");
    const std::atomic<bool> noStop{false};
    const SearchResult r = searcher->run(engine, run.request, run.options, {}, noStop);
    const std::string extrapolated =
        r.config
            ? extrapolationWarning(engine, ws.models[static_cast<std::size_t>(r.config->model)])
            : std::string();
    io.err << extrapolated;
    if (run.json) {
        if (!r.config) {
            io.err << "acsel search: no configuration passes the gate\n";
            return 3;
        }
        const Prediction& p = r.gate.prediction;
        Predictions pred{p.ttftMs, p.tpotMs, p.memoryBytes / kGiB, p.rmqd, {}};
        if (engine.qualitySynthetic())
            pred.note = "RMQD predicted by a surrogate fitted on SYNTHETIC quality data";
        if (!extrapolated.empty())
            pred.note += std::string(pred.note.empty() ? "" : "; ") +
                         "no quality data of this model: its RMQD is extrapolated";
        io.out << writeConfigJson(makeConfigDocument(ws, *r.config, run.request, pred));
        return 0;
    }
    const Request& q = run.request;
    io.out << std::fixed << std::setprecision(2);
    io.out << "request: " << q.stack << ", isl " << q.isl << ", osl " << q.osl << ", concurrency "
           << q.concurrency << ", " << toString(q.mode) << " serving; TTFT <= " << q.ttftBudgetMs
           << " ms, TPOT <= " << q.tpotBudgetMs << " ms, memory <= " << q.memBudgetGiB << " GiB\n";
    io.out << "latency calibration: " << engine.calibrationSource(q.stack) << "\n";
    io.out << "quality: " << engine.surrogateSource() << "\n";
    io.out << "search: " << r.algorithm << ", " << r.candidates << " candidate recipes, "
           << r.softEvaluations << " FracMix scores, " << r.fullEvaluations << " full gates, "
           << r.wallSeconds * 1e3 << " ms\n";
    if (!r.config) {
        io.out << "answer: none: no configuration passes the gate\n";
        return 3;
    }
    io.out << "answer: " << describe(ws, *r.config) << "\n";
    printPrediction(io.out, r.gate.prediction);
    io.out << "  gate: " << toString(r.gate.verdict) << "\n";
    // The uniform comparison: the best one-band configuration for the same request.
    SearchOptions uniform = run.options;
    uniform.maxBands = 1;
    const SearchResult u = ExactSearch().run(engine, q, uniform, {}, noStop);
    if (u.config) {
        io.out << "best uniform: " << describe(ws, *u.config) << "\n";
        printPrediction(io.out, u.gate.prediction);
        io.out << "  band vs uniform: RMQD " << std::setprecision(5)
               << r.gate.prediction.rmqd - u.gate.prediction.rmqd << std::setprecision(2)
               << ", TTFT " << r.gate.prediction.ttftMs - u.gate.prediction.ttftMs << " ms, TPOT "
               << r.gate.prediction.tpotMs - u.gate.prediction.tpotMs << " ms\n";
    } else {
        io.out << "best uniform: none passes the gate\n";
    }
    return 0;
}

} // namespace acsel::cli
