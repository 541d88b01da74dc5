#include "core/model/modelarch.h"

namespace acsel
{

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

std::int64_t ModelArch::layerNormParams() const
{
    return 2 * std::int64_t{hidden} + (qkNorm ? 2 * std::int64_t{headDim} : 0);
}

std::int64_t ModelArch::paramCount() const
{
    const std::int64_t perLayer = attnLinearParams() + mlpLinearParams() + layerNormParams();
    const std::int64_t lmHead = tiedEmbeddings ? 0 : embeddingParams();
    return embeddingParams() + std::int64_t{layers} * perLayer + hidden + lmHead;
}

} // namespace acsel
