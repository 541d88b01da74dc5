// The options every workspace-using command shares (--workspace, --tables), and loading.
#pragma once

#include "app/common/args.h"
#include "core/model/workspace.h"

#include <string>
#include <vector>

namespace acsel::cli
{

std::vector<app::OptionSpec> workspaceOptions();
// Resolves and loads the workspace. A --tables that does not exist is an error (LoadError); an
// ACSEL_TABLES that is not a folder means "no tables here" and, like no tables at all, is
// allowed and noted in the workspace (spec-only stacks still load).
Workspace loadWorkspaceFromArgs(const app::Args& args);

// The workspace's model names, comma-separated: what an unknown model option expected.
std::string modelNames(const Workspace& ws);

// The stack `id` names in the workspace; a LoadError at `file`'s /stack when it has none.
const Stack& stackOf(const Workspace& ws, const std::string& id, const std::string& file);

} // namespace acsel::cli
