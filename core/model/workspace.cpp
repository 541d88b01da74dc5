#include "core/model/workspace.h"

namespace acsel
{

std::optional<int> Workspace::findModel(const std::string& nameOrHfId) const
{
    for (std::size_t i = 0; i < models.size(); ++i)
        if (models[i].name == nameOrHfId || models[i].hfId == nameOrHfId)
            return static_cast<int>(i);
    return std::nullopt;
}

std::optional<int> Workspace::findStack(const std::string& id) const
{
    for (std::size_t i = 0; i < stacks.size(); ++i)
        if (stacks[i].id == id)
            return static_cast<int>(i);
    return std::nullopt;
}

std::optional<int> Workspace::findPlatform(const std::string& id) const
{
    for (std::size_t i = 0; i < platforms.size(); ++i)
        if (platforms[i].id == id)
            return static_cast<int>(i);
    return std::nullopt;
}

} // namespace acsel
