#include "core/quality/features.h"

#include "core/quality/scopecodes.h"

#include <algorithm>
#include <cmath>

namespace acsel
{
namespace
{

constexpr std::array<std::string_view, 7> kSharedNames = {
    "log_params", "algo_max",          "algo_smoothquant", "algo_awq",
    "algo_gptq",  "lm_head_quantized", "kv_quantized"};

constexpr std::array<std::string_view, kFeatureCount - 7> kMethodNames = {
    "bit_deficit_mean", "bit_deficit_early", "bit_deficit_middle", "bit_deficit_late",
    "scope_mean",       "scope_early",       "scope_middle",       "scope_late",
    "granularity_mean", "granularity_early", "granularity_middle", "granularity_late"};

constexpr std::array<std::string_view, kFeatureCount - 7> kScopeAwareNames = {
    "attn_deficit_early", "attn_deficit_middle", "attn_deficit_late", "mlp_deficit_early",
    "mlp_deficit_middle", "mlp_deficit_late",    "attn_noise_early",  "attn_noise_middle",
    "attn_noise_late",    "mlp_noise_early",     "mlp_noise_middle",  "mlp_noise_late"};

constexpr int kThirds = 3;

// ScopeAware index of (code 0 deficit / 1 noise, group, third 0-2).
std::size_t scopeAwareIndex(int code, TensorGroup g, int third)
{
    return static_cast<std::size_t>(
        kFirstLayerFeature + (code * kTensorGroupCount + static_cast<int>(g)) * kThirds + third);
}

} // namespace

std::string_view toString(FeatureCoding c)
{
    return c == FeatureCoding::ScopeAware ? "scope_aware" : "method";
}

std::optional<FeatureCoding> parseFeatureCoding(std::string_view name)
{
    for (FeatureCoding c : {FeatureCoding::Method, FeatureCoding::ScopeAware})
        if (toString(c) == name)
            return c;
    return std::nullopt;
}

std::string_view featureName(FeatureCoding coding, int index)
{
    if (index < kFirstLayerFeature)
        return kSharedNames[static_cast<std::size_t>(index)];
    const auto k = static_cast<std::size_t>(index - kFirstLayerFeature);
    return coding == FeatureCoding::ScopeAware ? kScopeAwareNames[k] : kMethodNames[k];
}

bool isBitDeficitFeature(FeatureCoding coding, int index)
{
    if (coding == FeatureCoding::ScopeAware)
        return index >= kFirstLayerFeature && index < kFeatureCount;
    return index >= layerFeatureIndex(LayerCode::BitDeficit, 0) &&
           index < layerFeatureIndex(LayerCode::Scope, 0);
}

bool isQuantizationFeature(int index)
{
    return index >= 1 && index < kFeatureCount;
}

double layerCode(LayerCode code, Format f, Scope s)
{
    switch (code) {
    case LayerCode::BitDeficit:
        return bitDeficit(f);
    case LayerCode::Scope:
        return f == Format::Bf16 ? 0.0 : scopeCode(s);
    case LayerCode::Granularity:
        return facts(f).granularityCode;
    }
    return 0.0;
}

double depthWeight(int aggregation, int layer, int numLayers)
{
    if (aggregation == 0)
        return 1.0 / numLayers;
    // Overlap of [3l, 3l+3) with [kL, (k+1)L) in units of 1/(3L); times 3 for the third's share.
    const int k = aggregation - 1;
    const int lo = std::max(3 * layer, k * numLayers);
    const int hi = std::min(3 * layer + 3, (k + 1) * numLayers);
    return hi > lo ? static_cast<double>(hi - lo) / numLayers : 0.0;
}

void addLayerFeatures(FeatureCoding coding, const ModelArch& model, int layer, Format f, Scope s,
                      Algorithm algorithm, FeatureVector& phi)
{
    if (f == Format::Bf16)
        return; // every code of a bf16 layer is 0, and it calibrates nothing
    const int L = model.layers;
    // The algorithm acts on the layers it quantizes: its feature is the quantized share of the
    // layers, so a bf16 model (nothing to calibrate) carries no algorithm term at all.
    phi[1 + static_cast<std::size_t>(algorithm)] += 1.0 / L;
    if (coding == FeatureCoding::Method) {
        for (int c = 0; c < kLayerCodeCount; ++c) {
            const double code = layerCode(static_cast<LayerCode>(c), f, s);
            for (int a = 0; a < kAggregationCount; ++a)
                phi[static_cast<std::size_t>(layerFeatureIndex(static_cast<LayerCode>(c), a))] +=
                    depthWeight(a, layer, L) * code;
        }
        return;
    }
    const double codes[2] = {deficitCode(f), noiseCode(f)};
    for (TensorGroup g : {TensorGroup::Attention, TensorGroup::Mlp}) {
        if (!scopeQuantizes(s, g))
            continue;
        const double share = groupShare(model, layer, g);
        for (int third = 0; third < kThirds; ++third) {
            const double w = depthWeight(1 + third, layer, L);
            if (w == 0.0)
                continue;
            for (int c = 0; c < 2; ++c)
                phi[scopeAwareIndex(c, g, third)] += w * share * codes[c];
        }
    }
}

FeatureVector qualityFeatures(FeatureCoding coding, const ModelArch& model,
                              const BandRecipe& recipe, Algorithm algorithm, bool lmHeadQuantized,
                              KvFormat kv)
{
    FeatureVector phi{};
    phi[0] = std::log(static_cast<double>(model.paramCount()));
    phi[5] = lmHeadQuantized ? 1.0 : 0.0;
    phi[6] = kv == KvFormat::Fp8 ? 1.0 : 0.0;
    for (const Band& b : recipe)
        for (int l = b.begin; l < b.end; ++l)
            addLayerFeatures(coding, model, l, b.format, b.scope, algorithm, phi);
    return phi;
}

} // namespace acsel
