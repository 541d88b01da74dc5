// The request overheads file (datasets/request_overheads.json, schema_version 1): per stack and
// measured engine release, the time a served request spends outside the engine's steps before
// its first token, each entry saying how it was fitted (docs/SERVING.md, "Request overhead
// measured per release"). The workspace names it (`request_overheads`).
#pragma once

#include "core/model/workspace.h"

#include <string>
#include <vector>

namespace acsel
{

inline constexpr int kRequestOverheadsSchemaVersion = 1;

// Throws LoadError naming the file and JSON pointer: a stack other than "system/backend", an
// empty release, an overhead outside [0, 10000] ms, an entry without its fit, a second entry
// for a stack and release, unknown keys, a newer schema.
std::vector<RequestOverhead> loadRequestOverheads(const std::string& path);

} // namespace acsel
