#include "core/latency/naiveestimate.h"

#include "core/model/tensorparallel.h"

#include <stdexcept>

namespace acsel
{
namespace
{

struct Step {
    double tokens; // m of the layer GEMMs
    int batch;
    double seq; // isl (prefill) or KV length (decode)
    bool prefill;
};

double stepMs(const OpCosts& c, const ModelArch& a, const Config& cfg, const Step& s)
{
    const BandRecipe& r = cfg.recipe;
    const TpShard shard = shardOf(a, cfg.tp, cfg.moeEp);
    const MoeShape moe{a.hidden,   a.moe.expertIntermediate, a.moe.topk, a.moe.experts, shard.moeTp,
                       shard.moeEp};
    const double h = a.hidden, I = shard.intermediate, S = shard.sharedIntermediate;
    double total = 0;
    for (int layer = 0; layer < a.layers; ++layer) {
        const Band& band = r.bandOf(layer);
        const bool attnQ = band.scope != Scope::Mlp, mlpQ = band.scope != Scope::Attn;
        const Format fa = attnQ ? band.format : Format::Bf16;
        const Format fm = mlpQ ? band.format : Format::Bf16;
        total += c.gemmMs(fa, s.tokens, shard.qkvColumns, h);
        total += c.gemmMs(fa, s.tokens, h, shard.attnOut);
        if (a.isMoeLayer(layer)) { // router (bf16), routed experts, shared expert
            total += c.gemmMs(Format::Bf16, s.tokens, a.moe.experts, h);
            total += c.moeMs(fm, s.tokens, moe);
            if (S > 0)
                total += c.gemmMs(fm, s.tokens, 2.0 * S, h) + c.gemmMs(fm, s.tokens, h, S) +
                         c.memoryOpMs(6.0 * S * s.tokens);
        } else {
            total += c.gemmMs(fm, s.tokens, 2.0 * I, h);
            total += c.gemmMs(fm, s.tokens, h, I);
            total += c.memoryOpMs(6.0 * I * s.tokens);
        }
        total += s.prefill ? c.contextAttentionMs(s.batch, s.seq, shard.heads, shard.kvHeads,
                                                  a.headDim, cfg.kv)
                           : c.generationAttentionMs(s.batch, s.seq, shard.heads, shard.kvHeads,
                                                     a.headDim, cfg.kv);
        total += 2.0 * c.memoryOpMs(8.0 * h * s.tokens);
        total += 2.0 * c.allReduceMs(shard.tp, s.tokens * h);
        if (layer > 0 &&
            activationClass(band.format) != activationClass(r.bandOf(layer - 1).format))
            total += c.memoryOpMs(s.tokens * h * 2.0);
    }
    const Format lm = cfg.lmHeadQuantized ? r[r.size() - 1].format : Format::Bf16;
    total += c.memoryOpMs(s.tokens * h * 2.0) + c.allReduceMs(shard.tp, s.tokens * h) +
             c.gemmMs(lm, s.batch, shard.vocab, h);
    return total;
}

} // namespace

LatencyEstimate estimateLatencyNaive(const OpCosts& costs, const ModelArch& arch,
                                     const Config& config, const Request& request)
{
    if (request.isl < 1 || request.osl < 1 || config.batch < 1)
        throw std::invalid_argument("isl, osl and batch must be at least 1");
    LatencyEstimate e;
    const int b = config.batch;
    e.ttftMs = stepMs(costs, arch, config,
                      {static_cast<double>(b) * request.isl, b, double(request.isl), true});
    const int steps = request.osl - 1;
    const int stride = decodeStride(request.osl);
    double sum = 0;
    for (int i = 0; i < steps; i += stride) {
        sum += std::min(stride, steps - i) *
               stepMs(costs, arch, config, {double(b), b, request.isl + i + 1.0, false});
        ++e.decodeSamples;
    }
    e.tpotMs = steps > 0 ? sum / steps : 0.0;
    return e;
}

} // namespace acsel
