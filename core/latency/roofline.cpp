#include "core/latency/roofline.h"

#include "core/latency/memorymodel.h"
#include "core/latency/moeexperts.h"
#include "core/model/tensorparallel.h"

#include <algorithm>

namespace acsel
{
namespace
{

double peak(const Platform& p, Format f)
{
    const double v = p.peakFlops(facts(f).compute);
    return v > 0 ? v : p.peakFlops(ComputeClass::Bf16);
}

// Seconds of the linear layers' FLOPs for `tokens` tokens, each band at its format's peak. An
// MoE layer runs, per token, its router (bf16), its topk routed experts (on one GPU topk /
// moeEp of them, each split by expert TP) and its shared expert.
double linearComputeS(const ModelArch& a, const Config& c, const Platform& p, double tokens)
{
    const TpShard shard = shardOf(a, c.tp, c.moeEp);
    const double routed =
        static_cast<double>(a.moe.topk) / shard.moeEp * 3.0 * a.hidden * shard.expertIntermediate;
    const double shared = 3.0 * a.hidden * shard.sharedIntermediate;
    const auto router = static_cast<double>(a.routerParams());
    double s = 0;
    for (const Band& b : c.recipe) {
        const Format fa = b.scope != Scope::Mlp ? b.format : Format::Bf16;
        const Format fm = b.scope != Scope::Attn ? b.format : Format::Bf16;
        const int moeLayers = a.moeLayersIn(b.begin, b.end);
        s += 2.0 * tokens *
             (b.layers() * shard.attnLinearParams / peak(p, fa) +
              (b.layers() - moeLayers) * shard.mlpLinearParams / peak(p, fm) +
              moeLayers * ((routed + shared) / peak(p, fm) + router / peak(p, Format::Bf16)));
    }
    return s;
}

// Bytes of the resident routed experts that `tokens` tokens leave untouched on one GPU: of
// the experts / moeEp it holds, all but the expected distinct experts they hit / moeEp
// (moeexperts.h), at each band's MLP format. A step reads the weights less these.
double untouchedExpertBytes(const ModelArch& a, const Config& c, double tokens)
{
    if (!a.isMoe())
        return 0;
    const TpShard shard = shardOf(a, c.tp, c.moeEp);
    const double untouched =
        (a.moe.experts - expectedDistinctExperts(a.moe.experts, a.moe.topk, tokens)) / shard.moeEp;
    const double expert = 3.0 * a.hidden * shard.expertIntermediate;
    double bytes = 0;
    for (const Band& b : c.recipe) {
        const Format fm = b.scope != Scope::Attn ? b.format : Format::Bf16;
        bytes += a.moeLayersIn(b.begin, b.end) * untouched * expert * facts(fm).effectiveBits / 8;
    }
    return bytes;
}

} // namespace

RooflineEstimate estimateRoofline(const ModelArch& a, const Config& c, const Request& q,
                                  const Platform& p)
{
    const MemoryEstimate mem = estimateMemory(a, c, q, p);
    const double weights = mem.weightBytes + mem.lmHeadBytes;
    const double b = c.batch, bf16 = p.peakFlops(ComputeClass::Bf16);
    // One GPU's share under tensor parallelism (its all-reduces are not in the roof).
    const TpShard shard = shardOf(a, c.tp, c.moeEp);
    const double lmFlops = 2.0 * b * shard.vocab * a.hidden;
    const double attnWidth = static_cast<double>(a.layers) * shard.heads * a.headDim;
    const double kvPerToken = kvBytesPerToken(a, c.kv, c.tp);
    RooflineEstimate r;
    // Prefill: causal attention is two matmuls over s^2 / 2 positions.
    const double s = q.isl;
    const double prefillCompute =
        linearComputeS(a, c, p, b * s) + (2.0 * 2.0 * b * s * s / 2.0 * attnWidth + lmFlops) / bf16;
    const double prefillBytes = weights - untouchedExpertBytes(a, c, b * s) + b * s * kvPerToken;
    r.ttftMs = std::max(prefillCompute, prefillBytes / p.memBandwidth) * 1e3;
    const double ctx = q.isl + q.osl / 2.0;
    const double decodeCompute =
        linearComputeS(a, c, p, b) + (2.0 * 2.0 * b * ctx * attnWidth + lmFlops) / bf16;
    const double decodeBytes = weights - untouchedExpertBytes(a, c, b) + b * ctx * kvPerToken;
    r.tpotMs = std::max(decodeCompute, decodeBytes / p.memBandwidth) * 1e3;
    return r;
}

} // namespace acsel
