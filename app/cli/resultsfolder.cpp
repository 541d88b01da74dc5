#include "app/cli/resultsfolder.h"

#include "app/cli/answerdetails.h"
#include "app/cli/frontierplot.h"
#include "app/common/args.h"
#include "app/common/loadertable.h"
#include "core/data/atomicfile.h"
#include "core/data/configjson.h"
#include "core/export/exporter.h"
#include "core/export/launch.h"
#include "core/latency/servingmodel.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <iomanip>
#include <locale>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <system_error>

namespace acsel::cli
{
namespace
{

namespace fs = std::filesystem;
using Ordered = nlohmann::ordered_json;

constexpr const char* kLaunchPrefix = "launch_";

// Every name the folder may hold; --force removes the ones a new run does not write, so that
// no file describes an earlier answer.
bool isResultsFile(const std::string& name)
{
    static const char* const kNames[] = {"request.json", "answer.json",  "top.csv",
                                         "by_gpus.csv",  "top.json",     "frontier.csv",
                                         "frontier.png", "frontier.svg", "summary.md"};
    for (const char* n : kNames)
        if (name == n)
            return true;
    for (ExportFormat f : kAllExportFormats)
        if (name == defaultFileName(f))
            return true;
    return name.starts_with(kLaunchPrefix) && name.ends_with(".sh");
}

std::string number(double v, int digits)
{
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s << std::fixed << std::setprecision(digits) << v;
    return s.str();
}

// The shortest text that reads back as the same double (a data file, not a display).
std::string exact(double v)
{
    char buf[32];
    return {buf, std::to_chars(buf, buf + sizeof buf, v).ptr};
}

// RFC 4180: quoted when the field holds a comma, a quote or a line break.
std::string csvField(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

// The CSV files name where their latencies come from in a last column, latency_source (the
// same text on every row): a comment line would break the CSV readers.
std::string csvOf(const Workspace& ws, const Request& q, const std::vector<Alternative>& list,
                  const std::string& provenance)
{
    std::string out = "rank,model,batch,recipe,algorithm,kv_cache,lm_head_quantized,ttft_ms,"
                      "tpot_ms,memory_gib,rmqd,tokens_per_s_user,tokens_per_s_gpu,"
                      "requests_per_s,latency_source\n";
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Config& c = list[i].config;
        const Prediction& p = list[i].gate.prediction;
        const Throughput t = throughputOf(p.ttftMs, p.tpotMs, q.osl, q.concurrency, c.tp);
        out += std::to_string(i + 1) + "," +
               csvField(ws.models[static_cast<std::size_t>(c.model)].name) + "," +
               std::to_string(c.batch) + "," + csvField(c.recipe.describe()) + "," +
               std::string(toString(c.algorithm)) + "," + std::string(toString(c.kv)) + "," +
               (c.lmHeadQuantized ? "true" : "false");
        for (double v : {p.ttftMs, p.tpotMs, p.memoryBytes / kGiB, p.rmqd, t.tokensPerSUser,
                         t.tokensPerSGpu, t.requestsPerS})
            out += "," + exact(v);
        out += "," + csvField(provenance) + "\n";
    }
    return out;
}

// One row per GPU count: the answer with that many GPUs available (empty fields: none), with
// what its engine takes at the memory flag acsel launch sets (empty without an engine model).
std::string sizingCsv(const Engine& engine, const Request& q, const std::vector<SizingRow>& rows,
                      const std::string& provenance)
{
    const Workspace& ws = engine.workspace();
    const std::string header = "gpus,tp,model,batch,recipe,algorithm,kv_cache,ttft_ms,tpot_ms,"
                               "memory_gib_per_gpu,engine_memory_gib_per_gpu,engine_memory_flag,"
                               "rmqd,latency_source\n";
    // A GPU count with no answer: every field empty but the first and the last.
    const auto separators = static_cast<std::size_t>(std::count(header.begin(), header.end(), ','));
    std::string out = header;
    for (const SizingRow& row : rows) {
        out += std::to_string(row.gpus);
        if (!row.result.config) {
            out += std::string(separators, ',') + csvField(provenance) + "\n";
            continue;
        }
        const Config& c = *row.result.config;
        const Prediction& p = row.result.gate.prediction;
        Request sized = q;
        sized.gpus = row.gpus;
        const std::optional<EngineMemory> m = engine.engineMemory(c, sized);
        out += "," + std::to_string(c.tp) + "," +
               csvField(ws.models[static_cast<std::size_t>(c.model)].name) + "," +
               std::to_string(c.batch) + "," + csvField(c.recipe.describe()) + "," +
               std::string(toString(c.algorithm)) + "," + std::string(toString(c.kv));
        for (double v : {p.ttftMs, p.tpotMs, p.memoryBytes / kGiB})
            out += "," + exact(v);
        out += m ? "," + exact(m->totalBytes / kGiB) + "," + memoryFlagText(*m) : ",,";
        out += "," + exact(p.rmqd) + "," + csvField(provenance) + "\n";
    }
    return out;
}

Ordered documentsOf(const Workspace& ws, const Request& q, const std::vector<Alternative>& list,
                    const std::vector<std::string>& notes)
{
    Ordered out = Ordered::array();
    for (const Alternative& a : list)
        out.push_back(configDocumentJson(
            makeConfigDocument(ws, a.config, q, a.gate.prediction, predictionNote(notes))));
    return out;
}

// The request file acsel search --request reads back: the same request, the same models, and
// where the latencies of this run came from ("acsel", which the reader skips).
std::string requestJson(const Workspace& ws, const SearchRun& run, const std::string& provenance)
{
    Ordered j;
    j["schema_version"] = kConfigJsonSchemaVersion;
    j["acsel"] = {{"provenance", provenance}};
    writeRequestFields(j, run.request);
    if (!run.options.models.empty()) {
        Ordered models = Ordered::array();
        for (int m : run.options.models)
            models.push_back(ws.models[static_cast<std::size_t>(m)].name);
        j["models"] = models;
    }
    return j.dump(2) + "\n";
}

// The options' list in words; an empty list means `every` (the search's default).
template <class T, class Name>
std::string listOrEvery(const std::vector<T>& v, Name&& name, const char* every)
{
    if (v.empty())
        return every;
    std::string out;
    for (const T& x : v)
        out += (out.empty() ? "" : ", ") + std::string(name(x));
    return out;
}

// A table cell: the recipe's band separator '|' would end the cell.
std::string markdownCell(const std::string& s)
{
    std::string out;
    for (char c : s)
        out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

std::string predictionLine(const Prediction& p, const Request& q, int gpus)
{
    const Throughput t = throughputOf(p.ttftMs, p.tpotMs, q.osl, q.concurrency, gpus);
    return "TTFT " + number(p.ttftMs, 1) + " ms (raw " + number(p.rawTtftMs, 1) + "), TPOT " +
           number(p.tpotMs, 2) + " ms (raw " + number(p.rawTpotMs, 2) + "), memory " +
           number(p.memoryBytes / kGiB, 2) + " GiB, RMQD " + number(p.rmqd, 5) + "; " +
           number(t.tokensPerSUser, 1) + " tokens/s per user, " + number(t.tokensPerSGpu, 1) +
           " tokens/s per GPU, " + number(t.requestsPerS, 3) + " requests/s";
}

class Folder
{
public:
    explicit Folder(fs::path dir) : dir_(std::move(dir)) {}
    void write(const std::string& name, std::string_view bytes)
    {
        writeFileAtomically((dir_ / name).string(), bytes);
        written_.push_back(name);
    }
    const std::vector<std::string>& written() const { return written_; }

private:
    fs::path dir_;
    std::vector<std::string> written_;
};

} // namespace

void checkResultsFolder(const std::string& dir, bool force)
{
    std::error_code ec;
    const fs::file_status st = fs::status(dir, ec);
    if (!fs::exists(st))
        return;
    if (!fs::is_directory(st))
        throw app::UsageError("acsel: --save-dir " + dir + ": exists and is not a folder");
    if (!force && !fs::is_empty(dir, ec))
        throw app::UsageError("acsel: --save-dir " + dir +
                              ": the folder is not empty (--force replaces the results in it)");
    if (ec)
        throw app::UsageError("acsel: --save-dir " + dir + ": " + ec.message());
}

std::vector<std::string> writeResultsFolder(const std::string& dir, const ResultsInput& in,
                                            std::ostream& warnings)
{
    checkResultsFolder(dir, in.run.force);
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        throw app::UsageError("acsel: --save-dir " + dir +
                              ": cannot create the folder: " + ec.message());
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file(ec) && isResultsFile(e.path().filename().string()))
            fs::remove(e.path(), ec); // stale: from an earlier run

