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

struct TablesChoice {
    std::string dir;    // empty: run without tables
    std::string origin; // "--tables", "ACSEL_TABLES", "setting", "default ../shared/aic"
};
// --tables value (must exist: a missing one is an error for the caller), else $ACSEL_TABLES
// (likewise), else the saved setting, else ../shared/aic beside the source tree or the
// working directory, when it exists.
TablesChoice resolveTablesDir(const std::string& explicitDir, const std::string& setting = "");

} // namespace acsel::app
