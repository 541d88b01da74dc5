#include "core/session/sessionfile.h"

#include <filesystem>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <span>

namespace acsel
{
namespace
{

using Ordered = nlohmann::ordered_json;
namespace fs = std::filesystem;

// Any finite margin is read, then checked by the core's one check (its reason in the error).
constexpr double kMaxMarginRead = 1e300;

std::string oneOf(const JsonFields& f, const Json& parent, const std::string& key,
                  const std::string& ptr, std::span<const char* const> names)
{
    const std::string s = f.string(parent, key, ptr);
    std::string list;
    for (const char* n : names) {
        if (s == n)
            return s;
        list += (list.empty() ? "" : ", ") + std::string(n);
    }
    f.fail(ptr + "/" + key, "unknown value '" + s + "' (expected one of: " + list + ")");
}

// Empty stays empty (none); relative paths are relative to the session file's folder.
std::string resolvePath(const std::string& p, const std::string& sessionFile)
{
    if (p.empty() || fs::path(p).is_absolute())
        return p;
    const fs::path base = fs::absolute(fs::path(sessionFile)).parent_path();
    return (base / p).lexically_normal().string();
}

std::string pathField(const JsonFields& f, const Json& parent, const std::string& key,
                      const std::string& ptr, const std::string& sessionFile)
{
    return resolvePath(f.string(parent, key, ptr), sessionFile);
}

std::string writePath(const std::string& p, const std::string& sessionFile, SessionPaths style)
{
    if (p.empty() || style == SessionPaths::Absolute)
        return p;
    const fs::path base = fs::absolute(fs::path(sessionFile)).parent_path();
    const fs::path rel = fs::absolute(fs::path(p)).lexically_normal().lexically_relative(base);
    return rel.empty() ? p : rel.generic_string();
}

// An embedded configuration document: its errors name the pointer inside the session.
ConfigDocument embeddedConfig(const Json& j, const std::string& file, const std::string& ptr)
{
    try {
        return parseConfigJson(j, file);
    } catch (const LoadError& e) {
        throw LoadError(e.file(), ptr + (e.where() == "/" ? "" : e.where()), e.message());
    }
}

SessionFilter parseFilter(const JsonFields& f, const Json& j)
{
    const std::string p = "/filter";
    const Json& o = f.object(j, "filter", "");
    f.onlyKeys(o, p, {"models", "formats", "scopes"});
    SessionFilter out;
    auto strings = [&](const char* key, auto&& add) {
        const Json& a = f.array(o, key, p);
        for (std::size_t i = 0; i < a.size(); ++i) {
            const std::string ip = p + "/" + key + "/" + std::to_string(i);
            if (!a[i].is_string())
                f.fail(ip, "expected a string");
            add(a[i].get<std::string>(), ip);
        }
    };
    strings("models", [&](const std::string& s, const std::string& ip) {
        if (s.empty())
            f.fail(ip, "expected a model name");
        out.models.push_back(s);
    });
    strings("formats", [&](const std::string& s, const std::string& ip) {
        const auto v = parseFormat(s);
        if (!v)
            f.fail(ip, "unknown format '" + s + "' (expected " + formatChoices() + ")");
        out.formats.push_back(*v);
    });
    strings("scopes", [&](const std::string& s, const std::string& ip) {
        const auto v = parseScope(s);
        if (!v)
            f.fail(ip, "unknown scope '" + s + "' (expected " + scopeChoices() + ")");
        out.scopes.push_back(*v);
    });
    return out;
}

SessionView parseView(const JsonFields& f, const Json& j)
{
    const std::string p = "/view";
    const Json& o = f.object(j, "view", "");
    f.onlyKeys(o, p, {"latency_axis", "log_x", "log_y", "colour_by"});
    SessionView v;
    v.latencyAxis = oneOf(f, o, "latency_axis", p, kSessionLatencyAxes);
    v.logX = f.boolean(o, "log_x", p);
    v.logY = f.boolean(o, "log_y", p);
    v.colourBy = oneOf(f, o, "colour_by", p, kSessionColourBy);
    return v;
}

} // namespace

SessionDocument parseSessionJson(const Json& j, const std::string& sessionFile)
{
    const JsonFields f(sessionFile);
    if (!j.is_object())
        f.fail("", "expected a session object (an .acsel-session file)");
    // The version first: a newer file may have fields this build does not know.
    const int version = f.schemaVersion(j, 1, kSessionSchemaVersion);
    if (version == 1)
        f.onlyKeys(j, "",
                   {"schema_version", "tool", "clean_exit", "session_file", "workspace", "stack",
                    "request", "filter", "search_algorithm", "view", "edited", "pinned"});
    else
        f.onlyKeys(j, "",
                   {"schema_version", "tool", "clean_exit", "session_file", "workspace", "stack",
                    "request", "margin_percent", "confidence", "filter", "search_algorithm", "view",
                    "edited", "pinned"});
    SessionDocument d;
    const Json& t = f.object(j, "tool", "");
    f.onlyKeys(t, "/tool", {"name", "version"});
    d.toolName = f.string(t, "name", "/tool");
    d.toolVersion = f.string(t, "version", "/tool");
    d.cleanExit = f.booleanOr(j, "clean_exit", "", true);
    d.sessionFile = resolvePath(f.stringOr(j, "session_file", "", ""), sessionFile);
    const Json& w = f.object(j, "workspace", "");
    f.onlyKeys(w, "/workspace", {"file", "tables_dir", "fmc_file"});
    d.workspaceFile = pathField(f, w, "file", "/workspace", sessionFile);
    if (d.workspaceFile.empty())
        f.fail("/workspace/file", "expected the workspace file's path");
    d.tablesDir = pathField(f, w, "tables_dir", "/workspace", sessionFile);
    d.fmcFile = pathField(f, w, "fmc_file", "/workspace", sessionFile);
    // The request reads exactly like a request file's (configjson.h).
    Json req = Json::object();
    req["schema_version"] = kConfigJsonSchemaVersion;
    req["stack"] = j.contains("stack") ? j["stack"] : Json();
    if (j.contains("request"))
        req["request"] = j["request"];
    if (!j.contains("stack"))
        f.fail("/stack", "missing field 'stack'");
    d.request = parseRequestJson(req, sessionFile);
    // Schema 1 had no margin: the budgets as given (0 %).
    if (version >= 2) {
        d.margin.percent = f.number(j, "margin_percent", "", -kMaxMarginRead, kMaxMarginRead);
        if (!d.margin.valid())
            f.fail("/margin_percent", fieldProblem(RequestField::Margin, d.margin.percent) +
                                          " (expected a percentage in [0, 100))");
        // As acsel search --confidence takes it.
        if (j.contains("confidence"))
            d.confidence = f.number(j, "confidence", "", 0.01, 0.99);
    }
    d.filter = parseFilter(f, j);
    // The saved spellings only, as the file has always been written ("bp" is the CLI's).
    const std::string algorithm = f.string(j, "search_algorithm", "");
    bool known = algorithm == kAutomaticAlgorithm;
    std::string list(kAutomaticAlgorithm);
    const std::vector<SearcherInfo>& all = searchers();
    for (std::size_t i = 0; i < all.size(); ++i) {
        if (algorithm == all[i].savedName) {
            d.searchAlgorithm = SearchAlgorithm::at(i);
            known = true;
        }
        list += ", " + all[i].savedName;
    }
    if (!known)
        f.fail("/search_algorithm",
               "unknown value '" + algorithm + "' (expected one of: " + list + ")");
    d.view = parseView(f, j);
    if (j.contains("edited"))
        d.edited = embeddedConfig(j["edited"], sessionFile, "/edited");
    const Json& pins = f.array(j, "pinned", "");
    for (std::size_t i = 0; i < pins.size(); ++i) {
        const std::string pp = "/pinned/" + std::to_string(i);
        if (!pins[i].is_object())
            f.fail(pp, "expected an object {label, configuration}");
        f.onlyKeys(pins[i], pp, {"label", "configuration"});
        PinnedSessionConfig pin;
        pin.label = f.string(pins[i], "label", pp);
        if (!pins[i].contains("configuration"))
            f.fail(pp + "/configuration", "missing field 'configuration'");
        pin.document = embeddedConfig(pins[i]["configuration"], sessionFile, pp + "/configuration");
        d.pinned.push_back(std::move(pin));
    }
    return d;
}

SessionDocument loadSessionFile(const std::string& path)
{
    return parseSessionJson(parseJsonFile(path), path);
}

std::string writeSessionJson(const SessionDocument& d, const std::string& sessionFile,
                             SessionPaths paths)
{
    Ordered j;
    j["schema_version"] = kSessionSchemaVersion;
    j["tool"] = {{"name", d.toolName}, {"version", d.toolVersion}};
    if (!d.cleanExit)
        j["clean_exit"] = false;
    if (!d.sessionFile.empty())
        j["session_file"] = writePath(d.sessionFile, sessionFile, paths);
    j["workspace"] = {{"file", writePath(d.workspaceFile, sessionFile, paths)},
                      {"tables_dir", writePath(d.tablesDir, sessionFile, paths)},
                      {"fmc_file", writePath(d.fmcFile, sessionFile, paths)}};
    writeRequestFields(j, d.request);
    j["margin_percent"] = d.margin.percent;
    if (d.confidence != 0.5)
        j["confidence"] = d.confidence;
    Ordered formats = Ordered::array();
    for (const Format x : d.filter.formats)
        formats.push_back(toString(x));
    Ordered scopes = Ordered::array();
    for (const Scope x : d.filter.scopes)
        scopes.push_back(toString(x));
    j["filter"] = {{"models", d.filter.models}, {"formats", formats}, {"scopes", scopes}};
    j["search_algorithm"] =
        d.searchAlgorithm ? d.searchAlgorithm->info().savedName : std::string(kAutomaticAlgorithm);
    j["view"] = {{"latency_axis", d.view.latencyAxis},
                 {"log_x", d.view.logX},
                 {"log_y", d.view.logY},
                 {"colour_by", d.view.colourBy}};
    if (d.edited)
        j["edited"] = configDocumentJson(*d.edited);
    Ordered pins = Ordered::array();
    for (const PinnedSessionConfig& p : d.pinned)
        pins.push_back({{"label", p.label}, {"configuration", configDocumentJson(p.document)}});
    j["pinned"] = pins;
    return j.dump(2) + "\n";
}

} // namespace acsel
