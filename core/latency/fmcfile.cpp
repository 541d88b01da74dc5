#include "core/latency/fmcfile.h"

#include "core/data/loaderror.h"
#include "core/model/config.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

namespace acsel
{

const FmcEntry* FmcSet::find(const std::string& stack) const
{
    for (const FmcEntry& e : entries)
        if (e.stack == stack)
            return &e;
    return nullptr;
}

void FmcEntry::set(LatencyMetric m, const FmcChoice& c)
{
    (m == LatencyMetric::Ttft ? ttft : tpot) = c.line;
    (m == LatencyMetric::Ttft ? ttftInfo : tpotInfo) = {
        c.form, c.cvLoss, c.validation, c.spread, c.independent, c.why, c.loads};
}

namespace
{

const char* metricKey(LatencyMetric m)
{
    return m == LatencyMetric::Ttft ? "ttft" : "tpot";
}

Json lossJson(double v)
{
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json metricJson(const FmcLine& l, const FmcFitInfo& info)
{
    Json j{{"gamma", l.gamma}, {"delta", l.delta}, {"form", std::string(toString(info.form))}};
    j["cv_loss"] = {{"identity", lossJson(info.cvLoss[0])},
                    {"offset", lossJson(info.cvLoss[1])},
                    {"line", lossJson(info.cvLoss[2])}};
    j["cv"] = toString(info.validation);
    j["spread"] = {{"profiles", info.spread.profiles},
                   {"dof", info.spread.dof},
                   {"log_scale", info.spread.scale}};
    j["independent_profiles"] = info.independent;
    j["why"] = info.why;
    j["load_spreads"] = Json::array();
    for (const FmcLoadSpread& ls : info.loads)
        j["load_spreads"].push_back({{"load", ls.load},
                                     {"centre", ls.centre},
                                     {"profiles", ls.spread.profiles},
                                     {"dof", ls.spread.dof},
                                     {"log_scale", ls.spread.scale}});
    return j;
}

// Reads one metric's object (at ptr); refuses what no real calibration looks like.
void readMetric(const JsonFields& f, const Json& line, const std::string& ptr, FmcLine& l,
                FmcFitInfo& info)
{
    l.gamma = f.number(line, "gamma", ptr, -1e6, 1e6);
    if (!(l.gamma > 0))
        f.fail(ptr + "/gamma", "expected gamma > 0 (a calibration keeps a longer estimate "
                               "longer), found " +
                                   std::to_string(l.gamma));
    l.delta = f.number(line, "delta", ptr, -kFmcMaxAbsDelta, kFmcMaxAbsDelta);
    const std::string form = f.stringOr(line, "form", ptr, "line");
    const auto parsed = parseFmcForm(form);
    if (!parsed)
        f.fail(ptr + "/form", "expected \"identity\", \"offset\" or \"line\"");
    info.form = *parsed;
    if (info.form != FmcForm::Line && l.gamma != 1.0)
        f.fail(ptr + "/gamma", "form \"" + form + "\" needs gamma = 1");
    if (info.form == FmcForm::Identity && l.delta != 0.0)
        f.fail(ptr + "/delta", "form \"identity\" needs delta = 0");
    info.cvLoss.fill(std::numeric_limits<double>::infinity());
    if (line.contains("cv_loss")) {
        const Json& c = f.object(line, "cv_loss", ptr);
        for (FmcForm k : {FmcForm::Identity, FmcForm::Offset, FmcForm::Line}) {
            const std::string name(toString(k));
            if (c.contains(name) && !c[name].is_null())
                info.cvLoss[static_cast<std::size_t>(k)] =
                    f.number(c, name, ptr + "/cv_loss", 0, 1e300);
        }
    }
    const auto validation =
        parseFmcValidation(f.stringOr(line, "cv", ptr, toString(FmcValidation::LeaveOneOut)));
    if (!validation)
        f.fail(ptr + "/cv", "expected \"" + toString(FmcValidation::LeaveOneOut) + "\", \"" +
                                toString(FmcValidation::Folds) + "\" or \"" +
                                toString(FmcValidation::LeaveOneSweepOut) + "\"");
    info.validation = *validation;
    if (line.contains("spread")) {
        const Json& s = f.object(line, "spread", ptr);
        info.spread.profiles = f.integer(s, "profiles", ptr + "/spread", 0, 1 << 30);
        info.spread.dof = f.integer(s, "dof", ptr + "/spread", 0, info.spread.profiles);
        info.spread.scale = f.number(s, "log_scale", ptr + "/spread", 0, kFmcMaxAbsDelta);
    }
    if (line.contains("independent_profiles"))
        info.independent = f.integer(line, "independent_profiles", ptr, 0, 1 << 30);
    info.why = f.stringOr(line, "why", ptr, "");
    if (line.contains("load_spreads")) {
        const Json& loads = f.array(line, "load_spreads", ptr);
        for (std::size_t i = 0; i < loads.size(); ++i) {
            const std::string lp = ptr + "/load_spreads/" + std::to_string(i);
            if (!loads[i].is_object())
                f.fail(lp, "expected an object");
            FmcLoadSpread ls;
            ls.load = f.string(loads[i], "load", lp);
            ls.centre = f.number(loads[i], "centre", lp, -kFmcMaxAbsDelta, kFmcMaxAbsDelta);
            ls.spread.profiles = f.integer(loads[i], "profiles", lp, 1, 1 << 30);
            // Moderated by the stack's prior (fmcprior.h): up to the stack's residuals.
            ls.spread.dof = f.integer(loads[i], "dof", lp, 0,
                                      std::max(ls.spread.profiles, info.spread.profiles));
            ls.spread.scale = f.number(loads[i], "log_scale", lp, 0, kFmcMaxAbsDelta);
            info.loads.push_back(std::move(ls));
        }
    }
}

} // namespace

Json fmcToJson(const FmcSet& set)
{
    Json j;
    j["schema_version"] = kFmcSchemaVersion;
    j["kind"] = "acsel-fmc";
    j["model"] = "log T_measured = gamma * log T_estimate + delta (ms), pinball loss at tau; "
                 "form chosen by cross-validated loss; interval: Student t on log residuals";
    j["tau"] = set.tau;
    j["measurements"] = set.measurements;
    j["serving_mode"] = set.servingMode;
    j["stacks"] = Json::array();
    for (const FmcEntry& e : set.entries)
        j["stacks"].push_back({{"stack", e.stack},
                               {"table_version", e.tableVersion},
                               {"ttft", metricJson(e.ttft, e.ttftInfo)},
                               {"tpot", metricJson(e.tpot, e.tpotInfo)},
                               {"rows_used", e.rowsUsed}});
    return j;
}

FmcSet fmcFromJson(const Json& j, const std::string& file)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail("", "expected a JSON object (an FMC file written by acsel calibrate)");
    f.schemaVersion(j, 1, kFmcSchemaVersion);
    if (f.string(j, "kind", "") != "acsel-fmc")
        f.fail("/kind", "expected \"acsel-fmc\"");
    FmcSet set;
    set.tau = f.number(j, "tau", "", 1e-6, 1.0 - 1e-6);
    set.measurements = f.stringOr(j, "measurements", "", "");
    set.servingMode = f.stringOr(j, "serving_mode", "", "static");
    if (!parseServingMode(set.servingMode))
        f.fail("/serving_mode", "expected \"static\" or \"continuous\"");
    const Json& stacks = f.array(j, "stacks", "");
    if (stacks.empty())
        f.fail("/stacks", "expected at least one calibrated stack (acsel calibrate writes one "
                          "per stack it has measurements of)");
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
            const char* key = metricKey(m);
            readMetric(f, f.object(s, key, ptr), ptr + "/" + key,
                       m == LatencyMetric::Ttft ? e.ttft : e.tpot,
                       m == LatencyMetric::Ttft ? e.ttftInfo : e.tpotInfo);
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

std::vector<std::string> fmcStacksOutside(const FmcSet& set, const Workspace& ws,
                                          const std::string& file)
{
    std::vector<std::string> outside;
    for (const FmcEntry& e : set.entries)
        if (!ws.findStack(e.stack))
            outside.push_back(e.stack);
    if (!outside.empty() && outside.size() == set.entries.size()) {
        std::string ids;
        for (const std::string& s : outside)
            ids += (ids.empty() ? "'" : ", '") + s + "'";
        throw LoadError(file, "/stacks",
                        "none of its stacks (" + ids +
                            ") is in the workspace: it would calibrate nothing (expected the "
                            "stacks acsel info lists, with the tables the file was fitted on)");
    }
    return outside;
}

FmcSet loadFmcFile(const std::string& path)
{
    return fmcFromJson(parseJsonFile(path), path);
}

} // namespace acsel
