#include "core/model/config.h"

namespace acsel
{

std::string_view toString(ServingMode m)
{
    return m == ServingMode::Continuous ? "continuous" : "static";
}

std::optional<ServingMode> parseServingMode(std::string_view name)
{
    if (name == "static")
        return ServingMode::Static;
    if (name == "continuous")
        return ServingMode::Continuous;
    return std::nullopt;
}

} // namespace acsel
