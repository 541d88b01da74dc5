#include "core/latency/opmodel.h"

#include <stdexcept>
#include <string>

namespace acsel
{
namespace
{

bool coversAttention(Scope s)
{
    return s == Scope::Full || s == Scope::Attn;
}
bool coversMlp(Scope s)
{
    return s == Scope::Full || s == Scope::Mlp;
}

} // namespace

ComputeClass activationClass(Format f)
{
    return facts(f).quantizesActivations ? facts(f).compute : ComputeClass::Bf16;
}

int activationConversions(const BandRecipe& r)
{
    int n = 0;
    for (int b = 1; b < r.size(); ++b)
        n += activationClass(r[b].format) != activationClass(r[b - 1].format) ? 1 : 0;
    return n;
}

double conversionStepMs(const OpCosts& costs, const ModelArch& arch, double tokens)
{
    return costs.memoryOpMs(tokens * arch.hidden * 2.0);
}

int decodeStride(int osl)
{
    const int steps = osl - 1;
    if (steps <= kDecodeStride * kMaxDecodeSamples)
        return kDecodeStride;
    return (steps + kMaxDecodeSamples - 1) / kMaxDecodeSamples;
}

StepModel::StepModel(const OpCosts& costs, const ModelArch& arch, const Config& config)
    : costs_(costs), arch_(arch), shard_(shardOf(arch, config.tp, config.moeEp)), kv_(config.kv),
      lmFormat_(Format::Bf16), moeShape_{arch.hidden,   arch.moe.expertIntermediate,
                                         arch.moe.topk, arch.moe.experts,
                                         shard_.moeTp,  shard_.moeEp}
{
    if (const std::string why = tpProblem(arch, config.tp); !why.empty())
        throw std::invalid_argument(why);
    if (const std::string why = moeEpProblem(arch, config.tp, config.moeEp); !why.empty())
        throw std::invalid_argument(why);
    if (!costs.supportsTp(config.tp))
        throw std::invalid_argument("no all-reduce table for " + std::to_string(config.tp) +
                                    " GPUs on this stack");
    const BandRecipe& r = config.recipe;
    if (r.size() < 1 || r[0].begin != 0 || r.numLayers() != arch.layers)
        throw std::invalid_argument("band recipe '" + r.describe() + "' does not cover the " +
                                    std::to_string(arch.layers) + " layers of " + arch.name);
    bandCount_ = r.size();
    for (int b = 0; b < bandCount_; ++b) {
        const Band& band = r[b];
        if (band.layers() < 1 || (b > 0 && band.begin != r[b - 1].end))
            throw std::invalid_argument("band recipe '" + r.describe() + "' is not contiguous");
        if (!costs.supports(band.format))
            throw std::invalid_argument("format " + std::string(toString(band.format)) +
                                        " has no operator costs on this stack");
        const Format attn = coversAttention(band.scope) ? band.format : Format::Bf16;
        const Format mlp = coversMlp(band.scope) ? band.format : Format::Bf16;
        int g = 0;
        while (g < groupCount_ && !(groups_[static_cast<std::size_t>(g)].attn == attn &&
                                    groups_[static_cast<std::size_t>(g)].mlp == mlp))
            ++g;
        if (g == groupCount_)
            groups_[static_cast<std::size_t>(groupCount_++)] = {attn, mlp, 0, 0};
        groups_[static_cast<std::size_t>(g)].layers += band.layers();
        groups_[static_cast<std::size_t>(g)].moeLayers += arch.moeLayersIn(band.begin, band.end);
        bandGroup_[static_cast<std::size_t>(b)] = g;
        bandLayers_[static_cast<std::size_t>(b)] = band.layers();
        bandMoeLayers_[static_cast<std::size_t>(b)] = arch.moeLayersIn(band.begin, band.end);
    }
    conversions_ = activationConversions(r);
    if (config.lmHeadQuantized) {
        lmFormat_ = r[bandCount_ - 1].format;
        if (!costs.supports(lmFormat_))
            throw std::invalid_argument("lm_head format has no operator costs on this stack");
    }
}

double StepModel::moeLayerMs(Format f, double tokens) const
{
    const double h = arch_.hidden, S = shard_.sharedIntermediate;
    double ms = costs_.gemmMs(Format::Bf16, tokens, arch_.moe.experts, h) +
                costs_.moeMs(f, tokens, moeShape_);
    if (S > 0)
        ms += costs_.gemmMs(f, tokens, 2.0 * S, h) + costs_.gemmMs(f, tokens, h, S);
    return ms;
}

double StepModel::layersMs(double tokens, StepBreakdown& b) const
{
    const double h = arch_.hidden, I = shard_.intermediate;
    const double qkvN = shard_.qkvColumns, attnOut = shard_.attnOut;
    const int moeLayers = arch_.moeLayers(), denseLayers = arch_.layers - moeLayers;
    // One layer of each group: a dense one (attention and MLP GEMMs), an MoE one.
    std::array<double, BandRecipe::kMaxBands> perDense{}, perMoe{};
    double gemm = 0;
    for (int g = 0; g < groupCount_; ++g) {
        const Group& grp = groups_[static_cast<std::size_t>(g)];
        const double attn =
            costs_.gemmMs(grp.attn, tokens, qkvN, h) + costs_.gemmMs(grp.attn, tokens, h, attnOut);
        const double dense = denseLayers > 0 ? attn + costs_.gemmMs(grp.mlp, tokens, 2.0 * I, h) +
                                                   costs_.gemmMs(grp.mlp, tokens, h, I)
                                             : 0.0;
        const double moe = moeLayers > 0 ? attn + moeLayerMs(grp.mlp, tokens) : 0.0;
        perDense[static_cast<std::size_t>(g)] = dense;
        perMoe[static_cast<std::size_t>(g)] = moe;
        gemm += (grp.layers - grp.moeLayers) * dense + grp.moeLayers * moe;
    }
    for (int band = 0; band < bandCount_; ++band) {
        const auto i = static_cast<std::size_t>(band);
        const auto g = static_cast<std::size_t>(bandGroup_[i]);
        b.gemmByBand[i] =
            (bandLayers_[i] - bandMoeLayers_[i]) * perDense[g] + bandMoeLayers_[i] * perMoe[g];
    }
    // Two add+norm (8h bytes per token each) per layer; SiLU*mul (6I bytes per token) per dense
    // layer and per MoE layer with a shared expert (the routed experts' is in the MoE block).
    const double norms = 2.0 * costs_.memoryOpMs(8.0 * h * tokens);
    b.memoryOps = denseLayers * (norms + costs_.memoryOpMs(6.0 * I * tokens));
    if (moeLayers > 0) {
        const double S = shard_.sharedIntermediate;
        b.memoryOps += moeLayers * (norms + (S > 0 ? costs_.memoryOpMs(6.0 * S * tokens) : 0.0));
    }
    b.allReduce = 2.0 * arch_.layers * costs_.allReduceMs(shard_.tp, tokens * h);
    return gemm + b.memoryOps + b.allReduce;
}

double StepModel::onceMs(double tokens, double lmRows, StepBreakdown& b) const
{
    const double h = arch_.hidden;
    b.embedding = costs_.memoryOpMs(tokens * h * 2.0);
    const double embeddingAllReduce = costs_.allReduceMs(shard_.tp, tokens * h);
    b.allReduce += embeddingAllReduce;
    b.lmHead = costs_.gemmMs(lmFormat_, lmRows, shard_.vocab, h);
    b.conversion = conversions_ * conversionStepMs(costs_, arch_, tokens);
    return b.embedding + embeddingAllReduce + b.lmHead + b.conversion;
}

double StepModel::prefillStepMs(int batch, int isl, StepBreakdown* out) const
{
    StepBreakdown b;
    const double tokens = static_cast<double>(batch) * isl;
    const double layers = layersMs(tokens, b);
    b.attention = arch_.layers * costs_.contextAttentionMs(batch, isl, shard_.heads, shard_.kvHeads,
                                                           arch_.headDim, kv_);
    const double total = layers + b.attention + onceMs(tokens, batch, b);
    if (out)
        *out = b;
    return total;
}

double StepModel::decodeFixedMs(int batch, StepBreakdown* out) const
{
    StepBreakdown b;
    const double total = layersMs(batch, b) + onceMs(batch, batch, b);
    if (out)
        *out = b;
    return total;
}

double StepModel::decodeAttentionMs(int batch, double kvLen) const
{
    return arch_.layers * costs_.generationAttentionMs(batch, kvLen, shard_.heads, shard_.kvHeads,
                                                       arch_.headDim, kv_);
}

void StepModel::decodeAttentionManyMs(std::span<const double> batch, std::span<const double> kvLen,
                                      std::span<double> out) const
{
    costs_.generationAttentionManyMs(batch, kvLen, shard_.heads, shard_.kvHeads, arch_.headDim, kv_,
                                     out);
    for (double& ms : out)
        ms = arch_.layers * ms;
}

double StepModel::decodeStepMs(int batch, double kvLen, StepBreakdown* out) const
{
    const double fixed = decodeFixedMs(batch, out);
    const double attention = decodeAttentionMs(batch, kvLen);
    if (out)
        out->attention = attention;
    return fixed + attention;
}

double StepModel::mixedFixedMs(double prefills, int isl, double chunkTokens, double decodes,
                               StepBreakdown* out) const
{
    StepBreakdown b;
    const double tokens = prefills * chunkTokens + decodes;
    const double layers = layersMs(tokens, b);
    b.attention = prefills > 0 ? arch_.layers *
                                     costs_.contextAttentionMs(prefills, isl, shard_.heads,
                                                               shard_.kvHeads, arch_.headDim, kv_) *
                                     (chunkTokens / isl)
                               : 0.0;
    const double total = layers + b.attention + onceMs(tokens, prefills + decodes, b);
    if (out)
        *out = b;
    return total;
}

double StepModel::mixedAttentionMs(double decodes, double kvLen) const
{
    if (decodes <= 0)
        return 0.0;
    return arch_.layers * costs_.generationAttentionMs(decodes, kvLen, shard_.heads, shard_.kvHeads,
                                                       arch_.headDim, kv_);
}

LatencyEstimate estimateLatency(const OpCosts& costs, const ModelArch& arch, const Config& config,
                                const Request& request)
{
    if (request.isl < 1 || request.osl < 1 || config.batch < 1)
        throw std::invalid_argument("isl, osl and batch must be at least 1");
    const StepModel model(costs, arch, config);
    LatencyEstimate e;
    e.ttftMs = model.prefillStepMs(config.batch, request.isl, &e.prefill);
    const int steps = request.osl - 1;
    if (steps < 1)
        return e;
    const double fixed = model.decodeFixedMs(config.batch, &e.decode);
    const int stride = decodeStride(request.osl);
    // All contexts in one lookup call (at most kMaxDecodeSamples, see decodeStride).
    std::array<double, kMaxDecodeSamples> batch{}, kvLen{}, ms{};
    std::size_t samples = 0;
    for (int i = 0; i < steps; i += stride, ++samples) {
        batch[samples] = config.batch;
        kvLen[samples] = request.isl + i + 1.0;
    }
    model.decodeAttentionManyMs(std::span(batch).first(samples), std::span(kvLen).first(samples),
                                std::span(ms).first(samples));
    double attention = 0;
    std::size_t sample = 0;
    for (int i = 0; i < steps; i += stride, ++sample) {
        const int weight = std::min(stride, steps - i);
        attention += weight * ms[sample];
        ++e.decodeSamples;
    }
    e.decode.attention = attention / steps;
    e.tpotMs = fixed + e.decode.attention;
    return e;
}

} // namespace acsel
