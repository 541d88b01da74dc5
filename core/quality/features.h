// The quality surrogate's features phi(C), with names, so that a report can show the learned
// weight of each. Two codings of one configuration, both 19 features:
//
// Shared by both:
//  0      log_params                 log(parameter count)
//  1-4    algo_{max,smoothquant,awq,gptq}   one-hot algorithm times the quantized share of
//         the layers (0 for a bf16 model, whatever algorithm it names)
//  5      lm_head_quantized          exclusion flag
//  6      kv_quantized               exclusion flag (KV cache fp8)
//
// FeatureCoding::Method (docs/METHOD.md 2, the paper's):
//  7-18   {bit_deficit,scope,granularity}_{mean,early,middle,late}
//         per-layer codes in [0,1] aggregated by the plain mean over layers and by
//         depth-weighted means over the early, middle and late thirds.
//         Per-layer codes: bit deficit (16 - bits)/16; scope code full 1, mlp 2/3, attn 1/3 and 0
//         for a bf16 layer (nothing quantized); granularity code from the format (0 for bf16).
//
// FeatureCoding::ScopeAware (the engine's; scopecodes.h):
//  7-12   {attn,mlp}_deficit_{early,middle,late}
//  13-18  {attn,mlp}_noise_{early,middle,late}
//         a tensor group's share of the layer's linear parameters times the format's deficit or
//         noise code, 0 when the band's scope leaves the group bf16; depth-weighted means over
//         the thirds (their average is the plain mean, so no separate mean feature). Every one
//         of features 1-18 is non-decreasing under any move to fewer bits, so weights >= 0 make
//         such a move never lower the prediction.
//
// Depth weights: layer l covers the depth interval [l/L, (l+1)/L); its weight in a third is the
// share of that third it covers, so a layer straddling a boundary counts in both thirds and
// every third's weights sum to 1 whatever L is.
#pragma once

#include "core/model/bandrecipe.h"
#include "core/model/config.h"
#include "core/model/modelarch.h"

#include <array>
#include <optional>
#include <string_view>

namespace acsel
{

inline constexpr int kFeatureCount = 19;
using FeatureVector = std::array<double, kFeatureCount>;

enum class FeatureCoding : std::uint8_t { Method, ScopeAware };
std::string_view toString(FeatureCoding c);
std::optional<FeatureCoding> parseFeatureCoding(std::string_view name);

enum class LayerCode : std::uint8_t { BitDeficit, Scope, Granularity };
inline constexpr int kLayerCodeCount = 3;
inline constexpr int kAggregationCount = 4; // mean, early, middle, late
inline constexpr int kFirstLayerFeature = 7;

std::string_view featureName(FeatureCoding coding, int index);
// The features docs/METHOD.md's monotone prior bounds at >= 0: the bit-deficit features of the
// Method coding; every per-layer code of the ScopeAware one (both of its codes measure bits).
bool isBitDeficitFeature(FeatureCoding coding, int index);
// Every feature that is 0 for the bf16 model: the algorithm shares, the exclusion flags and the
// per-layer codes (everything but log_params).
bool isQuantizationFeature(int index);
// Index of a Method-coding layer feature.
inline int layerFeatureIndex(LayerCode code, int aggregation)
{
    return kFirstLayerFeature + static_cast<int>(code) * kAggregationCount + aggregation;
}

// The Method coding's per-layer code of a (format, scope) pair.
double layerCode(LayerCode code, Format f, Scope s);
// Weight of layer `layer` of `numLayers` in aggregation 0 (mean: 1/L) or 1-3 (the thirds).
double depthWeight(int aggregation, int layer, int numLayers);

// Adds what layer `layer` at (f, s) contributes to phi: its algorithm share and its layer codes.
// phi(C) is the layer-independent features plus this sum over the recipe's layers, which is
// what the surrogate's prefix-sum fast path (ridgesurrogate.h) relies on.
void addLayerFeatures(FeatureCoding coding, const ModelArch& model, int layer, Format f, Scope s,
                      Algorithm algorithm, FeatureVector& phi);

FeatureVector qualityFeatures(FeatureCoding coding, const ModelArch& model,
                              const BandRecipe& recipe, Algorithm algorithm, bool lmHeadQuantized,
                              KvFormat kv);

} // namespace acsel
