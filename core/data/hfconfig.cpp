#include "core/data/hfconfig.h"

#include <nlohmann/json.hpp>

namespace acsel
{

ModelArch parseHfConfig(const Json& j, const std::string& file, const std::string& ptr)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail(ptr, "expected a config.json object");
    ModelArch m;
    m.family = f.stringOr(j, "model_type", ptr, "");
    if (m.family != "llama" && m.family != "qwen3" && m.family != "qwen2" && m.family != "mistral")
        f.fail(ptr + "/model_type", "expected a dense decoder model_type (llama, qwen3, qwen2, "
                                    "mistral), found '" +
                                        m.family + "'");
    constexpr int kBig = 1 << 24;
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
    m.intermediate = f.integer(j, "intermediate_size", ptr, 1, kBig);
    m.vocab = f.integer(j, "vocab_size", ptr, 1, kBig);
    m.tiedEmbeddings = f.booleanOr(j, "tie_word_embeddings", ptr, false);
    m.qkNorm = m.family == "qwen3";
    return m;
}

} // namespace acsel
