// The explorer session file (.acsel-session, JSON, schema_version 2): which workspace, tables
// and FMC calibration the window ran on, the request and the margin inside its budgets, the
// part of the space and the search algorithm, the configuration in the band editor, the pinned
// configurations and the plot's view settings. Configurations are embedded as configuration
// documents (configjson.h), so one can be copied out for `acsel export --config`. docs/SESSIONS.md
// documents every field.
#pragma once

#include "core/data/configjson.h"
#include "core/search/budgetmargin.h"
#include "core/search/searchalgorithm.h"

#include <optional>
#include <string>
#include <vector>

namespace acsel
{

// 2 added margin_percent; a schema 1 file reads as margin 0.
inline constexpr int kSessionSchemaVersion = 2;

// Names the file format accepts for the window's choices (the GUI maps them to its enums).
inline constexpr const char* kSessionLatencyAxes[] = {"ttft", "tpot", "normalised"};
inline constexpr const char* kSessionColourBy[] = {"model", "format_family"};

struct SessionFilter {
    std::vector<std::string> models; // workspace model names
    std::vector<Format> formats;
    std::vector<Scope> scopes;
    bool operator==(const SessionFilter&) const = default;
};

struct SessionView {
    std::string latencyAxis = "ttft"; // one of kSessionLatencyAxes
    bool logX = false;
    bool logY = false;
    std::string colourBy = "model"; // one of kSessionColourBy
    bool operator==(const SessionView&) const = default;
};

struct PinnedSessionConfig {
    std::string label;
    ConfigDocument document; // config.model is resolved by the caller (resolveModel)
    bool operator==(const PinnedSessionConfig&) const = default;
};

struct SessionDocument {
    // Absolute after parseSessionJson (relative ones are resolved against the session file's
    // folder); empty = none (no tables folder: spec-only stacks; no FMC: raw latency).
    std::string workspaceFile;
    std::string tablesDir;
    std::string fmcFile;
    Request request; // request.stack is the file's "stack"
    BudgetMargin margin;
    // The confidence gate's P (acsel search --confidence), optional "confidence" in schema 2;
    // 0.5 (the median line, absent from the file): off.
    double confidence = 0.5;
    SessionFilter filter;
    // Saved as its session spelling (the searcher registry's savedName: "band_pareto", ...), or
    // "automatic" (nullopt: the serving mode's default searcher).
    SearchAlgorithmChoice searchAlgorithm;
    SessionView view;
    std::optional<ConfigDocument> edited; // what the band editor showed
    std::vector<PinnedSessionConfig> pinned;
    // Autosaves only: false while the window runs, true once it quit normally. A file without
    // it (a saved session) reads as true.
    bool cleanExit = true;
    // Autosaves only (optional "session_file"): the session file the window had open, so that
    // Save after a restore writes back to it. Absolute after parsing; empty = none.
    std::string sessionFile;
    std::string toolName = "acsel-studio";
    std::string toolVersion = ACSEL_VERSION;
    bool operator==(const SessionDocument&) const = default;
};

enum class SessionPaths { RelativeToFile, Absolute };

// Strict parse: every field checked, unknown keys refused, LoadErrors name the file and the
// JSON pointer. A schema_version above kSessionSchemaVersion fails first, with "written by a
// newer ACSeL Studio (schema N, this build reads up to M)". sessionFile locates relative paths.
SessionDocument parseSessionJson(const Json& j, const std::string& sessionFile);
SessionDocument loadSessionFile(const std::string& path);

// Pretty-printed JSON with a trailing newline. RelativeToFile writes the paths relative to
// sessionFile's folder (a project folder can move as a whole); Absolute keeps them as they are.
std::string writeSessionJson(const SessionDocument& doc, const std::string& sessionFile,
                             SessionPaths paths);

} // namespace acsel
