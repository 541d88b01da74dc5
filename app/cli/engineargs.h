// The options of the commands that predict with the full engine (--fmc, --surrogate), and
// building it from the workspace.
#pragma once

#include "app/common/args.h"
#include "core/latency/fmcfile.h"
#include "core/search/workspaceengine.h"

#include <memory>
#include <ostream>
#include <vector>

namespace acsel::cli
{

// Checks an FMC file's stacks against the workspace (fmcStacksOutside): a LoadError when none
// is in it, one warning line per stack whose lines are ignored.
void warnFmcStacksOutside(const FmcSet& set, const Workspace& ws, const std::string& file,
                          std::ostream& warnings);

// --workspace, --tables, --fmc, --confidence, --surrogate
std::vector<app::OptionSpec> engineOptions();
// --confidence P (needs --fmc) replaces each stack's FMC lines by their P-quantile lines
// (core/latency/fmcchoice.h); stacks without a spread keep the median line, with a warning on
// `warnings` (standard error when null).
std::unique_ptr<WorkspaceEngine> loadEngineFromArgs(const app::Args& args,
                                                    std::ostream* warnings = nullptr);

} // namespace acsel::cli
