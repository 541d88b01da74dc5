// The fitted FMC coefficients file (written by `acsel calibrate`, read by `acsel predict`):
// schema_version 1, kind "acsel-fmc", tau, the measurements file, and per stack the table
// version, (gamma, delta) per metric and the ids of the rows used (provenance).
#pragma once

#include "core/data/jsonfields.h"
#include "core/latency/fmc.h"

#include <string>
#include <vector>

namespace acsel
{

inline constexpr int kFmcSchemaVersion = 1;

struct FmcEntry {
    std::string mode;         // FmcSet::servingMode, copied for callers holding an entry
    std::string stack;        // "h100_sxm/trtllm"
    std::string tableVersion; // operator tables the raw estimates came from
    FmcLine ttft, tpot;
    std::vector<std::string> rowsUsed;
    const FmcLine& line(LatencyMetric m) const { return m == LatencyMetric::Ttft ? ttft : tpot; }
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

} // namespace acsel
