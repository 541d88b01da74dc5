#include "core/export/modulenames.h"

namespace acsel
{

std::string_view toString(Linear l)
{
    switch (l) {
    case Linear::Q:
        return "q_proj";
    case Linear::K:
        return "k_proj";
    case Linear::V:
        return "v_proj";
    case Linear::O:
        return "o_proj";
    case Linear::Gate:
        return "gate_proj";
    case Linear::Up:
        return "up_proj";
    case Linear::Down:
        return "down_proj";
    }
    return "?";
}

bool isAttention(Linear l)
{
    return l == Linear::Q || l == Linear::K || l == Linear::V || l == Linear::O;
}

bool inScope(Scope s, Linear l)
{
    switch (s) {
    case Scope::Full:
        return true;
    case Scope::Mlp:
        return !isAttention(l);
    case Scope::Attn:
        return isAttention(l);
    }
    return false;
}

int fusedGroup(Linear l)
{
    switch (l) {
    case Linear::Q:
    case Linear::K:
    case Linear::V:
        return 0;
    case Linear::O:
        return 1;
    case Linear::Gate:
    case Linear::Up:
        return 2;
    case Linear::Down:
        return 3;
    }
    return -1;
}

std::string linearModule(int layer, Linear l)
{
    return "model.layers." + std::to_string(layer) + (isAttention(l) ? ".self_attn." : ".mlp.") +
           std::string(toString(l));
}

LinearShape shapeOf(const ModelArch& a, Linear l)
{
    const std::int64_t hidden = a.hidden;
    const std::int64_t q = std::int64_t{a.heads} * a.headDim;
    const std::int64_t kv = std::int64_t{a.kvHeads} * a.headDim;
    switch (l) {
    case Linear::Q:
        return {hidden, q};
    case Linear::K:
    case Linear::V:
        return {hidden, kv};
    case Linear::O:
        return {q, hidden};
    case Linear::Gate:
    case Linear::Up:
        return {hidden, a.intermediate};
    case Linear::Down:
        return {a.intermediate, hidden};
    }
    return {};
}

LinearShape lmHeadShape(const ModelArch& a)
{
    return {a.hidden, a.vocab};
}

namespace
{

constexpr std::array<std::string_view, 3> kLinearQuantizers = {
    "input_quantizer", "output_quantizer", "weight_quantizer"};
constexpr std::array<std::string_view, 4> kAttentionQuantizers = {
    "q_bmm_quantizer", "k_bmm_quantizer", "v_bmm_quantizer", "softmax_quantizer"};

void addLinear(std::vector<std::string>& out, const std::string& module, bool withModule)
{
    if (withModule)
        out.push_back(module);
    for (std::string_view q : kLinearQuantizers)
        out.push_back(module + "." + std::string(q));
}

std::vector<std::string> names(const ModelArch& a, bool all)
{
    std::vector<std::string> out;
    if (all) {
        out.insert(out.end(), {"model", "model.embed_tokens", "model.layers"});
    }
    for (int i = 0; i < a.layers; ++i) {
        const std::string layer = "model.layers." + std::to_string(i);
        if (all)
            out.insert(out.end(), {layer, layer + ".self_attn"});
        for (Linear l : kAllLinears) {
            if (l == Linear::Gate && all)
                out.push_back(layer + ".mlp");
            addLinear(out, linearModule(i, l), all);
            if (l == Linear::O) {
                if (all && a.qkNorm)
                    out.insert(out.end(),
                               {layer + ".self_attn.q_norm", layer + ".self_attn.k_norm"});
                for (std::string_view q : kAttentionQuantizers)
                    out.push_back(layer + ".self_attn." + std::string(q));
            }
        }
        if (all)
            out.insert(out.end(), {layer + ".mlp.act_fn", layer + ".input_layernorm",
                                   layer + ".post_attention_layernorm"});
    }
    if (all)
        out.insert(out.end(), {"model.norm", "model.rotary_emb"});
    addLinear(out, std::string(kLmHead), all);
    return out;
}

} // namespace

std::vector<std::string> quantizerNames(const ModelArch& a)
{
    return names(a, false);
}
std::vector<std::string> moduleNames(const ModelArch& a)
{
    return names(a, true);
}

} // namespace acsel
