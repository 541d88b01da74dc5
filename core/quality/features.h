// The quality surrogate's features phi(C) (docs/METHOD.md 2), with names, so that a report can show
// the learned weight of each.
//
//  0      log_params                 log(parameter count)
//  1-4    algo_{max,smoothquant,awq,gptq}   one-hot algorithm times the quantized share of
//         the layers (0 for a bf16 model, whatever algorithm it names)
//  5      lm_head_quantized          exclusion flag
//  6      kv_quantized               exclusion flag (KV cache fp8)
//  7-18   {bit_deficit,scope,granularity}_{mean,early,middle,late}
//         per-layer codes in [0,1] aggregated by the plain mean over layers and by
//         depth-weighted means over the early, middle and late thirds.
//
// Per-layer codes: bit deficit (16 - bits)/16; scope code full 1, mlp 2/3, attn 1/3 and 0 for
// a bf16 layer (nothing quantized); granularity code from the format (0 for bf16).
// Depth weights: layer l covers the depth interval [l/L, (l+1)/L); its weight in a third is the
// share of that third it covers, so a layer straddling a boundary counts in both thirds and
// every third's weights sum to 1 whatever L is.
#pragma once

#include "core/model/bandrecipe.h"
#include "core/model/config.h"
#include "core/model/modelarch.h"

#include <array>
#include <string_view>

namespace acsel
{

inline constexpr int kFeatureCount = 19;
using FeatureVector = std::array<double, kFeatureCount>;

enum class LayerCode : std::uint8_t { BitDeficit, Scope, Granularity };
inline constexpr int kLayerCodeCount = 3;
inline constexpr int kAggregationCount = 4; // mean, early, middle, late
inline constexpr int kFirstLayerFeature = 7;

std::string_view featureName(int index);
// The bit-deficit features, on which the constrained surrogate's weights are >= 0.
bool isBitDeficitFeature(int index);
// Every feature that is 0 for the bf16 model: the algorithm shares, the exclusion flags and the
// per-layer codes (everything but log_params).
bool isQuantizationFeature(int index);
inline int layerFeatureIndex(LayerCode code, int aggregation)
{
    return kFirstLayerFeature + static_cast<int>(code) * kAggregationCount + aggregation;
}

// The per-layer code of a (format, scope) pair.
double layerCode(LayerCode code, Format f, Scope s);
// Weight of layer `layer` of `numLayers` in aggregation 0 (mean: 1/L) or 1-3 (the thirds).
double depthWeight(int aggregation, int layer, int numLayers);

FeatureVector qualityFeatures(const ModelArch& model, const BandRecipe& recipe, Algorithm algorithm,
                              bool lmHeadQuantized, KvFormat kv);

} // namespace acsel
