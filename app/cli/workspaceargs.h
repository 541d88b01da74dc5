// The options every workspace-using command shares (--workspace, --tables), and loading.
#pragma once

#include "app/common/args.h"
#include "core/model/workspace.h"

#include <vector>

namespace acsel::cli
{

std::vector<app::OptionSpec> workspaceOptions();
// Resolves and loads the workspace; a --tables or ACSEL_TABLES that does not exist is an
// error (LoadError), while no tables at all is allowed and noted in the workspace.
Workspace loadWorkspaceFromArgs(const app::Args& args);

} // namespace acsel::cli
