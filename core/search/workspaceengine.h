// The real Engine: a workspace's stacks (operator costs loaded on first use), the per-band
// latency and memory models, FMC lines per stack, and the monotone quality surrogate.
#pragma once

#include "core/latency/fmcfile.h"
#include "core/latency/memorymodel.h"
#include "core/latency/opcosts.h"
#include "core/latency/opmodel.h"
#include "core/latency/utilisationmodel.h"
#include "core/quality/ridgesurrogate.h"
#include "core/search/engine.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace acsel
{

struct EngineSources {
    std::string fmcFile;       // FMC coefficients (acsel calibrate); empty: no calibration
    std::string surrogateFile; // a saved surrogate; empty: fit on the workspace's quality set
};

class WorkspaceEngine final : public Engine
{
public:
    // Reads the FMC file and the surrogate (or fits it on the training split of the workspace's
    // quality set, monotone). Throws LoadError for a bad file.
    WorkspaceEngine(Workspace ws, const EngineSources& sources);
    ~WorkspaceEngine() override;

    const Workspace& workspace() const override { return ws_; }
    LatencyMs rawLatency(const Config& c, const Request& q) const override;
    double memoryBytes(const Config& c, const Request& q) const override;
    bool supportsTp(const Request& q, int tp) const override;
    std::optional<RunningRule> runningRule(const Config& c, const Request& q) const override;
    LatencyMs rawLatencyAt(const Config& c, const Request& q, int running) const override;
    LatencyMs conversionLatency(const Config& c, const Request& q) const override;
    bool fracMixIsLowerBound(const Request& q) const override;
    Calibration calibration(const std::string& stackId) const override;
    double rmqd(const Config& c) const override;
    SurrogateTerms qualityTerms(int model, Algorithm a, bool lmHeadQuantized,
                                KvFormat kv) const override;
    std::string exportProblem(const Config& c, const Stack& s) const override;
    std::optional<EngineMemory> engineMemory(const Config& c, const Request& q) const override;
    bool engineMemoryFollowsEstimate(const Request& q) const override;

    // The full estimate with its operator breakdown, and the memory breakdown (for display).
    LatencyEstimate latencyEstimate(const Config& c, const Request& q) const;
    MemoryEstimate memoryEstimate(const Config& c, const Request& q) const;
    // Operator costs of a stack, loaded on first use (thread-safe). Throws LoadError.
    const OpCosts& opCosts(int stack) const;
    // Replaces a stack's calibration; `source` is what calibrationSource says of it after.
    void setCalibration(const std::string& stackId, Calibration c,
                        std::string source = "set by the caller");
    // Where a stack's calibration comes from ("FMC from <file> (N rows)" or "none (raw)").
    std::string calibrationSource(const std::string& stackId) const;
    // Where the stack's raw latencies come from: its operator tables folder and their
    // backend version, or the spec-sheet estimate (no tables for its GPU).
    std::string latencySource(const std::string& stackId) const;
    // The one provenance text every output of a prediction carries (stdout, the JSON notes,
    // the results folder's files, the exported recipes' headers): "latency from <source>;
    // calibration: <source>".
    std::string provenance(const std::string& stackId) const;
    // The serving model ("static" or "continuous") a stack's FMC line was fitted on; nullopt
    // without a file calibration. A line fitted on the other model than the request's
    // calibrates the wrong estimate.
    std::optional<std::string> calibrationMode(const std::string& stackId) const;
    // The central interval holding probability `level` (0.9: 90 %) of the calibrated TTFT or
    // TPOT of c under q, given its raw estimate rawMs (rawLatency): the FMC file's predictive
    // interval of a row at q's concurrency and c's tensor-parallel degree (fmcchoice.h).
    // nullopt when the stack has no line from a file (none loaded, or replaced by
    // setCalibration) or its spread gives no interval.
    std::optional<LatencyInterval> latencyInterval(const Config& c, const Request& q,
                                                   LatencyMetric m, double rawMs,
                                                   double level) const;
    const RidgeSurrogate& surrogate() const { return surrogate_; }
    const std::string& surrogateSource() const { return surrogateSource_; }
    // Whether the RMQD predictions come from synthetic quality data: the flag of the data the
    // surrogate was fitted on (the quality set's own, or the saved surrogate's), not the
    // workspace's.
    bool qualitySynthetic() const override { return surrogate_.trainingData().synthetic; }

private:
    // A stack's index and q's stack; both throw std::invalid_argument for an unknown stack.
    int stackIndex(const std::string& stackId) const;
    const Stack& stackOf(const Request& q) const;

    Workspace ws_;
    std::unique_ptr<UtilisationModel> utilisation_; // for stacks without tables
    RidgeSurrogate surrogate_;
    std::string surrogateSource_;
    std::map<std::string, Calibration> calibrations_;
    std::map<std::string, std::string> calibrationSources_;
    std::map<std::string, std::string> calibrationModes_; // serving model each FMC line fits
    std::map<std::string, FmcEntry> fmcEntries_;          // the file's lines with their spreads
    mutable std::vector<std::unique_ptr<OpCosts>> costs_; // filled on first use
    std::unique_ptr<std::once_flag[]> loaded_;
};

} // namespace acsel
