#include "core/latency/solopcosts.h"

#include <algorithm>
#include <limits>

namespace acsel
{
namespace
{

constexpr double kBf16Bytes = 2.0;

double kvBytes(KvFormat kv)
{
    return kv == KvFormat::Fp8 ? 1.0 : 2.0;
}

double peakFor(const Platform& p, ComputeClass c)
{
    const double peak = p.peakFlops(c);
    return peak > 0 ? peak : p.peakFlops(ComputeClass::Bf16);
}

double roofMs(double flops, double peak, double bytes, double bandwidth)
{
    return std::max(flops / peak, bytes / bandwidth) * 1e3;
}

} // namespace

double solGemmRoofMs(const Platform& p, Format f, double m, double n, double k)
{
    const FormatFacts& ff = facts(f);
    const double weightBytes = ff.gemmBytesPerElement;
    const double activationBytes = ff.quantizesActivations ? ff.gemmBytesPerElement : kBf16Bytes;
    const double bytes = n * k * weightBytes + m * k * activationBytes + m * n * kBf16Bytes;
    return roofMs(2.0 * m * n * k, peakFor(p, ff.compute), bytes, p.memBandwidth);
}

double solContextAttentionRoofMs(const Platform& p, double batch, double isl, int heads,
                                 int kvHeads, int headDim, KvFormat kv)
{
    const double d = headDim;
    const double flops = 2.0 * batch * heads * isl * isl * d;
    const double bytes =
        2.0 * batch * isl * heads * d * kBf16Bytes + 2.0 * batch * isl * kvHeads * d * kvBytes(kv);
    return roofMs(flops, p.peakFlops(ComputeClass::Bf16), bytes, p.memBandwidth);
}

double solGenerationAttentionRoofMs(const Platform& p, double batch, double kvLen, int heads,
                                    int kvHeads, int headDim, KvFormat kv)
{
    const double d = headDim;
    const double flops = 4.0 * batch * heads * kvLen * d;
    const double bytes =
        2.0 * batch * kvLen * kvHeads * d * kvBytes(kv) + 2.0 * batch * heads * d * kBf16Bytes;
    return roofMs(flops, p.peakFlops(ComputeClass::Bf16), bytes, p.memBandwidth);
}

double solAllReduceRoofMs(const Platform& p, int gpus, double elements)
{
    if (gpus <= 1)
        return 0;
    const double bytes = 2.0 * (gpus - 1) / gpus * elements * kBf16Bytes;
    return bytes / p.linkBandwidth * 1e3;
}

SolOpCosts::SolOpCosts(Platform platform, const std::vector<Format>& formats, double constantMs)
    : platform_(std::move(platform)), constantMs_(constantMs)
{
    for (Format f : formats)
        supported_[static_cast<std::size_t>(f)] = platform_.peakFlops(facts(f).compute) > 0;
}

double SolOpCosts::gemmMs(Format f, double m, double n, double k) const
{
    if (!supports(f))
        return std::numeric_limits<double>::quiet_NaN();
    return solGemmRoofMs(platform_, f, m, n, k) + constantMs_;
}

double SolOpCosts::contextAttentionMs(double batch, double isl, int heads, int kvHeads, int headDim,
                                      KvFormat kv) const
{
    return solContextAttentionRoofMs(platform_, batch, isl, heads, kvHeads, headDim, kv) +
           constantMs_;
}

double SolOpCosts::generationAttentionMs(double batch, double kvLen, int heads, int kvHeads,
                                         int headDim, KvFormat kv) const
{
    return solGenerationAttentionRoofMs(platform_, batch, kvLen, heads, kvHeads, headDim, kv) +
           constantMs_;
}

double SolOpCosts::memoryOpMs(double bytes) const
{
    return (bytes / (platform_.memBandwidth * platform_.memBwScaling) +
            platform_.memConstantLatencyS) *
           1e3;
}

} // namespace acsel
