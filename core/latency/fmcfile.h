// The fitted FMC coefficients file (written by `acsel calibrate`, read by `acsel predict`):
// schema_version 2 (1 still read: no load spreads), kind "acsel-fmc", tau, the measurements file,
// and per stack the table version, per metric (gamma, delta), the chosen form with its
// cross-validated losses and the predictive spread (fmcchoice.h) with the per-concurrency spreads,
// the independent profiles and why the form was kept, and the ids of the rows used (provenance).
// Files written before the forms (no "form", no "spread") read as form "line" without an interval.
// Refused on load: no stack at all, gamma <= 0 (a calibration must keep a longer estimate longer),
// |delta| > kFmcMaxAbsDelta, a form its (gamma, delta) contradicts.
#pragma once

#include "core/data/jsonfields.h"
#include "core/latency/fmc.h"
#include "core/latency/fmcchoice.h"
#include "core/model/workspace.h"

#include <string>
#include <vector>

namespace acsel
{

inline constexpr int kFmcSchemaVersion = 2;

// What the file says about one metric's line beyond (gamma, delta).
struct FmcFitInfo {
    FmcForm form = FmcForm::Line;
    std::array<double, 3> cvLoss{}; // per form; infinity (null in the file): not validated
    FmcValidation validation = FmcValidation::LeaveOneOut;
    FmcSpread spread;                 // profiles 0: no interval (old files)
    int independent = 0;              // independent profiles (0: not recorded, older files)
    std::string why;                  // FmcChoice::why (empty in older files)
    std::vector<FmcLoadSpread> loads; // per concurrency (none in version 1 files)
    // The centre and spread of a row at `load` (rowSpread, fmcchoice.h).
    FmcRowSpread row(std::string_view load) const { return rowSpread(loads, spread, load); }
};

struct FmcEntry {
    std::string mode;         // FmcSet::servingMode, copied for callers holding an entry
    std::string stack;        // "h100_sxm/trtllm"
    std::string tableVersion; // operator tables the raw estimates came from
    FmcLine ttft, tpot;
    FmcFitInfo ttftInfo, tpotInfo;
    std::vector<std::string> rowsUsed;
    const FmcLine& line(LatencyMetric m) const { return m == LatencyMetric::Ttft ? ttft : tpot; }
    const FmcFitInfo& info(LatencyMetric m) const
    {
        return m == LatencyMetric::Ttft ? ttftInfo : tpotInfo;
    }
    // Sets line and info of a metric from a choice.
    void set(LatencyMetric m, const FmcChoice& c);
};

struct FmcSet {
    double tau = 0.5;
    std::string measurements; // file the profiles came from
    // Serving model of the raw estimates ("static" or "continuous", docs/SERVING.md); files
    // without the field were fitted on the static model.
    std::string servingMode = "static";
    std::vector<FmcEntry> entries;
    const FmcEntry* find(const std::string& stack) const;
};

Json fmcToJson(const FmcSet& set);
// Throws LoadError naming the file and JSON pointer of a missing or malformed field.
FmcSet fmcFromJson(const Json& j, const std::string& file);
FmcSet loadFmcFile(const std::string& path);

// The stacks of `set` (read from `file`) the workspace does not have: their lines are ignored.
// Throws LoadError at /stacks when the workspace has none of them: the file would calibrate
// nothing (another workspace's or tables folder's file, or stack ids misspelt).
std::vector<std::string> fmcStacksOutside(const FmcSet& set, const Workspace& ws,
                                          const std::string& file);

} // namespace acsel
