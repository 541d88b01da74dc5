// The project's workspace JSON (schema_version 1): models (HF config facts with their ids),
// and where the other data lives. Operator tables are not part of the file: the caller names
// the tables directory (or none), and the stacks found there join the workspace.
#pragma once

#include "core/data/jsonfields.h"
#include "core/model/workspace.h"

#include <string>

namespace acsel
{

inline constexpr int kWorkspaceSchemaVersion = 1;

// tablesDir empty: no operator tables; the workspace says so in its notes.
Workspace loadWorkspace(const std::string& path, const std::string& tablesDir);
Workspace parseWorkspace(const Json& j, const std::string& file, const std::string& tablesDir);
// Adds the stacks of a tables directory (throws LoadError if it has none).
void attachTables(Workspace& ws, const std::string& tablesDir);

} // namespace acsel
