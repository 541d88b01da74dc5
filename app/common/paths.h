// Where the default workspace and the operator tables are, for both executables.
#pragma once

#include <string>

namespace acsel::app
{

// --workspace value, else $ACSEL_WORKSPACE, else the source tree's datasets/, else the
// installed share/acsel-studio/datasets/. Empty if none exists.
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
