// The options of the commands that check whether an engine release loads an export
// (--engine-release, --loaders), and the check's report (core/export/loadcheck.h).
#pragma once

#include "app/common/args.h"
#include "core/export/loadcheck.h"
#include "core/model/workspace.h"

#include <ostream>
#include <string>
#include <vector>

namespace acsel::cli
{

std::vector<app::OptionSpec> loadTableOptions();

// The shipped table (engine_loaders.json beside the workspace file) extended by --loaders FILE;
// empty, with a note on `err`, when neither exists.
LoaderTable loadTableFromArgs(const app::Args& args, const Workspace& ws, std::ostream& err);

// --engine-release, else the release the launch templates were written for.
std::string engineRelease(const app::Args& args, Backend engine);

// Checks `in` for `engine` on `gpu`: every finding on `err` prefixed "acsel <command>: "
// (UNCERTAIN ones as notes); true when nothing is refused.
bool reportLoadCheck(const LoaderTable& table, Backend engine, const std::string& release,
                     const ExportInput& in, const Platform& gpu, const std::string& command,
                     const std::string& configPath, std::ostream& err);

} // namespace acsel::cli
