// Module and quantizer names of a Hugging Face decoder (Llama, Qwen3; Qwen3-MoE, Mixtral) as
// ModelOpt sees it after mtq.quantize wraps its linears and attention (docs/EXPORT.md), and the
// shapes of the linears (for the block-size rules of block formats). On an MoE layer the MLP's
// gate/up/down are those of every routed expert (Mixtral's w1/w3/w2) and of the shared expert
// when the config has one; the router beside them is never quantized.
#pragma once

#include "core/model/format.h"
#include "core/model/modelarch.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

// The seven linears of a decoder layer, in module order.
enum class Linear : std::uint8_t { Q, K, V, O, Gate, Up, Down };
inline constexpr int kLinearCount = 7;
inline constexpr std::array<Linear, kLinearCount> kAllLinears = {
    Linear::Q, Linear::K, Linear::V, Linear::O, Linear::Gate, Linear::Up, Linear::Down};

std::string_view toString(Linear l); // "q_proj"
bool isAttention(Linear l);          // q, k, v, o
// Whether a band of this scope quantizes the linear (full: all; mlp: gate/up/down; attn: q/k/v/o).
bool inScope(Scope s, Linear l);
// Linears fused on export share a group id: q/k/v one, gate/up another, o and down alone.
int fusedGroup(Linear l);

// The modules that carry linear l of a layer: "model.layers.3.self_attn.q_proj"; on an MoE
// layer one per routed expert ("model.layers.3.mlp.experts.0.gate_proj" ...), then the shared
// expert's.
std::vector<std::string> linearModules(const ModelArch& arch, int layer, Linear l);
// The names a recipe gives linear l of a layer: the module; on an MoE layer one glob over its
// routed experts ("model.layers.3.mlp.experts.*.gate_proj", which no other module matches),
// then the shared expert's module.
std::vector<std::string> linearPatterns(const ModelArch& arch, int layer, Linear l);
// The router of an MoE layer ("model.layers.3.mlp.gate", Mixtral's
// "model.layers.3.block_sparse_moe.gate"), which no recipe quantizes; empty on a dense layer.
std::string routerModule(const ModelArch& arch, int layer);
// The one-column gate of an MoE layer's shared expert ("model.layers.3.mlp.shared_expert_gate"),
// never quantized either; empty on a dense layer or without a shared expert.
std::string sharedGateModule(const ModelArch& arch, int layer);
inline constexpr std::string_view kLmHead = "lm_head";

struct LinearShape {
    std::int64_t inFeatures = 0;  // k: the axis block formats quantize in blocks along
    std::int64_t outFeatures = 0; // n
};
// Whose MLP a linear belongs to: a dense layer's, an MoE layer's routed expert's or its shared
// expert's (their intermediate widths differ).
enum class MlpOf : std::uint8_t { Dense, RoutedExpert, SharedExpert };
LinearShape shapeOf(const ModelArch& arch, Linear l, MlpOf mlp = MlpOf::Dense);
LinearShape lmHeadShape(const ModelArch& arch);

// Every quantizer module of the quantized model: per linear (and lm_head) its input, output
// and weight quantizers; per attention its q/k/v bmm and softmax quantizers.
std::vector<std::string> quantizerNames(const ModelArch& arch);
// Every named module (quantizers included), for checking that globs hit only what they mean.
std::vector<std::string> moduleNames(const ModelArch& arch);

} // namespace acsel
