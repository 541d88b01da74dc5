// The options of the commands that predict with the full engine (--fmc, --surrogate), and
// building it from the workspace.
#pragma once

#include "app/common/args.h"
#include "core/search/workspaceengine.h"

#include <memory>
#include <vector>

namespace acsel::cli
{

// --workspace, --tables, --fmc, --surrogate
std::vector<app::OptionSpec> engineOptions();
std::unique_ptr<WorkspaceEngine> loadEngineFromArgs(const app::Args& args);

} // namespace acsel::cli
