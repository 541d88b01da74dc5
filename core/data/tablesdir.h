// Finds the serving stacks in an AIC-style tables directory:
//   <dir>/<system>/system.yaml and <dir>/<system>/<backend>/<version>/{gemm,context_attention,
//   generation_attention}_perf.csv
#pragma once

#include "core/model/platform.h"

#include <string>
#include <vector>

namespace acsel
{

struct DiscoveredStack {
    Platform platform; // from the system yaml
    Stack stack;       // platform index left 0: the caller places platforms
};

// Whether dir is a folder with at least one stack's tables (<system>/system.yaml and
// <system>/<backend>/<version>/ with the GEMM and both attention tables), without reading them.
// Throws LoadError for a folder that cannot be listed.
bool holdsStacks(const std::string& dir);

// Throws LoadError when dir does not exist or holds no stack at all.
std::vector<DiscoveredStack> discoverStacks(const std::string& dir);

// Distinct values of one column (by header name) in file order; used to list a table's
// formats without loading it.
std::vector<std::string> distinctColumnValues(const std::string& csvPath,
                                              const std::string& column);

} // namespace acsel
