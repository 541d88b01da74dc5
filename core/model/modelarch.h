// A dense decoder's architecture, as read from a Hugging Face config.json.
#pragma once

#include <cstdint>
#include <string>

namespace acsel
{

struct ModelArch {
    std::string name;   // short name used in the workspace: "Qwen3-8B"
    std::string hfId;   // "Qwen/Qwen3-8B"
    std::string family; // "qwen3", "llama"
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kvHeads = 0;
    int headDim = 0;
    int intermediate = 0;
    int vocab = 0;
    bool tiedEmbeddings = false;
    bool qkNorm = false; // Qwen3 normalises q and k per head (two head_dim vectors per layer)

    // Linear weight parameters of one decoder layer, split as the formats see them.
    std::int64_t attnLinearParams() const; // q, k, v, o
    std::int64_t mlpLinearParams() const;  // gate, up, down
    std::int64_t layerNormParams() const;
    std::int64_t embeddingParams() const { return std::int64_t{vocab} * hidden; }
    // Every parameter: embeddings, layers, final norm and an untied lm_head.
    std::int64_t paramCount() const;
};

} // namespace acsel