    const Workspace& ws = in.engine.workspace();
    const Request& q = in.gated;
    const Recommendation& rec = in.rec;
    const SearchResult& r = rec.answer;
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*ws.findStack(q.stack))];
    Folder folder(dir);
    std::ostringstream md;
    md.imbue(std::locale::classic());

    const std::string provenance = in.engine.provenance(q.stack);
    folder.write("request.json", requestJson(ws, in.run, provenance));
    md << "# ACSeL Studio: " << (r.config ? "recommendation" : "no recommendation") << " for "
       << q.stack << "\n\n## Request\n\n";
    std::ostringstream requestLine;
    requestLine.imbue(std::locale::classic());
    printRequestLine(requestLine, in.run.request, ws.platformOf(stack));
    md << requestLine.str().substr(std::string("request: ").size()) << "\n";
    if (!in.marginNote.empty()) {
        std::string margin = in.marginNote; // "margin 10%: gated at ..."
        margin[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(margin[0])));
        md << margin << " (request.json holds the budgets given: search it with the same "
           << "--margin).\n";
    }
    md << "Search space: models "
       << listOrEvery(
              in.run.options.models,
              [&ws](int m) { return ws.models[static_cast<std::size_t>(m)].name; },
              "every model of the workspace")
       << "; formats "
       << listOrEvery(
              in.run.options.formats, [](Format f) { return toString(f); },
              "every one the stack has")
       << "; scopes "
       << listOrEvery(
              in.run.options.scopes, [](Scope s) { return toString(s); }, "every one")
       << "; batches "
       << (in.run.options.batches.empty()
               ? std::string("the default ones at or above the concurrency")
               : listOrEvery(
                     in.run.options.batches, [](int b) { return std::to_string(b); }, ""))
       << "; KV cache "
       << listOrEvery(
              in.run.options.kvFormats, [](KvFormat k) { return toString(k); },
              "every one the stack has")
       << ".\n\nSearch: " << r.algorithm << ", " << r.candidates << " candidate recipes, "
       << r.fullEvaluations << " full gates.\n\n## Where the numbers come from\n\n"
       << "- Latency: " << in.engine.latencySource(q.stack)
       << "; calibration: " << in.engine.calibrationSource(q.stack) << "\n"
       << "- Quality (RMQD): " << in.engine.surrogateSource() << "\n";
    for (const std::string& n : rec.notes)
        md << "- Note: " << n << "\n";

    FrontierPlotInput plotIn{
        in.engine, q, in.run.options, {}, {}, {}, in.engine.calibrationSource(q.stack)};
    for (const Alternative& a : rec.frontier)
        plotIn.frontier.push_back(a.gate.prediction);
    if (r.config)
        plotIn.answer = r.gate.prediction;
    if (rec.bestUniform)
        plotIn.bestUniform = rec.bestUniform->gate.prediction;
    const FrontierPlot plot = renderFrontierPlot(plotIn);

    if (!r.config) {
        md << "\n## Answer\n\nNo configuration passes the gate: loosen a budget (TTFT, TPOT or "
              "memory) or widen the search space.\n";
        if (!in.nearestMiss.empty()) {
            std::string heading = in.nearestMiss.front();
            heading[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(heading[0])));
            md << "\n## Why nothing fits\n\n" << heading << "\n\n";
            for (std::size_t i = 1; i < in.nearestMiss.size(); ++i)
                md << "- " << in.nearestMiss[i].substr(2) << "\n"; // the text's indent
        }
    } else {
        std::vector<Alternative> top{Alternative{*r.config, r.gate}};
        top.insert(top.end(), rec.top.begin(), rec.top.end());
        const ConfigDocument answer =
            makeConfigDocument(ws, *r.config, q, r.gate.prediction, predictionNote(in.notes));
        folder.write("answer.json", configDocumentJson(answer).dump(2) + "\n");
        folder.write("top.csv", csvOf(ws, q, top, provenance));
        folder.write("top.json", documentsOf(ws, q, top, in.notes).dump(2) + "\n");
        folder.write("frontier.csv", csvOf(ws, q, rec.frontier, provenance));

        md << "\n## Answer\n\n"
           << describeConfig(ws, *r.config) << "\n\n"
           << predictionLine(r.gate.prediction, q, r.config->tp)
           << ". Gate: " << toString(r.gate.verdict) << ".\n\n";
        if (rec.bestUniform) {
            const Prediction& u = rec.bestUniform->gate.prediction;
            md << "Best uniform configuration: " << describeConfig(ws, rec.bestUniform->config)
               << ": " << predictionLine(u, q, rec.bestUniform->config.tp)
               << ". The answer differs by RMQD " << number(r.gate.prediction.rmqd - u.rmqd, 5)
               << ", TTFT " << number(r.gate.prediction.ttftMs - u.ttftMs, 1) << " ms, TPOT "
               << number(r.gate.prediction.tpotMs - u.tpotMs, 2) << " ms.\n";
        } else {
            md << "No uniform configuration passes the gate.\n";
        }
        md << "\n## The " << top.size()
           << " best distinct configurations (top.csv, top.json)\n\n"
              "| rank | configuration | TTFT ms | TPOT ms | memory GiB | RMQD |\n"
              "|---:|---|---:|---:|---:|---:|\n";
        for (std::size_t i = 0; i < top.size(); ++i) {
            const Prediction& p = top[i].gate.prediction;
            md << "| " << i + 1 << " | " << markdownCell(describeConfig(ws, top[i].config)) << " | "
               << number(p.ttftMs, 1) << " | " << number(p.tpotMs, 2) << " | "
               << number(p.memoryBytes / kGiB, 2) << " | " << number(p.rmqd, 5) << " |\n";
        }
        md << "\nThe admitted frontier of RMQD and normalised latency has " << rec.frontier.size()
           << " configurations (frontier.csv).\n";

        md << "\n## Deploying the answer\n\n";
        const ModelArch& arch = ws.models[static_cast<std::size_t>(r.config->model)];
        const ExportInput exportIn{arch, *r.config, q, answer.predictions, answer.predictionNote};
        if (const std::string note = nothingQuantizedNote(*r.config, arch.layers); !note.empty())
            md << "Note: " << note << "\n\n";
        bool exported = false;
        for (ExportFormat f : kAllExportFormats) {
            try {
                folder.write(std::string(defaultFileName(f)), exportText(f, exportIn, &stack));
                md << "- `" << defaultFileName(f) << "`: " << title(f) << "\n";
                exported = true;
            } catch (const ExportError& e) {
                md << "- " << title(f) << ": not written: " << e.what() << "\n";
                warnings << "warning: --save-dir: no " << defaultFileName(f) << ": " << e.what()
                         << "\n";
            }
        }
        if (exported) {
            const std::string yaml(defaultFileName(ExportFormat::ModelOptYaml));
            md << "\nApplying the recipe:\n\n```\n"
               << howToApply(ExportFormat::ModelOptYaml, yaml, arch) << "```\n";
        }
        if (const auto engine = parseBackend(backendOf(q.stack)); engine && exported) {
            const std::string name = kLaunchPrefix + std::string(toString(*engine)) + ".sh";
            const Platform& gpu = ws.platformOf(stack);
            LaunchSettings launch = launchSettings(*engine, exportIn, gpu, servedModel(exportIn));
            // The load check acsel launch runs, said in the script's header and here.
            const LoaderTable loaders = app::shippedLoaderTable(ws);
            const std::vector<std::string> loads =
                loaders.entries.empty()
                    ? std::vector<std::string>{}
                    : app::loadCheckLines(
                          checkLoad(loaders, *engine, info(*engine).templateVersion, exportIn, gpu),
                          *engine);
            for (const std::string& line : loads)
                launch.notes.push_back("load check: " + line);
            folder.write(name, launchScript(launch, exportIn));
            md << "\nServing the exported checkpoint: `" << name << "` (a template for "
               << toString(*engine) << " " << info(*engine).templateVersion
               << ": check its flags against the engine you run).\n";
            if (!loads.empty()) {
                md << "\nLoad check for " << toString(*engine) << " "
                   << info(*engine).templateVersion << " (datasets/engine_loaders.json):\n\n";
                for (const std::string& line : loads)
                    md << "- " << line << "\n";
            }
        }
    }

    if (!in.sizing.empty()) {
        folder.write("by_gpus.csv", sizingCsv(in.engine, in.gated, in.sizing, provenance));
        md << "\n## By GPU count (by_gpus.csv)\n\nThe answer with 1, 2, 4 and 8 GPUs of one node "
              "available (memory budget per GPU; a row may use fewer GPUs than it has).\n\n"
              "| GPUs | tensor parallel | configuration | TTFT ms | TPOT ms | GiB per GPU | "
              "engine at launch | RMQD |\n|---:|---:|---|---:|---:|---:|---|---:|\n";
        for (const SizingRow& row : in.sizing) {
            md << "| " << row.gpus << " | ";
            if (!row.result.config) {
                md << "- | none passes the gate | | | | | |\n";
                continue;
            }
            const Prediction& p = row.result.gate.prediction;
            Request sized = in.gated;
            sized.gpus = row.gpus;
            const std::optional<EngineMemory> m = in.engine.engineMemory(*row.result.config, sized);
            md << row.result.config->tp << " | "
               << markdownCell(describeConfig(ws, *row.result.config)) << " | "
               << number(p.ttftMs, 1) << " | " << number(p.tpotMs, 2) << " | "
               << number(p.memoryBytes / kGiB, 2) << " | "
               << (m ? markdownCell(engineMemoryText(*m)) : std::string("-")) << " | "
               << number(p.rmqd, 5) << " |\n";
        }
    }

    md << "\n## Frontier plot\n\n";
    if (plot.unavailable.empty()) {
        folder.write("frontier.png", plot.png);
        folder.write("frontier.svg", plot.svg);
        md << "![quality-latency frontier](frontier.png)\n\n" << plot.caption << "\n";
    } else {
        md << "Not drawn: " << plot.unavailable << ".\n";
        warnings << "warning: --save-dir: no frontier plot: " << plot.unavailable << "\n";
    }
    md << "\n## Files\n\n";
    for (const std::string& name : folder.written())
        md << "- `" << name << "`\n";
    md << "- `summary.md`: this page\n";
    folder.write("summary.md", md.str());
    return folder.written();
}

} // namespace acsel::cli
