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

namespace
{

bool isMixtral(const ModelArch& a)
{
    return a.family == "mixtral";
}

std::string layerPrefix(int layer)
{
    return "model.layers." + std::to_string(layer);
}

// The MoE block of a layer: "model.layers.3.mlp" (Qwen3-MoE), "...block_sparse_moe" (Mixtral).
std::string moeBlock(const ModelArch& a, int layer)
{
    return layerPrefix(layer) + (isMixtral(a) ? ".block_sparse_moe" : ".mlp");
}

// An expert's name of an MLP linear: Mixtral's w1 (gate), w3 (up), w2 (down).
std::string expertLinear(const ModelArch& a, Linear l)
{
    if (!isMixtral(a))
        return std::string(toString(l));
    return l == Linear::Gate ? "w1" : l == Linear::Up ? "w3" : "w2";
}

std::string sharedExpert(const ModelArch& a, int layer)
{
    return moeBlock(a, layer) + ".shared_expert";
}

} // namespace

std::vector<std::string> linearModules(const ModelArch& a, int layer, Linear l)
{
    if (isAttention(l) || !a.isMoeLayer(layer))
        return {layerPrefix(layer) + (isAttention(l) ? ".self_attn." : ".mlp.") +
                std::string(toString(l))};
    std::vector<std::string> out;
    const std::string experts = moeBlock(a, layer) + ".experts.";
    for (int e = 0; e < a.moe.experts; ++e)
        out.push_back(experts + std::to_string(e) + "." + expertLinear(a, l));
    if (a.moe.sharedIntermediate > 0)
        out.push_back(sharedExpert(a, layer) + "." + std::string(toString(l)));
    return out;
}

std::vector<std::string> linearPatterns(const ModelArch& a, int layer, Linear l)
{
    if (isAttention(l) || !a.isMoeLayer(layer))
        return linearModules(a, layer, l);
    std::vector<std::string> out{moeBlock(a, layer) + ".experts.*." + expertLinear(a, l)};
    if (a.moe.sharedIntermediate > 0)
        out.push_back(sharedExpert(a, layer) + "." + std::string(toString(l)));
    return out;
}

std::string routerModule(const ModelArch& a, int layer)
{
    return a.isMoeLayer(layer) ? moeBlock(a, layer) + ".gate" : std::string();
}

std::string sharedGateModule(const ModelArch& a, int layer)
{
    return a.isMoeLayer(layer) && a.moe.sharedIntermediate > 0 ? sharedExpert(a, layer) + "_gate"
                                                               : std::string();
}

LinearShape shapeOf(const ModelArch& a, Linear l, MlpOf of)
{
    const std::int64_t hidden = a.hidden;
    const std::int64_t mlp = of == MlpOf::RoutedExpert   ? a.moe.expertIntermediate
                             : of == MlpOf::SharedExpert ? a.moe.sharedIntermediate
                                                         : a.intermediate;
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
        return {hidden, mlp};
    case Linear::Down:
        return {mlp, hidden};
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

// A dense layer's MLP, or an MoE layer's block: router, routed experts, shared expert.
void addMlp(std::vector<std::string>& out, const ModelArch& a, int layer, bool all)
{
    const std::string prefix = layerPrefix(layer);
    if (!a.isMoeLayer(layer)) {
        if (all)
            out.push_back(prefix + ".mlp");
        for (Linear l : {Linear::Gate, Linear::Up, Linear::Down})
            addLinear(out, linearModules(a, layer, l).front(), all);
        if (all)
            out.push_back(prefix + ".mlp.act_fn");
        return;
    }
    const std::string block = moeBlock(a, layer);
    if (all)
        out.insert(out.end(), {block, block + ".experts"});
    addLinear(out, routerModule(a, layer), all);
    for (int e = 0; e < a.moe.experts; ++e) {
        const std::string expert = block + ".experts." + std::to_string(e);
        if (all)
            out.push_back(expert);
        for (Linear l : {Linear::Gate, Linear::Up, Linear::Down})
            addLinear(out, expert + "." + expertLinear(a, l), all);
        if (all)
            out.push_back(expert + ".act_fn");
    }
    if (a.moe.sharedIntermediate > 0) {
        const std::string shared = sharedExpert(a, layer);
        if (all)
            out.push_back(shared);
        for (Linear l : {Linear::Gate, Linear::Up, Linear::Down})
            addLinear(out, shared + "." + std::string(toString(l)), all);
        if (all)
            out.push_back(shared + ".act_fn");
        addLinear(out, sharedGateModule(a, layer), all);
    }
}

std::vector<std::string> names(const ModelArch& a, bool all)
{
    std::vector<std::string> out;
    if (all) {
        out.insert(out.end(), {"model", "model.embed_tokens", "model.layers"});
    }
    for (int i = 0; i < a.layers; ++i) {
        const std::string layer = layerPrefix(i);
        if (all)
            out.insert(out.end(), {layer, layer + ".self_attn"});
        for (Linear l : {Linear::Q, Linear::K, Linear::V, Linear::O})
            addLinear(out, linearModules(a, i, l).front(), all);
        if (all && a.qkNorm)
            out.insert(out.end(), {layer + ".self_attn.q_norm", layer + ".self_attn.k_norm"});
        for (std::string_view q : kAttentionQuantizers)
            out.push_back(layer + ".self_attn." + std::string(q));
        addMlp(out, a, i, all);
        if (all)
            out.insert(out.end(),
                       {layer + ".input_layernorm", layer + ".post_attention_layernorm"});
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
