#include "core/model/backend.h"

namespace acsel
{

const BackendInfo& info(Backend b)
{
    return kBackends[static_cast<std::size_t>(b)];
}

std::optional<Backend> parseBackend(std::string_view name)
{
    for (const BackendInfo& i : kBackends)
        if (i.name == name)
            return i.backend;
    return std::nullopt;
}

std::string backendNames()
{
    std::string out;
    for (const BackendInfo& i : kBackends)
        out += (out.empty() ? "" : ", ") + std::string(i.name);
    return out;
}

} // namespace acsel
