#include "core/latency/silicon.h"

#include "core/data/csvreader.h"
#include "core/data/loaderror.h"
#include "core/latency/requestoverhead.h"
#include "core/latency/servingmodel.h"
#include "core/model/tensorparallel.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>
#include <utility>

namespace acsel
{
namespace
{

int positiveInt(const CsvReader& csv, int col)
{
    const std::int64_t v = csv.integer(col);
    if (v < 1 || v > (std::int64_t{1} << 30))
        throw LoadError(csv.name(), csv.where(col),
                        "expected a positive integer, found '" + std::string(csv.field(col)) + "'");
    return static_cast<int>(v);
}

// What a row measured: two rows with the same key are the same benchmark twice (a fit would
// weigh it double, a comparison would count it twice).
using MeasurementKey = std::tuple<std::string, std::string, std::string, std::string, std::string,
                                  std::string, int, int, int, int, int, int, int>;

MeasurementKey measurementKey(const SiliconRow& r)
{
    return {r.system, r.backend, r.backendVersion, r.modelPath, r.mode, r.gemmQuantMode,
            r.isl,    r.osl,     r.batch,          r.tp,        r.pp,   r.moeTp,
            r.moeEp};
}

std::vector<SiliconRow> read(CsvReader csv)
{
    const int cId = csv.requireColumn("id");
    const int cSystem = csv.requireColumn("system");
    const int cBackend = csv.requireColumn("backend");
    const int cVersion = csv.requireColumn("backend_version");
    const int cModel = csv.requireColumn("model_path");
    const int cQuant = csv.requireColumn("gemm_quant_mode");
    const int cIsl = csv.requireColumn("isl"), cOsl = csv.requireColumn("osl");
    const int cBatch = csv.requireColumn("batch_size");
    const int cTp = csv.requireColumn("tp_size");
    const int cTtft = csv.requireColumn("silicon_ttft_ms");
    const int cTpot = csv.requireColumn("silicon_tpot_ms");
    const auto cPp = csv.column("pp_size");
    const auto cMode = csv.column("mode");
    const auto cMoeTp = csv.column("moe_tp_size");
    const auto cMoeEp = csv.column("moe_ep_size");
    std::vector<SiliconRow> rows;
    std::map<std::string, int> idLines;          // id -> its first line
    std::map<MeasurementKey, int> measuredLines; // measurement -> its first line
    while (csv.next()) {
        SiliconRow r;
        r.line = csv.lineNumber();
        r.id = csv.field(cId);
        if (r.id.empty())
            throw LoadError(csv.name(), csv.where(cId), "expected a non-empty row id");
        r.system = csv.field(cSystem);
        r.backend = csv.field(cBackend);
        r.backendVersion = csv.field(cVersion);
        r.modelPath = csv.field(cModel);
        r.gemmQuantMode = csv.field(cQuant);
        if (cMode)
            r.mode = csv.field(*cMode);
        r.isl = positiveInt(csv, cIsl);
        r.osl = positiveInt(csv, cOsl);
        r.batch = positiveInt(csv, cBatch);
        r.tp = positiveInt(csv, cTp);
        if (cPp && !csv.field(*cPp).empty())
            r.pp = positiveInt(csv, *cPp);
        // Dense rows leave them empty or write 0: not given.
        if (cMoeTp && !csv.field(*cMoeTp).empty() && csv.field(*cMoeTp) != "0")
            r.moeTp = positiveInt(csv, *cMoeTp);
        if (cMoeEp && !csv.field(*cMoeEp).empty() && csv.field(*cMoeEp) != "0")
            r.moeEp = positiveInt(csv, *cMoeEp);
        r.ttftMs = csv.positiveNumber(cTtft);
        r.tpotMs = csv.positiveNumber(cTpot);
        if (const auto [it, fresh] = idLines.emplace(r.id, r.line); !fresh)
            throw LoadError(csv.name(), csv.where(cId),
                            "duplicate row id '" + r.id + "' (first on line " +
                                std::to_string(it->second) + ")");
        if (const auto [it, fresh] = measuredLines.emplace(measurementKey(r), r.line); !fresh)
            throw LoadError(csv.name(), "line " + std::to_string(r.line),
                            "duplicate of the measurement on line " + std::to_string(it->second) +
                                " (same system, backend, backend_version, model_path, mode, "
                                "gemm_quant_mode, isl, osl, batch_size, tp_size, pp_size, "
                                "moe_tp_size and moe_ep_size)");
        rows.push_back(std::move(r));
    }
    if (rows.empty())
        throw LoadError(csv.name(), "", "no measurement rows");
    return rows;
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool stripSuffix(std::string& s, std::string_view suffix)
{
    if (s.size() > suffix.size() &&
        s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0) {
        s.resize(s.size() - suffix.size());
        return true;
    }
    return false;
}

Algorithm algorithmFor(Format f)
{
    for (Algorithm a : kAllAlgorithms)
        if (algorithmFits(a, f))
            return a;
    return Algorithm::Max;
}

// The KV-cache format the measured engine ran, which the file does not record. All three
// engines default to the checkpoint's own KV format (kv_cache_dtype "auto"), and the GEMM
// format names the kind of checkpoint: fp8 (per-tensor) and nvfp4 are ModelOpt's exports,
// which quantize the KV cache to fp8 by default (kv_cache_quant_algo FP8); fp8_block is the
// block-scaled weight-only kind (Qwen's and DeepSeek's FP8 releases, ModelOpt's FP8_PB_WO)
// and the int formats are weight-only or SmoothQuant, all with the model's bf16 KV cache.
std::pair<KvFormat, std::string> servedKvFormat(Format format, const Stack& stack)
{
    const std::string name(toString(format));
    if (format != Format::Fp8 && format != Format::Nvfp4)
        return {KvFormat::Bf16, "KV cache bf16: " + name + " checkpoints keep the model's KV"};
    if (!stack.kvFp8)
        return {KvFormat::Bf16, "KV cache bf16: " + stack.id + " has no fp8 KV tables"};
    return {KvFormat::Fp8, "KV cache fp8: " + name + " rows are ModelOpt checkpoints (fp8 KV)"};
}

} // namespace

std::string sweepKey(const SiliconRow& r)
{
    // A tensor-parallel degree is a sweep of its own (tp 1 keeps the key it always had).
    return r.system + "|" + r.backend + "|" + r.modelPath + "|" + r.gemmQuantMode + "|" +
           std::to_string(r.isl) + "|" + std::to_string(r.osl) +
           (r.tp != 1 ? "|tp" + std::to_string(r.tp) : "") +
           (r.moeEp > 1 ? "|ep" + std::to_string(r.moeEp) : "");
}

std::string loadKey(const SiliconRow& r)
{
    return "c" + std::to_string(r.batch) + (r.tp != 1 ? "|tp" + std::to_string(r.tp) : "");
}

std::vector<SiliconRow> loadSiliconCsv(const std::string& path)
{
    return read(CsvReader::fromFile(path));
}

std::vector<SiliconRow> parseSiliconCsv(std::string text, const std::string& name)
{
    return read(CsvReader::fromString(std::move(text), name));
}

std::string modelFamilyKey(const std::string& hfIdOrName)
{
    std::string s = lower(hfIdOrName);
    if (const auto slash = s.rfind('/'); slash != std::string::npos)
        s = s.substr(slash + 1);
    while (stripSuffix(s, "-fp8") || stripSuffix(s, "-nvfp4") || stripSuffix(s, "-instruct")) {
    }
    if (s.rfind("meta-", 0) == 0)
        s = s.substr(5);
    return s;
}

SiliconMapping mapSiliconRow(const Workspace& ws, const SiliconRow& row)
{
    SiliconMapping m;
    if (row.pp != 1) {
        m.reason = "pp_size " + std::to_string(row.pp) +
                   ": only tensor parallelism within one node is modelled";
        return m;
    }
    if (!row.mode.empty() && row.mode != "agg") {
        m.reason = "mode '" + row.mode + "': only aggregated serving is modelled";
        return m;
    }
    const std::string stackId = row.system + "/" + row.backend;
    const auto stack = ws.findStack(stackId);
    if (!stack) {
        m.reason = "no operator tables for " + stackId + " in the tables directory";
        return m;
    }
    const std::string key = modelFamilyKey(row.modelPath);
    int model = -1;
    for (std::size_t i = 0; i < ws.models.size() && model < 0; ++i)
        if (modelFamilyKey(ws.models[i].hfId) == key || modelFamilyKey(ws.models[i].name) == key)
            model = static_cast<int>(i);
    if (model < 0) {
        m.reason = "model " + row.modelPath + " matches no workspace model (family '" + key + "')";
        return m;
    }
    const ModelArch& arch = ws.models[static_cast<std::size_t>(model)];
    const Stack& s = ws.stacks[static_cast<std::size_t>(*stack)];
    if (const std::string why = tpProblem(arch, row.tp); !why.empty()) {
        m.reason = "tp_size: " + why;
        return m;
    }
    int moeEp = 1;
    if (arch.isMoe() && (row.moeTp > 0 || row.moeEp > 0)) {
        moeEp = row.moeEp > 0 ? row.moeEp : row.tp / row.moeTp;
        const int moeTp = row.moeTp > 0 ? row.moeTp : row.tp / moeEp;
        if (moeTp * moeEp != row.tp) {
            m.reason = "moe_tp_size " + std::to_string(moeTp) + " x moe_ep_size " +
                       std::to_string(moeEp) + " is not tp_size " + std::to_string(row.tp);
            return m;
        }
    } else if (!arch.isMoe() && row.moeEp > 1) {
        m.reason =
            "moe_ep_size " + std::to_string(row.moeEp) + ": " + arch.name + " has no experts";
        return m;
    }
    if (const std::string why = moeEpProblem(arch, row.tp, moeEp); !why.empty()) {
        m.reason = why;
        return m;
    }
    // A spec-only stack costs its all-reduces from the platform's interconnect, as a
    // configuration of the search on it does; a tabled one from its all-reduce tables.
    if (row.tp > 1 && s.source == LatencySource::Empirical &&
        ws.platformOf(s).interconnect == Interconnect::None) {
        m.reason = "tp_size " + std::to_string(row.tp) + ": " + ws.platformOf(s).id +
                   " has no interconnect in the platforms file";
        return m;
    }
    if (row.tp > 1 && s.source == LatencySource::Tables && !s.hasAllReduce()) {
        m.reason = "tp_size " + std::to_string(row.tp) + ": no all-reduce table for " + stackId;
        return m;
    }
    Format format = Format::Bf16;
    if (row.gemmQuantMode.empty()) {
        m.assumptions.push_back("empty gemm_quant_mode read as bf16");
    } else if (const auto f = parseFormat(row.gemmQuantMode)) {
        format = *f;
    } else {
        m.reason = "unknown gemm_quant_mode '" + row.gemmQuantMode + "'";
        return m;
    }
    if (!s.hasFormat(format)) {
        m.reason = stackId + " has no " + std::string(toString(format)) + " GEMM table";
        return m;
    }
    if (row.modelPath != arch.hfId)
        m.assumptions.push_back(row.modelPath + " uses the architecture of " + arch.hfId);
    if (row.backendVersion != s.version)
        m.assumptions.push_back(
            stackId + " measured with " + row.backend + " " +
            (row.backendVersion.empty() ? "(version not recorded)" : row.backendVersion) +
            ", tables are " + s.version);
    m.stack = *stack;
    m.config.model = model;
    // The benchmark's server ran with the engine's defaults of its release: at most its own cap
    // running, a step scheduled ahead or not.
    const ServingDefaults served =
        servingDefaults(row.backend, ws.platformOf(s), row.backendVersion);
    if (!served.schedulesAhead && servingDefaults(row.backend, ws.platformOf(s)).schedulesAhead)
        m.assumptions.push_back(stackId + ": " + row.backend + " " + row.backendVersion +
                                " schedules no step ahead (a later release's default)");
    const double overhead = requestOverheadMs(ws, stackId, row.backendVersion);
    if (overhead > 0)
        m.assumptions.push_back(stackId + ": " + row.backend + " " + row.backendVersion +
                                " adds a request overhead of " +
                                std::to_string(std::lround(overhead)) +
                                " ms to TTFT (fitted on its tp 1 rows)");
    const int cap = served.defaultMaxRunning;
    m.config.batch = cap > 0 ? std::min(row.batch, cap) : row.batch;
    if (m.config.batch < row.batch)
        m.assumptions.push_back(stackId + ": " + std::to_string(row.batch) + " clients, at most " +
                                std::to_string(cap) + " running (" + row.backend +
                                "'s default cap on running requests)");
    m.config.tp = row.tp;
    m.config.moeEp = moeEp;
    if (arch.isMoe() && row.moeTp == 0 && row.moeEp == 0)
        m.assumptions.push_back("moe_tp_size and moe_ep_size not given: expert TP over all " +
                                std::to_string(row.tp) + " GPUs (the engines' default)");
    m.request.gpus = row.tp;
    m.config.recipe = BandRecipe::uniform(arch.layers, format);
    m.config.algorithm = algorithmFor(format);
    std::tie(m.config.kv, m.kvReason) = servedKvFormat(format, s);
    m.assumptions.push_back(m.kvReason);
    m.request.stack = stackId;
    m.request.isl = row.isl;
    m.request.osl = row.osl;
    m.request.concurrency = row.batch;
    m.request.engineVersion = row.backendVersion;
    m.request.requestOverheadMs = overhead;
    m.ok = true;
    return m;
}

} // namespace acsel
