// The per-layer codes of the scope-aware quality features (features.h, FeatureCoding::ScopeAware),
// oriented so that more quantization never reads as less damage.
//
// A format's quality-effective bits e combine the rounding noise of its weights and (W8A8, W4A4)
// its activations: both add noise power 4^-bits to a GEMM's output, so
//   e = -1/2 log2(4^-b_w + 4^-b_a)      (no b_a term for a weight-only format),
// where b_w and b_a count the scale bits per element (the granularity: nvfp4's e4m3 scale per
// 16 values adds 0.5 bit, fp8_block's fp32 scale per 1x128 activation group 0.25). Every 4-bit
// format has e <= 4.25 and every 8-bit one e >= 7.5, so a move to fewer bits never raises e.
// Two codes of e, both non-increasing in e and 0 for bf16:
//   deficit (16 - e)/16, the bit deficit with scales and activations counted, and
//   noise    4^(4 - e), the relative noise power (1 for nvfp4): KL grows with the noise power
//            to second order, so it carries the 8-to-4-bit jump the deficit alone cannot.
// A layer's two tensor groups, attention (q, k, v, o) and MLP (gate, up, down), enter by their
// share of the layer's linear parameters, each only when the band's scope quantizes it. On an
// MoE layer the MLP group is every expert (the experts scope): its share is the expert-parameter
// share, all routed experts and the shared one against attention (the router, never quantized,
// counts in neither), 0.97 for Qwen3-30B-A3B where a dense layer's MLP has about 2/3.
#pragma once

#include "core/model/format.h"
#include "core/model/modelarch.h"

namespace acsel
{

enum class TensorGroup : std::uint8_t { Attention, Mlp };
inline constexpr int kTensorGroupCount = 2;

// Bits per activation element including scales; 0 for a format that keeps activations bf16.
double activationBits(Format f);
// e above; 16 for bf16.
double qualityEffectiveBits(Format f);
double deficitCode(Format f);
double noiseCode(Format f);
bool scopeQuantizes(Scope s, TensorGroup g);
// The group's share of layer `layer`'s quantizable linear weight parameters.
double groupShare(const ModelArch& model, int layer, TensorGroup g);

} // namespace acsel
