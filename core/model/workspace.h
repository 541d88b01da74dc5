// Everything a session works on: models, platforms, stacks, and where the data came from.
#pragma once

#include "core/model/modelarch.h"
#include "core/model/platform.h"

#include <optional>
#include <string>
#include <vector>

namespace acsel
{

// A measured engine release's time outside the engine's steps before the first token, fitted on
// measured rows (the workspace's `request_overheads` file; docs/SERVING.md, "Request overhead
// measured per release").
struct RequestOverhead {
    std::string stack;   // "h100_sxm/trtllm"
    std::string release; // the engine release as measured (a silicon row's backend_version)
    double ms = 0;
};

struct Workspace {
    int schemaVersion = 1;
    std::string name;
    std::string file;      // the workspace file it was read from
    std::string tablesDir; // operator tables directory in use; empty when none was found
    std::vector<ModelArch> models;
    std::vector<Platform> platforms;
    std::vector<Stack> stacks;
    std::vector<std::string> notes;   // what the user should know (no tables, synthetic data, ...)
    std::string qualityFile;          // quality measurement set, relative paths resolved
    std::string platformsFile;        // spec-sheet platforms (GPUs without tables)
    std::string utilisationFile;      // fitted utilisation model for those GPUs
    std::string requestOverheadsFile; // where requestOverheads came from
    std::vector<RequestOverhead> requestOverheads; // per (stack, measured release)
    bool qualitySynthetic = false;                 // the quality data is generated, not measured

    std::optional<int> findModel(const std::string& nameOrHfId) const;
    std::optional<int> findStack(const std::string& id) const;
    std::optional<int> findPlatform(const std::string& id) const;
    const Platform& platformOf(const Stack& s) const
    {
        return platforms[static_cast<std::size_t>(s.platform)];
    }
};

} // namespace acsel
