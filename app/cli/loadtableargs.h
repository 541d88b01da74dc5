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

// The shipped table (engine_loaders.json beside the workspace file, else the bundled
// datasets/engine_loaders.json) extended by --loaders FILE;
// empty, with a note on `err`, when neither exists.
LoaderTable loadTableFromArgs(const app::Args& args, const Workspace& ws, std::ostream& err);

// --engine-release, else the release the launch templates were written for.
std::string engineRelease(const app::Args& args, Backend engine);

// What reportLoadCheck prints: the refusals, the notes (UNCERTAIN items, no table entry), or
// both. export prints its notes after the file is written, so that a failed write stays one line.
enum class LoadReport { All, Refusals, Notes };

// Checks `in` for `engine` on `gpu`: every finding `what` asks for on `err` prefixed
// "acsel <command>: " (UNCERTAIN ones as notes); true when nothing is refused.
bool reportLoadCheck(const LoaderTable& table, Backend engine, const std::string& release,
                     const ExportInput& in, const Platform& gpu, const std::string& command,
                     const std::string& configPath, std::ostream& err,
                     LoadReport what = LoadReport::All);

} // namespace acsel::cli
