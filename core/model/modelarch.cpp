#include "core/model/modelarch.h"

#include <algorithm>

namespace acsel
{

bool ModelArch::isMoeLayer(int layer) const
{
    return isMoe() && (layer + 1) % moe.sparseStep == 0 &&
           std::find(moe.mlpOnlyLayers.begin(), moe.mlpOnlyLayers.end(), layer) ==
               moe.mlpOnlyLayers.end();
}

int ModelArch::moeLayersIn(int begin, int end) const
{
    if (!isMoe())
        return 0;
    int n = 0;
    for (int l = begin; l < end; ++l)
        n += isMoeLayer(l) ? 1 : 0;
    return n;
}

std::int64_t ModelArch::attnLinearParams() const
{
    const std::int64_t h = hidden, d = headDim;
    const std::int64_t qkv = h * (heads + 2 * std::int64_t{kvHeads}) * d;
    const std::int64_t o = std::int64_t{heads} * d * h;
    return qkv + o;
}

std::int64_t ModelArch::mlpLinearParams() const
{
    return 3 * std::int64_t{hidden} * intermediate;
}

std::int64_t ModelArch::expertParams() const
{
    return 3 * std::int64_t{hidden} * moe.expertIntermediate;
}

std::int64_t ModelArch::routerParams() const
{
    return std::int64_t{hidden} * (moe.experts + (moe.sharedIntermediate > 0 ? 1 : 0));
}

std::int64_t ModelArch::sharedExpertParams() const
{
    return 3 * std::int64_t{hidden} * moe.sharedIntermediate;
}

std::int64_t ModelArch::layerNormParams() const
{
    return 2 * std::int64_t{hidden} + (qkNorm ? 2 * std::int64_t{headDim} : 0);
}

std::int64_t ModelArch::attnBiasParams() const
{
    const std::int64_t qkv = (heads + 2 * std::int64_t{kvHeads}) * headDim;
    switch (attnBias) {
    case AttnBias::None:
        return 0;
    case AttnBias::Qkv:
        return qkv;
    case AttnBias::Qkvo:
        return qkv + hidden;
    }
    return 0;
}

std::int64_t ModelArch::countWith(std::int64_t routedExperts) const
{
    const std::int64_t moeCount = moeLayers();
    const std::int64_t denseCount = layers - moeCount;
    const std::int64_t common = attnLinearParams() + attnBiasParams() + layerNormParams();
    const std::int64_t moeLayer =
        routedExperts * expertParams() + routerParams() + sharedExpertParams();
    const std::int64_t lmHead = tiedEmbeddings ? 0 : embeddingParams();
    return embeddingParams() + std::int64_t{layers} * common + denseCount * mlpLinearParams() +
           moeCount * moeLayer + hidden + lmHead;
}

std::int64_t ModelArch::paramCount() const
{
    return countWith(moe.experts);
}

std::int64_t ModelArch::activeParamCount() const
{
    return countWith(moe.topk);
}

} // namespace acsel
