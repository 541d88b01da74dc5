// Everything a session works on: models, platforms, stacks, and where the data came from.
#pragma once

#include "core/model/modelarch.h"
#include "core/model/platform.h"

#include <optional>
#include <string>
#include <vector>

namespace acsel
{

struct Workspace {
    int schemaVersion = 1;
    std::string name;
    std::string file;      // the workspace file it was read from
    std::string tablesDir; // operator tables directory in use; empty when none was found
    std::vector<ModelArch> models;
    std::vector<Platform> platforms;
    std::vector<Stack> stacks;
    std::vector<std::string> notes; // what the user should know (no tables, synthetic data, ...)
    std::string qualityFile;        // quality measurement set, relative paths resolved
    bool qualitySynthetic = false;  // the quality data is generated, not measured

    std::optional<int> findModel(const std::string& nameOrHfId) const;
    std::optional<int> findStack(const std::string& id) const;
    std::optional<int> findPlatform(const std::string& id) const;
    const Platform& platformOf(const Stack& s) const
    {
        return platforms[static_cast<std::size_t>(s.platform)];
    }
};

} // namespace acsel
