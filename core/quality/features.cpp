#include "core/quality/features.h"

#include <algorithm>
#include <cmath>

namespace acsel
{
namespace
{

constexpr std::array<std::string_view, kFeatureCount> kNames = {
    "log_params",        "algo_max",           "algo_smoothquant", "algo_awq",
    "algo_gptq",         "lm_head_quantized",  "kv_quantized",     "bit_deficit_mean",
    "bit_deficit_early", "bit_deficit_middle", "bit_deficit_late", "scope_mean",
    "scope_early",       "scope_middle",       "scope_late",       "granularity_mean",
    "granularity_early", "granularity_middle", "granularity_late"};

} // namespace

std::string_view featureName(int index)
{
    return kNames[static_cast<std::size_t>(index)];
}

bool isBitDeficitFeature(int index)
{
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

FeatureVector qualityFeatures(const ModelArch& model, const BandRecipe& recipe, Algorithm algorithm,
                              bool lmHeadQuantized, KvFormat kv)
{
    FeatureVector phi{};
    phi[0] = std::log(static_cast<double>(model.paramCount()));
    // The algorithm acts on the layers it quantizes: its feature is the quantized share of the
    // layers, so a bf16 model (nothing to calibrate) carries no algorithm term at all.
    int quantizedLayers = 0;
    for (const Band& b : recipe)
        if (b.format != Format::Bf16)
            quantizedLayers += b.end - b.begin;
    phi[1 + static_cast<std::size_t>(algorithm)] =
        model.layers > 0 ? static_cast<double>(quantizedLayers) / model.layers : 0.0;
    phi[5] = lmHeadQuantized ? 1.0 : 0.0;
    phi[6] = kv == KvFormat::Fp8 ? 1.0 : 0.0;
    const int L = model.layers;
    for (const Band& b : recipe)
        for (int l = b.begin; l < b.end; ++l)
            for (int c = 0; c < kLayerCodeCount; ++c) {
                const double code = layerCode(static_cast<LayerCode>(c), b.format, b.scope);
                for (int a = 0; a < kAggregationCount; ++a)
                    phi[static_cast<std::size_t>(layerFeatureIndex(
                        static_cast<LayerCode>(c), a))] += depthWeight(a, l, L) * code;
            }
    return phi;
}

} // namespace acsel
