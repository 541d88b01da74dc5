#include "core/data/hfconfig.h"

#include <nlohmann/json.hpp>

namespace acsel
{
namespace
{

constexpr int kBig = 1 << 24;

bool isDense(const std::string& type)
{
    return type == "llama" || type == "qwen3" || type == "qwen2" || type == "mistral";
}

bool given(const Json& j, const char* key)
{
    return j.contains(key) && !j.at(key).is_null();
}

// The MoE fields of qwen3_moe (num_experts, moe_intermediate_size, decoder_sparse_step,
// mlp_only_layers; intermediate_size sizes the dense layers), qwen2_moe (the same and
// shared_expert_intermediate_size, its shared expert; Hugging Face's Qwen3-MoE has none and
// ignores the field, and so do we) and mixtral (num_local_experts; intermediate_size is the
// experts' size, no dense layer).
void parseMoe(const Json& j, const JsonFields& f, const std::string& ptr, ModelArch& m)
{
    const bool mixtral = m.family == "mixtral";
    m.moe.experts = f.integer(j, mixtral ? "num_local_experts" : "num_experts", ptr, 1, 4096);
    m.moe.topk = f.integer(j, "num_experts_per_tok", ptr, 1, m.moe.experts);
    if (mixtral) {
        m.moe.expertIntermediate = f.integer(j, "intermediate_size", ptr, 1, kBig);
        return;
    }
    m.moe.expertIntermediate = f.integer(j, "moe_intermediate_size", ptr, 1, kBig);
    if (m.family == "qwen2_moe")
        m.moe.sharedIntermediate = f.integer(j, "shared_expert_intermediate_size", ptr, 0, kBig);
    if (given(j, "decoder_sparse_step"))
        m.moe.sparseStep = f.integer(j, "decoder_sparse_step", ptr, 1, m.layers);
    if (given(j, "mlp_only_layers")) {
        const Json& dense = f.array(j, "mlp_only_layers", ptr);
        for (std::size_t i = 0; i < dense.size(); ++i) {
            const std::string at = ptr + "/mlp_only_layers/" + std::to_string(i);
            if (!dense[i].is_number_integer() || dense[i].get<long long>() < 0 ||
                dense[i].get<long long>() >= m.layers)
                f.fail(at, "expected a layer index from 0 to " + std::to_string(m.layers - 1));
            m.moe.mlpOnlyLayers.push_back(dense[i].get<int>());
        }
    }
    if (m.moeLayers() < m.layers)
        m.intermediate = f.integer(j, "intermediate_size", ptr, 1, kBig);
}

// Hugging Face's Qwen2 and Qwen2-MoE give q, k and v a bias whatever the config says; Llama,
// Qwen3 and Qwen3-MoE give q, k, v and o one when attention_bias is true (absent: false);
// Mistral and Mixtral never do and ignore the field, and so do we.
AttnBias attentionBias(const Json& j, const JsonFields& f, const std::string& ptr,
                       const std::string& family)
{
    if (family == "qwen2" || family == "qwen2_moe")
        return AttnBias::Qkv;
    if (family == "mistral" || family == "mixtral")
        return AttnBias::None;
    return f.booleanOr(j, "attention_bias", ptr, false) ? AttnBias::Qkvo : AttnBias::None;
}

} // namespace

ModelArch parseHfConfig(const Json& j, const std::string& file, const std::string& ptr)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail(ptr, "expected a config.json object");
    ModelArch m;
    m.family = f.stringOr(j, "model_type", ptr, "");
    const bool moe = m.family == "qwen3_moe" || m.family == "qwen2_moe" || m.family == "mixtral";
    if (!isDense(m.family) && !moe)
        f.fail(ptr + "/model_type", "expected a decoder model_type (llama, qwen3, qwen2, mistral, "
                                    "qwen3_moe, qwen2_moe, mixtral), found '" +
                                        m.family + "'");
    if (!moe)
        for (const char* key : {"num_experts", "num_local_experts", "moe_intermediate_size"})
            if (given(j, key))
                f.fail(ptr + "/" + key, "model_type '" + m.family +
                                            "' is a dense decoder but this field describes "
                                            "experts: expected an MoE model_type (qwen3_moe, "
                                            "qwen2_moe, mixtral) or no expert fields");
    m.layers = f.integer(j, "num_hidden_layers", ptr, 1, 1024);
    m.hidden = f.integer(j, "hidden_size", ptr, 1, kBig);
    m.heads = f.integer(j, "num_attention_heads", ptr, 1, 4096);
    m.kvHeads = j.contains("num_key_value_heads")
                    ? f.integer(j, "num_key_value_heads", ptr, 1, m.heads)
                    : m.heads;
    if (m.heads % m.kvHeads != 0)
        f.fail(ptr + "/num_key_value_heads",
               "expected a divisor of num_attention_heads (" + std::to_string(m.heads) + ")");
    if (j.contains("head_dim") && !j.at("head_dim").is_null()) {
        m.headDim = f.integer(j, "head_dim", ptr, 1, 4096);
    } else {
        if (m.hidden % m.heads != 0)
            f.fail(ptr + "/hidden_size", "no head_dim given and hidden_size is not a multiple "
                                         "of num_attention_heads");
        m.headDim = m.hidden / m.heads;
    }
    if (moe)
        parseMoe(j, f, ptr, m);
    else
        m.intermediate = f.integer(j, "intermediate_size", ptr, 1, kBig);
    m.vocab = f.integer(j, "vocab_size", ptr, 1, kBig);
    m.tiedEmbeddings = f.booleanOr(j, "tie_word_embeddings", ptr, false);
    m.qkNorm = m.family == "qwen3" || m.family == "qwen3_moe";
    m.attnBias = attentionBias(j, f, ptr, m.family);
    return m;
}

} // namespace acsel
