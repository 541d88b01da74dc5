// The options of the commands that predict with the full engine (--fmc, --surrogate), and
// building it from the workspace.
#pragma once

#include "app/common/args.h"
#include "core/search/workspaceengine.h"

#include <memory>
#include <ostream>
#include <vector>

namespace acsel::cli
{

// --workspace, --tables, --fmc, --confidence, --surrogate
std::vector<app::OptionSpec> engineOptions();
// --confidence P (needs --fmc) replaces each stack's FMC lines by their P-quantile lines
// (core/latency/fmcchoice.h); stacks without a spread keep the median line, with a warning on
// `warnings` (standard error when null).
std::unique_ptr<WorkspaceEngine> loadEngineFromArgs(const app::Args& args,
                                                    std::ostream* warnings = nullptr);

} // namespace acsel::cli
