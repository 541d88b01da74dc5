// A decoder's architecture, as read from a Hugging Face config.json: dense (Llama, Qwen3) or
// mixture of experts (Qwen3-MoE, Mixtral).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace acsel
{

// The MoE part of a decoder (all zero for a dense one). A layer's MLP is either dense (the
// model's `intermediate` columns) or an MoE block: a router (hidden x experts, never
// quantized) picking `topk` of `experts` routed experts of `expertIntermediate` columns each
// (gate, up, down as a dense MLP), plus a shared expert of `sharedIntermediate` columns that
// every token runs when the config has one (Qwen2-MoE; its output scaled by a one-column
// sigmoid gate, hidden x 1, never quantized like the router). The `experts` scope covers every
// expert, routed and shared: the formats, memory, quality features, latency and the exported
// globs treat the shared expert as the routed ones. As Hugging Face's Qwen3-MoE and Qwen2-MoE:
// layer l is an MoE layer when (l + 1) % sparseStep == 0 and l is not in mlpOnlyLayers;
// Mixtral: every layer.
struct MoeArch {
    int experts = 0;
    int topk = 0;
    int expertIntermediate = 0;
    int sharedIntermediate = 0;
    int sparseStep = 1;
    std::vector<int> mlpOnlyLayers;
};

// The attention linears that carry a bias (never quantized), as Hugging Face builds them: Qwen2
// and Qwen2-MoE always q, k and v; Llama, Qwen3 and Qwen3-MoE all four when the config's
// attention_bias is true; Mistral and Mixtral none.
enum class AttnBias : std::uint8_t { None, Qkv, Qkvo };

struct ModelArch {
    std::string name;   // short name used in the workspace: "Qwen3-8B"
    std::string hfId;   // "Qwen/Qwen3-8B"
    std::string family; // model_type: "qwen3", "llama", "qwen3_moe", "qwen2_moe", "mixtral"
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kvHeads = 0;
    int headDim = 0;
    int intermediate = 0; // dense MLP columns (0 when no layer is dense: Mixtral)
    int vocab = 0;
    bool tiedEmbeddings = false;
    bool qkNorm = false; // Qwen3 normalises q and k per head (two head_dim vectors per layer)
    AttnBias attnBias = AttnBias::None;
    MoeArch moe;

    bool isMoe() const { return moe.experts > 0; }
    bool isMoeLayer(int layer) const;
    // MoE layers among layers [begin, end).
    int moeLayersIn(int begin, int end) const;
    int moeLayers() const { return moeLayersIn(0, layers); }

    // Linear weight parameters of one decoder layer, split as the formats see them.
    std::int64_t attnLinearParams() const; // q, k, v, o
    std::int64_t mlpLinearParams() const;  // gate, up, down of a dense layer
    std::int64_t layerNormParams() const;
    std::int64_t attnBiasParams() const; // the biases attnBias names
    std::int64_t embeddingParams() const { return std::int64_t{vocab} * hidden; }
    // One routed expert (gate, up, down), the router with the shared expert's gate (the
    // never-quantized linears), the shared expert (0 when none).
    std::int64_t expertParams() const;
    std::int64_t routerParams() const;
    std::int64_t sharedExpertParams() const;
    // Every parameter: embeddings, layers (all experts, biases), final norm and an untied
    // lm_head.
    std::int64_t paramCount() const;
    // The parameters one token runs through: as paramCount with topk routed experts per MoE
    // layer instead of all of them (the embedding counted, as model cards do).
    std::int64_t activeParamCount() const;

private:
    std::int64_t countWith(std::int64_t routedExperts) const;
};

} // namespace acsel
