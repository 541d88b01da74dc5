#include "core/data/configjson.h"

#include "core/model/requestcheck.h"
#include "core/model/tensorparallel.h"

#include <initializer_list>
#include <nlohmann/json.hpp>

namespace acsel
{
namespace
{

using Ordered = nlohmann::ordered_json;

constexpr int kMaxLayers = 100000;
constexpr double kMaxNumber = 1e12;

template <class T, class Parse>
T enumField(const JsonFields& f, const Json& parent, const std::string& key, const std::string& ptr,
            Parse parse, const std::string& expected)
{
    const std::string s = f.string(parent, key, ptr);
    const auto v = parse(s);
    if (!v)
        f.fail(ptr + "/" + key, "unknown value '" + s + "' (expected " + expected + ")");
    return *v;
}

Request parseRequest(const JsonFields& f, const Json& j, const std::string& stack,
                     std::optional<ServingMode> mode = std::nullopt)
{
    const std::string p = "/request";
    const Json& r = f.object(j, "request", "");
    f.onlyKeys(r, p,
               {"isl", "osl", "concurrency", "ttft_budget_ms", "tpot_budget_ms",
                "memory_budget_gib", "mode", "gpus"});
    Request q;
    q.stack = stack;
    q.isl = f.integer(r, "isl", p, 1, kMaxRequestTokens);
    q.osl = f.integer(r, "osl", p, 1, kMaxRequestTokens);
    q.concurrency = f.integer(r, "concurrency", p, 1, kMaxConcurrency);
    q.ttftBudgetMs = f.number(r, "ttft_budget_ms", p, 1e-9, kMaxNumber);
    q.tpotBudgetMs = f.number(r, "tpot_budget_ms", p, 1e-9, kMaxNumber);
    q.memBudgetGiB = f.number(r, "memory_budget_gib", p, 1e-9, kMaxNumber);
    // A mode the caller gives (a --mode flag) wins, and the file need not hold one then; one
    // it holds is still checked.
    if (!mode || r.contains("mode"))
        q.mode = enumField<ServingMode>(f, r, "mode", p, parseServingMode, "static or continuous");
    if (mode)
        q.mode = *mode;
    // Files written before tensor parallelism have no "gpus": one GPU.
    q.gpus = r.contains("gpus") ? f.integer(r, "gpus", p, 1, kMaxGpus) : 1;
    return q;
}

BandRecipe parseBands(const JsonFields& f, const Json& c)
{
    const std::string p = "/config/bands";
    const Json& bands = f.array(c, "bands", "/config");
    if (bands.empty() || bands.size() > static_cast<std::size_t>(BandRecipe::kMaxBands))
        f.fail(p, "expected 1 to 3 bands, found " + std::to_string(bands.size()));
    BandRecipe r;
    for (std::size_t i = 0; i < bands.size(); ++i) {
        const std::string bp = p + "/" + std::to_string(i);
        const Json& b = bands[i];
        if (!b.is_object())
            f.fail(bp, "expected an object {first_layer, last_layer, format, scope}");
        f.onlyKeys(b, bp, {"first_layer", "last_layer", "format", "scope"});
        const int first = f.integer(b, "first_layer", bp, 0, kMaxLayers);
        const int last = f.integer(b, "last_layer", bp, first, kMaxLayers);
        const Format format = enumField<Format>(f, b, "format", bp, parseFormat, formatChoices());
        const Scope scope = enumField<Scope>(f, b, "scope", bp, parseScope, scopeChoices());
        r.push({first, last + 1, format, scope});
    }
    if (const std::string why = r.validate(r.numLayers()); !why.empty())
        f.fail(p, why);
    return r;
}

Config parseConfig(const JsonFields& f, const Json& j, const Request& request)
{
    const std::string p = "/config";
    const Json& c = f.object(j, "config", "");
    f.onlyKeys(c, p,
               {"batch", "bands", "algorithm", "lm_head_quantized", "kv_cache", "tp", "moe_ep"});
    Config out;
    out.batch = f.integer(c, "batch", p, 1, kMaxConcurrency);
    Config batchOnly;
    batchOnly.batch = out.batch;
    if (const ConfigProblem why = configProblem(batchOnly, request))
        f.fail(p + "/batch", why.message); // before the bands: the first thing a reader checks
    out.recipe = parseBands(f, c);
    out.algorithm =
        enumField<Algorithm>(f, c, "algorithm", p, parseAlgorithm, "max, smoothquant, awq or gptq");
    out.lmHeadQuantized = f.boolean(c, "lm_head_quantized", p);
    out.kv = enumField<KvFormat>(f, c, "kv_cache", p, parseKvFormat, "bf16 or fp8");
    // Files written before tensor parallelism have no "tp": one GPU. Whether it divides the
    // model's heads is checked by resolveModel.
    if (c.contains("tp")) {
        out.tp = f.integer(c, "tp", p, 1, kMaxGpus);
        if ((out.tp & (out.tp - 1)) != 0)
            f.fail(p + "/tp",
                   "tp " + std::to_string(out.tp) + " is not a power of two (1, 2, 4 or 8)");
        if (const ConfigProblem why = configProblem(out, request))
            f.fail(p + "/" + why.field, why.message + " (/request/gpus)");
    }
    // MoE models only, absent for 1: the GPUs the experts are split over (resolveModel checks
    // that it divides tp and the experts).
    if (c.contains("moe_ep"))
        out.moeEp = f.integer(c, "moe_ep", p, 1, kMaxGpus);
    return out;
}

// The file holds the calibrated latencies only; the raw ones are left 0.
Prediction parsePredictions(const JsonFields& f, const Json& j, std::string& note)
{
    const std::string p = "/predictions";
    const Json& o = f.object(j, "predictions", "");
    f.onlyKeys(o, p, {"ttft_ms", "tpot_ms", "memory_gib", "rmqd", "note"});
    Prediction out;
    out.ttftMs = f.number(o, "ttft_ms", p, 0, kMaxNumber);
    out.tpotMs = f.number(o, "tpot_ms", p, 0, kMaxNumber);
    out.memoryBytes = f.number(o, "memory_gib", p, 0, kMaxNumber) * kGiB;
    out.rmqd = f.number(o, "rmqd", p, 0, kMaxNumber);
    note = f.stringOr(o, "note", p, "");
    return out;
}

std::string nonEmpty(const JsonFields& f, const Json& parent, const std::string& key,
                     const std::string& ptr)
{
    std::string s = f.string(parent, key, ptr);
    if (s.empty())
        f.fail(ptr + "/" + key, "expected a non-empty string");
    return s;
}

} // namespace

ConfigDocument makeConfigDocument(const Workspace& ws, const Config& c, const Request& q,
                                  std::optional<Prediction> predictions, std::string predictionNote)
{
    ConfigDocument d;
    const ModelArch& m = ws.models.at(static_cast<std::size_t>(c.model));
    d.modelName = m.name;
    d.modelHfId = m.hfId;
    d.moeModel = m.isMoe();
    d.request = q;
    d.config = c;
    d.predictions = predictions;
    d.predictionNote = std::move(predictionNote);
    return d;
}

ConfigDocument parseConfigJson(const Json& j, const std::string& file)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail("", "expected a configuration object (what acsel search --json prints)");
    f.onlyKeys(j, "",
               {"schema_version", "tool", "model", "stack", "request", "config", "predictions"});
    f.schemaVersion(j, kConfigJsonSchemaVersion, kConfigJsonSchemaVersion);
    ConfigDocument d;
    if (j.contains("tool")) {
        const Json& t = f.object(j, "tool", "");
        f.onlyKeys(t, "/tool", {"name", "version"});
        d.toolName = nonEmpty(f, t, "name", "/tool");
        d.toolVersion = nonEmpty(f, t, "version", "/tool");
    }
    const Json& m = f.object(j, "model", "");
    f.onlyKeys(m, "/model", {"name", "hf_id"});
    d.modelName = nonEmpty(f, m, "name", "/model");
    d.modelHfId = nonEmpty(f, m, "hf_id", "/model");
    d.request = parseRequest(f, j, nonEmpty(f, j, "stack", ""));
    d.config = parseConfig(f, j, d.request);
    if (j.contains("predictions"))
        d.predictions = parsePredictions(f, j, d.predictionNote);
    return d;
}

