// Reads a Hugging Face config.json of a dense decoder (Llama, Qwen3) into a ModelArch.
#pragma once

#include "core/data/jsonfields.h"
#include "core/model/modelarch.h"

namespace acsel
{

// `ptr` prefixes JSON pointers in errors (for a config embedded in another file).
ModelArch parseHfConfig(const Json& j, const std::string& file, const std::string& ptr = "");

} // namespace acsel
