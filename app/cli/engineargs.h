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
// The engine of the workspace with the FMC file's lines; checks that --confidence has --fmc.
std::unique_ptr<WorkspaceEngine> loadEngineFromArgs(const app::Args& args,
                                                    std::ostream* warnings = nullptr);
// --confidence P (needs --fmc): each stack's FMC lines replaced by the P-quantile lines at the
// request's concurrency and GPUs (core/latency/fmcconfidence.h, confidenceLines); stacks without
// a spread keep the median line, with a warning on `warnings` (standard error when null). Call
// once the request is known.
void applyConfidence(const app::Args& args, WorkspaceEngine& engine, const Request& q,
                     std::ostream* warnings = nullptr);

} // namespace acsel::cli