Request parseRequestJson(const Json& j, const std::string& file, std::optional<ServingMode> mode)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail("", "expected a request object {schema_version, stack, request}");
    // "acsel": what wrote the file (a results folder's provenance), not read.
    f.onlyKeys(j, "", {"schema_version", "stack", "request", "models", "acsel"});
    f.schemaVersion(j, kConfigJsonSchemaVersion, kConfigJsonSchemaVersion);
    return parseRequest(f, j, nonEmpty(f, j, "stack", ""), mode);
}

ConfigDocument loadConfigJson(const std::string& path)
{
    return parseConfigJson(parseJsonFile(path), path);
}

void resolveModel(ConfigDocument& doc, const Workspace& ws, const std::string& file)
{
    const JsonFields f(file);
    auto idx = ws.findModel(doc.modelName);
    if (idx && ws.models[static_cast<std::size_t>(*idx)].hfId != doc.modelHfId)
        f.fail("/model/hf_id", "model '" + doc.modelName + "' is " +
                                   ws.models[static_cast<std::size_t>(*idx)].hfId +
                                   " in the workspace, but the file says " + doc.modelHfId);
    if (!idx) {
        // A misspelt name of a model the workspace has: say which name it has, do not guess.
        if (const auto byId = ws.findModel(doc.modelHfId))
            f.fail("/model/name",
                   "model '" + doc.modelName + "' is not in the workspace; its hf_id " +
                       doc.modelHfId + " is the workspace's '" +
                       ws.models[static_cast<std::size_t>(*byId)].name + "' (expected that name)");
        std::string list;
        for (const ModelArch& a : ws.models)
            list += (list.empty() ? "" : ", ") + a.name;
        f.fail("/model", "model '" + doc.modelName + "' (" + doc.modelHfId +
                             ") is not in the workspace (it has: " + list + ")");
    }
    const ModelArch& arch = ws.models[static_cast<std::size_t>(*idx)];
    if (const std::string why = doc.config.recipe.validate(arch.layers); !why.empty())
        f.fail("/config/bands", why + " (" + arch.name + ")");
    if (const std::string why = tpProblem(arch, doc.config.tp); !why.empty())
        f.fail("/config/tp", why);
    if (const std::string why = moeEpProblem(arch, doc.config.tp, doc.config.moeEp); !why.empty())
        f.fail("/config/moe_ep", why);
    doc.config.model = *idx;
    doc.moeModel = arch.isMoe();
}

