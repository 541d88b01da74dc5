#include "core/latency/naiveestimate.h"

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
    const double h = a.hidden, d = a.headDim, I = a.intermediate;
    double total = 0;
    for (int layer = 0; layer < a.layers; ++layer) {
        const Band& band = r.bandOf(layer);
        const bool attnQ = band.scope != Scope::Mlp, mlpQ = band.scope != Scope::Attn;
        const Format fa = attnQ ? band.format : Format::Bf16;
        const Format fm = mlpQ ? band.format : Format::Bf16;
        total += c.gemmMs(fa, s.tokens, (a.heads + 2.0 * a.kvHeads) * d, h);
        total += c.gemmMs(fa, s.tokens, h, a.heads * d);
        total += c.gemmMs(fm, s.tokens, 2.0 * I, h);
        total += c.gemmMs(fm, s.tokens, h, I);
        total +=
            s.prefill
                ? c.contextAttentionMs(s.batch, s.seq, a.heads, a.kvHeads, a.headDim, cfg.kv)
                : c.generationAttentionMs(s.batch, s.seq, a.heads, a.kvHeads, a.headDim, cfg.kv);
        total += 2.0 * c.memoryOpMs(8.0 * h * s.tokens) + c.memoryOpMs(6.0 * I * s.tokens);
        if (layer > 0 &&
            activationClass(band.format) != activationClass(r.bandOf(layer - 1).format))
            total += c.memoryOpMs(s.tokens * h * 2.0);
    }
    const Format lm = cfg.lmHeadQuantized ? r[r.size() - 1].format : Format::Bf16;
    total += c.memoryOpMs(s.tokens * h * 2.0) + c.gemmMs(lm, s.batch, a.vocab, h);
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
