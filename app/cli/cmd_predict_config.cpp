#include "app/cli/answerdetails.h"
#include "app/cli/engineargs.h"
#include "app/cli/fmcmodewarning.h"
#include "app/cli/predictconfig.h"
#include "app/cli/workspaceargs.h"
#include "core/data/configjson.h"
#include "core/data/loaderror.h"
#include "core/search/gate.h"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <stdexcept>

namespace acsel::cli
{

bool asksForConfigPrediction(const std::vector<std::string>& argv)
{
    for (const std::string& a : argv)
        if (a == "--config" || a.rfind("--config=", 0) == 0)
            return true;
    return false;
}

namespace
{

struct LatencyDetails {
    LatencyEstimate raw;
    LatencyMs calibrated;
};

// The full estimate even when the gate stopped before latency (memory), so that a rejected
// configuration still shows how fast it would be; none when the stack cannot run it.
std::optional<LatencyDetails> latencyOf(const WorkspaceEngine& e, const Config& c, const Request& q,
                                        const GateResult& g)
{
    if (g.verdict == GateVerdict::NotExportable)
        return std::nullopt;
    try {
        LatencyDetails d{e.latencyEstimate(c, q), {}};
        d.calibrated = e.calibration(q.stack).apply({d.raw.ttftMs, d.raw.tpotMs});
        return d;
    } catch (const std::invalid_argument&) {
        return std::nullopt;
    }
}

Json rowsJson(const BreakdownRows& rows, const char* unit)
{
    Json a = Json::array();
    for (const auto& [part, value] : rows)
        a.push_back({{"part", part}, {unit, value}});
    return a;
}

void printRows(std::ostream& out, const char* title, const BreakdownRows& rows, int digits)
{
    out << title << "\n" << std::fixed << std::setprecision(digits);
    for (const auto& [part, value] : rows)
        out << "    " << std::left << std::setw(30) << part << std::right << std::setw(10) << value
            << "\n";
}

} // namespace

int runPredictConfig(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = engineOptions();
    specs.push_back({"config", "FILE", "configuration JSON (what acsel search --json prints)"});
    specs.push_back({"request", "FILE",
                     "request JSON to predict it for (default: the configuration's own request)"});
    specs.push_back({"json", "", "print JSON instead of text"});
    const app::Args args("predict --config FILE", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage() << "exit codes: 0 predicted (whatever the gate says), 2 bad input\n";
        return 0;
    }
    const std::string configPath = args.require("config");
    ConfigDocument doc = loadConfigJson(configPath);
    const auto engine = loadEngineFromArgs(args);
    const Workspace& ws = engine->workspace();
    resolveModel(doc, ws, configPath);
    std::string requestSource = configPath;
    if (const auto file = args.value("request")) {
        doc.request = parseRequestJson(parseJsonFile(*file), *file);
        requestSource = *file;
    }
    const Request& q = doc.request;
    applyConfidence(args, *engine, q);
    const Stack& stack = stackOf(ws, q.stack, requestSource);
    const Platform& gpu = ws.platformOf(stack);
    if (const auto fmcMode = engine->calibrationMode(q.stack))
        io.err << fmcModeWarning(q.stack, *fmcMode, q.mode, "the request");

    const Config& c = doc.config;
    // Tensor parallelism: a degree the request's GPUs and the stack's tables can serve (the
    // configuration file's own request was checked when it was read).
    if (c.tp > q.gpus)
        throw LoadError(requestSource, "/request/gpus",
                        "the configuration's tp " + std::to_string(c.tp) + " needs at least " +
                            std::to_string(c.tp) + " GPUs, the request has " +
                            std::to_string(q.gpus));
    if (!engine->supportsTp(q, c.tp))
        throw LoadError(configPath, "/config/tp",
                        "tp " + std::to_string(c.tp) + " cannot be costed on " + stack.id +
                            ": it has no all-reduce tables (<version>/custom_allreduce_perf.csv "
                            "or <system>/nccl_perf.csv) and its GPU no interconnect in the "
                            "platforms file");
    const GateResult g = fullGate(*engine, c, q);
    const auto latency = latencyOf(*engine, c, q, g);
    const MemoryEstimate memory = engine->memoryEstimate(c, q);
    const double rmqd = engine->rmqd(c);
    const bool synthetic = engine->qualitySynthetic();
    const bool extrapolated = engine->surrogate().extrapolatesModel(doc.modelName);
    const int bands = c.recipe.size();

    Json j;
    j["config_file"] = configPath;
    j["request_file"] = requestSource;
    j["model"] = doc.modelName;
    j["configuration"] = describeConfig(ws, c);
    j["tp"] = c.tp;
    Json req;
    req["stack"] = q.stack;
    req["isl"] = q.isl;
    req["osl"] = q.osl;
    req["concurrency"] = q.concurrency;
    req["mode"] = std::string(toString(q.mode));
    req["ttft_budget_ms"] = q.ttftBudgetMs;
    req["tpot_budget_ms"] = q.tpotBudgetMs;
    req["memory_budget_gib"] = q.memBudgetGiB;
    req["gpus"] = q.gpus;
    req["gpu_memory_gib"] = gpu.memCapacityBytes / kGiB;
    req["memory_limit_gib"] = memoryBudgetBytes(q, gpu) / kGiB;
    j["request"] = req;
    j["gate"] = {{"verdict", std::string(toString(g.verdict))},
                 {"admitted", g.admitted()},
                 {"reason", g.reason}};
    Json pred;
    pred["memory_gib"] = memory.total() / kGiB;
    pred["rmqd"] = rmqd;
    if (latency) {
        pred["ttft_ms"] = latency->calibrated.ttft;
        pred["tpot_ms"] = latency->calibrated.tpot;
        pred["raw_ttft_ms"] = latency->raw.ttftMs;
        pred["raw_tpot_ms"] = latency->raw.tpotMs;
    }
    j["predictions"] = pred;
    std::optional<Throughput> tp;
    if (latency && latency->calibrated.ttft > 0) {
        tp = throughputOf(latency->calibrated.ttft, latency->calibrated.tpot, q.osl, q.concurrency,
                          c.tp);
    }
    if (tp)
        j["throughput"] = {{"request_ms", tp->requestMs},
                           {"tokens_per_s_per_user", tp->tokensPerSUser},
                           {"tokens_per_s_per_gpu", tp->tokensPerSGpu},
                           {"requests_per_s", tp->requestsPerS}};
    Json breakdown;
    BreakdownRows ttftRows, tpotRows;
    if (latency) {
        ttftRows = operatorRows(latency->raw.prefill, bands, latency->calibrated.ttft);
        tpotRows = operatorRows(latency->raw.decode, bands, latency->calibrated.tpot);
        breakdown["ttft"] = rowsJson(ttftRows, "ms");
        breakdown["tpot"] = rowsJson(tpotRows, "ms");
    }
    const BreakdownRows memRows = memoryRows(memory);
    breakdown["memory"] = rowsJson(memRows, "gib");
    j["breakdown"] = breakdown;
    j["latency_calibration"] = engine->calibrationSource(q.stack);
    j["quality"] = engine->surrogateSource();
    j["quality_synthetic"] = synthetic;
    j["rmqd_extrapolated"] = extrapolated;
    if (args.flag("json")) {
        io.out << j.dump(2) << "\n";
        return 0;
    }

    io.out << "configuration: " << describeConfig(ws, c) << " (" << configPath << ")\n";
    printRequestLine(io.out, q, gpu);
    io.out << "latency calibration: " << engine->calibrationSource(q.stack) << "\n";
    io.out << "quality: " << engine->surrogateSource() << "\n";
    if (extrapolated)
        io.out << "warning: the quality data has no rows of " << doc.modelName
               << ": its RMQD is extrapolated from the other models' trend\n";
    io.out << std::fixed << std::setprecision(2);
    if (latency)
        io.out << "  TTFT " << latency->calibrated.ttft << " ms (raw " << latency->raw.ttftMs
               << "), TPOT " << latency->calibrated.tpot << " ms (raw " << latency->raw.tpotMs
               << "), ";
    else
        io.out << "  no latency: the stack cannot run it, ";
    io.out << "memory " << memory.total() / kGiB
           << (c.tp > 1 ? " GiB per GPU, RMQD " : " GiB, RMQD ") << std::setprecision(5) << rmqd
           << "\n";
    if (tp)
        printThroughput(io.out, *tp);
    io.out << "  gate: " << toString(g.verdict) << (g.reason.empty() ? "" : ": " + g.reason)
           << "\n";
    if (latency) {
        printRows(io.out, "TTFT by operator class (ms):", ttftRows, 3);
        printRows(io.out, "TPOT by operator class (ms):", tpotRows, 3);
    }
    printRows(io.out, "memory (GiB):", memRows, 3);
    return 0;
}

} // namespace acsel::cli
