#include "core/model/platform.h"

#include <algorithm>

namespace acsel
{

namespace
{
constexpr std::array<std::string_view, kInterconnectCount> kInterconnectNames = {"none", "pcie",
                                                                                 "nvlink"};
} // namespace

std::string_view toString(Interconnect i)
{
    return kInterconnectNames[static_cast<std::size_t>(i)];
}

std::optional<Interconnect> parseInterconnect(std::string_view s)
{
    for (int i = 0; i < kInterconnectCount; ++i)
        if (kInterconnectNames[static_cast<std::size_t>(i)] == s)
            return static_cast<Interconnect>(i);
    return std::nullopt;
}

bool Stack::hasFormat(Format f) const
{
    return std::find(formats.begin(), formats.end(), f) != formats.end();
}

} // namespace acsel
