#include "core/quality/scopecodes.h"

#include <cmath>

namespace acsel
{

double activationBits(Format f)
{
    switch (f) {
    case Format::Nvfp4:
        return 4.0 + 8.0 / 16.0; // e2m1 with an e4m3 scale per 16 values
    case Format::Int8:
    case Format::Fp8:
        return 8.0; // one static per-tensor scale
    case Format::Fp8Block:
        return 8.0 + 32.0 / 128.0; // an fp32 scale per 1x128 group
    case Format::Int4Wo:
    case Format::Int8Wo:
    case Format::Bf16:
        return 0.0;
    }
    return 0.0;
}

double qualityEffectiveBits(Format f)
{
    if (f == Format::Bf16)
        return 16.0;
    double noise = std::pow(4.0, -facts(f).effectiveBits);
    if (activationBits(f) > 0.0)
        noise += std::pow(4.0, -activationBits(f));
    return -0.5 * std::log2(noise);
}

double deficitCode(Format f)
{
    return (16.0 - qualityEffectiveBits(f)) / 16.0;
}

double noiseCode(Format f)
{
    return f == Format::Bf16 ? 0.0 : std::pow(4.0, 4.0 - qualityEffectiveBits(f));
}

bool scopeQuantizes(Scope s, TensorGroup g)
{
    return s == Scope::Full || (s == Scope::Attn) == (g == TensorGroup::Attention);
}

double groupShare(const ModelArch& model, int layer, TensorGroup g)
{
    const auto attn = static_cast<double>(model.attnLinearParams());
    const auto mlp =
        static_cast<double>(model.isMoeLayer(layer) ? model.moe.experts * model.expertParams() +
                                                          model.sharedExpertParams()
                                                    : model.mlpLinearParams());
    if (attn + mlp <= 0.0)
        return 0.0;
    return (g == TensorGroup::Attention ? attn : mlp) / (attn + mlp);
}

} // namespace acsel
