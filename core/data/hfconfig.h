// Reads a Hugging Face config.json of a decoder into a ModelArch: dense (llama, qwen3, qwen2,
// mistral) or mixture of experts (qwen3_moe, mixtral). A dense model_type whose fields
// describe experts (num_experts, num_local_experts, moe_intermediate_size) is refused: pricing
// it as dense would count a fraction of its weights.
#pragma once

#include "core/data/jsonfields.h"
#include "core/model/modelarch.h"

namespace acsel
{

// `ptr` prefixes JSON pointers in errors (for a config embedded in another file).
ModelArch parseHfConfig(const Json& j, const std::string& file, const std::string& ptr = "");

} // namespace acsel
