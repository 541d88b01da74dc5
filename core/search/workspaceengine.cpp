#include "core/search/workspaceengine.h"

#include "core/data/loaderror.h"
#include "core/data/qualityset.h"
#include "core/export/exportability.h"
#include "core/latency/enginememory.h"
#include "core/latency/fmcfile.h"
#include "core/latency/opcostsfactory.h"
#include "core/latency/opmodel.h"
#include "core/latency/servingmodel.h"
#include "core/latency/silicon.h"
#include "core/model/configspace.h"
#include "core/quality/qualityreport.h"
#include "core/search/batchmonotonecosts.h"

#include <algorithm>
#include <stdexcept>

namespace acsel
{
namespace
{

RidgeSurrogate fitOnTrainingSplit(const Workspace& ws, std::string& source)
{
    if (ws.qualityFile.empty())
        throw LoadError(ws.file, "/quality",
                        "the workspace names no quality data and no "
                        "surrogate was given (expected a quality set)");
    const QualitySet set = loadQualitySet(ws.qualityFile, ws.models);
    const auto trainRows = std::count_if(set.rows.begin(), set.rows.end(), [](const QualityRow& r) {
        return r.split == Split::Train;
    });
    if (trainRows < 2)
        throw LoadError(set.file, "/rows",
                        "expected at least two training rows to fit the surrogate");
    source = "ridge (no quantization predicted to help, an offset per model) fitted on " +
             std::to_string(trainRows) + " training rows of " + set.file +
             (set.synthetic ? " (SYNTHETIC quality data)" : "");
    // Scope-aware features with every quantization weight bounded: no move to fewer bits, no
    // quantized lm_head or KV cache predicted to help (docs/QUALITY.md), so the search never
    // quantizes to "improve" quality and can trade scope for quality. An offset per model: the
    // search compares models, and log(params) alone misranks them.
    return fitOnTrainingRows(set, ws.models, engineSurrogateOptions());
}

// A saved surrogate's per-model offsets against the workspace: offsets of models it lacks are
// ignored, said in the returned text ("" when none is); a file with offsets but none for a
// workspace model is refused: its offsets would all be ignored.
std::string offsetsOutside(const RidgeSurrogate& s, const Workspace& ws, const std::string& file)
{
    std::string outside;
    std::size_t count = 0;
    for (const auto& [model, offset] : s.modelOffsets())
        if (!ws.findModel(model)) {
            outside += (outside.empty() ? "" : ", ") + model;
            ++count;
        }
    if (count == 0)
        return "";
    if (count == s.modelOffsets().size())
        throw LoadError(file, "/model_offsets",
                        "none of its models (" + outside +
                            ") is in the workspace: expected offsets of the workspace's models "
                            "(acsel info lists them)");
    return "; offsets of " + outside + " ignored (not in the workspace)";
}

} // namespace

WorkspaceEngine::WorkspaceEngine(Workspace ws, const EngineSources& sources)
    : ws_(std::move(ws)), costs_(ws_.stacks.size()),
      loaded_(std::make_unique<std::once_flag[]>(ws_.stacks.size()))
{
    if (!ws_.utilisationFile.empty())
        utilisation_ = std::make_unique<UtilisationModel>(loadUtilisationFile(ws_.utilisationFile));
    if (!sources.surrogateFile.empty()) {
        surrogate_ = RidgeSurrogate::load(sources.surrogateFile);
        const SurrogateTrainingData& data = surrogate_.trainingData();
        surrogateSource_ = "surrogate from " + sources.surrogateFile + ", fitted on " + data.file +
                           (data.synthetic ? " (SYNTHETIC quality data)" : "") +
                           offsetsOutside(surrogate_, ws_, sources.surrogateFile);
    } else {
        surrogate_ = fitOnTrainingSplit(ws_, surrogateSource_);
    }
    if (!sources.fmcFile.empty()) {
        const FmcSet set = loadFmcFile(sources.fmcFile);
        fmcStacksOutside(set, ws_, sources.fmcFile); // a file that calibrates nothing is refused
        for (const FmcEntry& e : set.entries) {
            calibrations_[e.stack] = {e.ttft.gamma, e.ttft.delta, e.tpot.gamma, e.tpot.delta};
            calibrationSources_[e.stack] = "FMC from " + sources.fmcFile + " (" +
                                           std::to_string(e.rowsUsed.size()) + " profiles, " +
                                           set.servingMode + " serving model)";
            calibrationModes_[e.stack] = set.servingMode;
            fmcEntries_[e.stack] = e;
        }
    }
}

WorkspaceEngine::~WorkspaceEngine() = default;

const OpCosts& WorkspaceEngine::opCosts(int stack) const
{
    const auto i = static_cast<std::size_t>(stack);
    std::call_once(loaded_[i],
                   [&] { costs_[i] = makeOpCosts(ws_, ws_.stacks[i], utilisation_.get()); });
    return *costs_[i];
}

int WorkspaceEngine::stackIndex(const std::string& stackId) const
{
    const auto i = ws_.findStack(stackId);
    if (!i)
        throw std::invalid_argument("unknown stack '" + stackId + "'");
    return *i;
}

const Stack& WorkspaceEngine::stackOf(const Request& q) const
{
    return ws_.stacks[static_cast<std::size_t>(stackIndex(q.stack))];
}

LatencyEstimate WorkspaceEngine::latencyEstimate(const Config& c, const Request& q) const
{
    const OpCosts& costs = opCosts(stackIndex(q.stack));
    const ModelArch& arch = ws_.models[static_cast<std::size_t>(c.model)];
    if (q.mode == ServingMode::Static) {
        // Each operator at its running max over the batch ladder: a larger static batch is
        // never predicted faster at the same workload (batchmonotonecosts.h).
        const BatchMonotoneCosts monotone(costs, c.batch, q.concurrency);
        return estimateServingLatency(monotone, arch, c, q);
    }
    return estimateServingLatency(costs, arch, c, q);
}

LatencyMs WorkspaceEngine::rawLatency(const Config& c, const Request& q) const
{
    const LatencyEstimate e = latencyEstimate(c, q);
    return {e.ttftMs, e.tpotMs};
}

MemoryEstimate WorkspaceEngine::memoryEstimate(const Config& c, const Request& q) const
{
    return estimateMemory(ws_.models[static_cast<std::size_t>(c.model)], c, q,
                          ws_.platformOf(stackOf(q)));
}

double WorkspaceEngine::memoryBytes(const Config& c, const Request& q) const
{
    return memoryEstimate(c, q).total();
}

bool WorkspaceEngine::supportsTp(const Request& q, int tp) const
{
    return opCosts(stackIndex(q.stack)).supportsTp(tp);
}

std::optional<RunningRule> WorkspaceEngine::runningRule(const Config& c, const Request& q) const
{
    if (q.mode == ServingMode::Static)
        return std::nullopt;
    return acsel::runningRule(ws_.models[static_cast<std::size_t>(c.model)], c, q,
                              ws_.platformOf(stackOf(q)));
}

LatencyMs WorkspaceEngine::rawLatencyAt(const Config& c, const Request& q, int running) const
{
    if (q.mode == ServingMode::Static)
        return rawLatency(c, q);
    const OpCosts& costs = opCosts(stackIndex(q.stack));
    const LatencyEstimate e =
        estimateServingAt(costs, ws_.models[static_cast<std::size_t>(c.model)], c, q, running);
    return {e.ttftMs, e.tpotMs};
}

LatencyMs WorkspaceEngine::conversionLatency(const Config& c, const Request& q) const
{
    // Static batching: one conversion in the prefill step of batch x isl tokens and in each
    // decode step of batch tokens, on the same costs as latencyEstimate. Continuous batching
    // mixes steps at each recipe's running count: not stated, zero.
    if (q.mode != ServingMode::Static)
        return {};
    const ModelArch& arch = ws_.models[static_cast<std::size_t>(c.model)];
    const BatchMonotoneCosts monotone(opCosts(stackIndex(q.stack)), c.batch, q.concurrency);
    return {conversionStepMs(monotone, arch, static_cast<double>(c.batch) * q.isl),
            q.osl > 1 ? conversionStepMs(monotone, arch, c.batch) : 0.0};
}

bool WorkspaceEngine::fracMixIsLowerBound(const Request&) const
{
    // Static batching: the band estimate is the FracMix mix plus non-negative conversions
    // (with a bf16 lm_head, which the search space keeps). Continuous batching: the same at a
    // fixed running count, which runningRule gives FracMixTable (servingmodel.h).
    return true;
}

Calibration WorkspaceEngine::calibration(const std::string& stackId) const
{
    const auto it = calibrations_.find(stackId);
    return it == calibrations_.end() ? Calibration{} : it->second;
}

void WorkspaceEngine::setCalibration(const std::string& stackId, Calibration c, std::string source)
{
    calibrations_[stackId] = c;
    calibrationSources_[stackId] = std::move(source);
    fmcEntries_.erase(stackId); // the file's spread was the file's line's
}

std::optional<LatencyInterval> WorkspaceEngine::latencyInterval(const Config& c, const Request& q,
                                                                LatencyMetric m, double rawMs,
                                                                double level) const
{
    const auto it = fmcEntries_.find(q.stack);
    if (it == fmcEntries_.end())
        return std::nullopt;
    SiliconRow at; // a measured row of this load: the key the file's per-load spreads carry
    at.batch = q.concurrency;
    at.tp = c.tp;
    const FmcRowSpread spread = it->second.info(m).row(loadKey(at));
    if (!spread.spread.known())
        return std::nullopt;
    return predictiveInterval(it->second.line(m), spread, rawMs, level);
}

std::optional<std::string> WorkspaceEngine::calibrationMode(const std::string& stackId) const
{
    const auto it = calibrationModes_.find(stackId);
    return it == calibrationModes_.end() ? std::nullopt : std::optional(it->second);
}

std::string WorkspaceEngine::calibrationSource(const std::string& stackId) const
{
    const auto it = calibrationSources_.find(stackId);
    return it == calibrationSources_.end() ? "none (raw estimate)" : it->second;
}

std::string WorkspaceEngine::latencySource(const std::string& stackId) const
{
    const Stack& s = ws_.stacks[static_cast<std::size_t>(stackIndex(stackId))];
    if (s.source == LatencySource::Tables)
        return "operator tables " + s.tableDir + " (" + s.backend + " " + s.version + ")";
    return "spec-sheet estimate (no operator tables for " + s.id + "; " + ws_.platformOf(s).source +
           ")";
}

std::string WorkspaceEngine::provenance(const std::string& stackId) const
{
    return "latency from " + latencySource(stackId) +
           "; calibration: " + calibrationSource(stackId);
}

double WorkspaceEngine::rmqd(const Config& c) const
{
    return surrogate_.predict(ws_.models[static_cast<std::size_t>(c.model)], c.recipe, c.algorithm,
                              c.lmHeadQuantized, c.kv);
}

SurrogateTerms WorkspaceEngine::qualityTerms(int model, Algorithm a, bool lmHeadQuantized,
                                             KvFormat kv) const
{
    return surrogate_.terms(ws_.models[static_cast<std::size_t>(model)], a, lmHeadQuantized, kv);
}

std::optional<EngineMemory> WorkspaceEngine::engineMemory(const Config& c, const Request& q) const
{
    const Stack& s = stackOf(q);
    const auto backend = parseBackend(s.backend);
    if (!backend)
        return std::nullopt; // the loaders refuse such stacks: only test workspaces build them
    return acsel::engineMemory(*backend, ws_.models[static_cast<std::size_t>(c.model)], c, q,
                               ws_.platformOf(s));
}

bool WorkspaceEngine::engineMemoryFollowsEstimate(const Request& q) const
{
    // Static batching: the estimate is the engine's weights (decoder layers, embeddings,
    // lm_head) plus the KV of the batch, AIC's activations and the runtime, and the engine
    // adds to the same weights the runtime, the step activations and the KV of min(concurrency,
    // batch) requests: beside the weights, terms of the context alone. Continuous: the
    // estimate's serving reserve and the engine's running count follow the weights.
    return q.mode == ServingMode::Static;
}

std::string WorkspaceEngine::exportProblem(const Config& c, const Stack& s) const
{
    const ModelArch& arch = ws_.models[static_cast<std::size_t>(c.model)];
    if (isExportable(arch, c, &s))
        return {};
    const std::vector<std::string> problems = exportProblems(arch, c, &s);
    std::string out;
    for (const std::string& p : problems)
        out += (out.empty() ? "" : "; ") + p;
    return out;
}

} // namespace acsel
