// Reads an AIC system yaml (GPU spec) into a Platform.
#pragma once

#include "core/model/platform.h"

#include <string>

namespace acsel
{

Platform loadSystemYaml(const std::string& path, const std::string& id);
Platform parseSystemYaml(const std::string& text, const std::string& file, const std::string& id);

} // namespace acsel
