// Where the default workspace and the operator tables are, for both executables.
#pragma once

#include <string>

namespace acsel::app
{

// The folder holding the running executable (from /proc/self/exe); empty if unknown.
std::string executableDir();

// <exe_dir>/../share/acsel-studio: where an installed copy keeps its data, wherever the
// package was unpacked (a temporary root works as well as /usr). Empty if unknown.
std::string installedDataDir();

// --workspace value, else $ACSEL_WORKSPACE, else the installed datasets/ beside the
// executable, else the source tree's datasets/, else the configured install prefix's.
// Empty if none exists.
std::string resolveWorkspacePath(const std::string& explicitPath);

// datasets/<name> of the installed copy beside the executable, else of the source tree, else of
// the configured install prefix; empty if none exists.
std::string bundledDatasetsFile(const std::string& name);

struct TablesChoice {
    std::string dir;    // empty: run without tables
    std::string origin; // "--tables", "ACSEL_TABLES", "setting", "default ../shared/aic"
};
// The value of --tables or ACSEL_TABLES that runs without operator tables.
inline constexpr const char* kNoTables = "none";
// --tables value, else $ACSEL_TABLES, else the saved setting (each must be a tables folder: one
// that is not is an error for the caller; kNoTables: no tables, dir empty), else ../shared/aic
// beside the source tree or the working directory, when it exists (the default search).
TablesChoice resolveTablesDir(const std::string& explicitDir, const std::string& setting = "");

} // namespace acsel::app
