// The load-compatibility table both executables check an export against (core/export/
// loadcheck.h), and the check's findings as lines for a file's header, a summary or a dialog.
#pragma once

#include "core/export/loadcheck.h"
#include "core/model/workspace.h"

#include <string>
#include <vector>

namespace acsel::app
{

// engine_loaders.json beside the workspace file (a workspace of one's own may carry its own),
// else the bundled datasets/engine_loaders.json; empty when neither exists.
LoaderTable shippedLoaderTable(const Workspace& ws);

// One line per finding of `check` (of `engine`): "will not load: <why>" for a refusal,
// "note: <why>" for an uncertain item, and a note when the table has no entry for the release.
std::vector<std::string> loadCheckLines(const LoadCheck& check, Backend engine);

} // namespace acsel::app
