#include "core/latency/fmcfile.h"

#include "core/model/config.h"

#include <cmath>

namespace acsel
{

const FmcEntry* FmcSet::find(const std::string& stack) const
{
    for (const FmcEntry& e : entries)
        if (e.stack == stack)
            return &e;
    return nullptr;
}

Json fmcToJson(const FmcSet& set)
{
    Json j;
    j["schema_version"] = kFmcSchemaVersion;
    j["kind"] = "acsel-fmc";
    j["model"] = "log T_measured = gamma * log T_estimate + delta (ms), pinball loss at tau";
    j["tau"] = set.tau;
    j["measurements"] = set.measurements;
    j["serving_mode"] = set.servingMode;
    j["stacks"] = Json::array();
    for (const FmcEntry& e : set.entries)
        j["stacks"].push_back({{"stack", e.stack},
                               {"table_version", e.tableVersion},
                               {"ttft", {{"gamma", e.ttft.gamma}, {"delta", e.ttft.delta}}},
                               {"tpot", {{"gamma", e.tpot.gamma}, {"delta", e.tpot.delta}}},
                               {"rows_used", e.rowsUsed}});
    return j;
}

FmcSet fmcFromJson(const Json& j, const std::string& file)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail("", "expected a JSON object (an FMC file written by acsel calibrate)");
    const int version = f.integer(j, "schema_version", "", 1, 1000);
    if (version != kFmcSchemaVersion)
        f.fail("/schema_version", "expected " + std::to_string(kFmcSchemaVersion) + ", found " +
                                      std::to_string(version));
    if (f.string(j, "kind", "") != "acsel-fmc")
        f.fail("/kind", "expected \"acsel-fmc\"");
    FmcSet set;
    set.tau = f.number(j, "tau", "", 1e-6, 1.0 - 1e-6);
    set.measurements = f.stringOr(j, "measurements", "", "");
    set.servingMode = f.stringOr(j, "serving_mode", "", "static");
    if (!parseServingMode(set.servingMode))
        f.fail("/serving_mode", "expected \"static\" or \"continuous\"");
    const Json& stacks = f.array(j, "stacks", "");
    for (std::size_t i = 0; i < stacks.size(); ++i) {
        const std::string ptr = "/stacks/" + std::to_string(i);
        const Json& s = stacks[i];
        if (!s.is_object())
            f.fail(ptr, "expected an object");
        FmcEntry e;
        e.stack = f.string(s, "stack", ptr);
        e.mode = set.servingMode;
        e.tableVersion = f.stringOr(s, "table_version", ptr, "");
        for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
            const char* key = m == LatencyMetric::Ttft ? "ttft" : "tpot";
            const Json& line = f.object(s, key, ptr);
            FmcLine& l = m == LatencyMetric::Ttft ? e.ttft : e.tpot;
            l.gamma = f.number(line, "gamma", ptr + "/" + key, -1e6, 1e6);
            l.delta = f.number(line, "delta", ptr + "/" + key, -1e6, 1e6);
        }
        const Json& used = f.array(s, "rows_used", ptr);
        for (std::size_t r = 0; r < used.size(); ++r) {
            if (!used[r].is_string())
                f.fail(ptr + "/rows_used/" + std::to_string(r), "expected a row id string");
            e.rowsUsed.push_back(used[r].get<std::string>());
        }
        if (set.find(e.stack))
            f.fail(ptr + "/stack", "stack '" + e.stack + "' appears twice");
        set.entries.push_back(std::move(e));
    }
    return set;
}

FmcSet loadFmcFile(const std::string& path)
{
    return fmcFromJson(parseJsonFile(path), path);
}

} // namespace acsel