void writeRequestFields(Ordered& j, const Request& q)
{
    j["stack"] = q.stack;
    j["request"] = {{"isl", q.isl},
                    {"osl", q.osl},
                    {"concurrency", q.concurrency},
                    {"ttft_budget_ms", q.ttftBudgetMs},
                    {"tpot_budget_ms", q.tpotBudgetMs},
                    {"memory_budget_gib", q.memBudgetGiB},
                    {"mode", toString(q.mode)},
                    {"gpus", q.gpus}};
}

Ordered configDocumentJson(const ConfigDocument& d)
{
    Ordered j;
    j["schema_version"] = kConfigJsonSchemaVersion;
    j["tool"] = {{"name", d.toolName}, {"version", d.toolVersion}};
    j["model"] = {{"name", d.modelName}, {"hf_id", d.modelHfId}};
    writeRequestFields(j, d.request);
    Ordered bands = Ordered::array();
    for (const Band& b : d.config.recipe)
        bands.push_back({{"first_layer", b.begin},
                         {"last_layer", b.end - 1},
                         {"format", toString(b.format)},
                         {"scope", toString(b.scope, d.moeModel)}});
    j["config"] = {{"batch", d.config.batch},
                   {"bands", bands},
                   {"algorithm", toString(d.config.algorithm)},
                   {"lm_head_quantized", d.config.lmHeadQuantized},
                   {"kv_cache", toString(d.config.kv)},
                   {"tp", d.config.tp}};
    if (d.config.moeEp != 1)
        j["config"]["moe_ep"] = d.config.moeEp;
    if (d.predictions) {
        const Prediction& p = *d.predictions;
        j["predictions"] = {{"ttft_ms", p.ttftMs},
                            {"tpot_ms", p.tpotMs},
                            {"memory_gib", p.memoryGiB()},
                            {"rmqd", p.rmqd}};
        if (!d.predictionNote.empty())
            j["predictions"]["note"] = d.predictionNote;
    }
    return j;
}

std::string writeConfigJson(const ConfigDocument& d)
{
    return configDocumentJson(d).dump(2) + "\n";
}

} // namespace acsel
