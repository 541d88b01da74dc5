// The operator model of a dense decoder (docs/METHOD.md 3, docs/LATENCY.md): a prefill or decode
// step is decomposed into operators costed by an OpCosts, per band of the configuration's
// band recipe, and summed. TTFT = one prefill step; TPOT = decode steps integrated over the
// output (static batch, AIC's stride of 32 tokens).
//
// Per layer of a band with (format f, scope s): qkv and o_proj GEMMs run at f when s covers
// attention (full, attn), else bf16; gate_up and down at f when s covers the MLP (full, mlp),
// else bf16. Attention uses the configuration's KV format. Once per step: embedding (memory
// op), lm_head (bf16 unless Config::lmHeadQuantized: then the last band's format), and one
// conversion (memory op on tokens x hidden x 2 bytes) at each band boundary where the
// activation format changes (bf16 / int8 / fp8 / fp4 as the band's GEMMs consume it).
//
// Tensor parallelism (Config::tp, tensorparallel.h): every operator is one GPU's share. qkv
// and gate_up GEMMs have n / tp columns, o_proj and down k / tp rows, attention heads / tp
// query and max(1, kvHeads / tp) KV heads, SiLU*mul I / tp columns, lm_head vocab / tp
// columns; norms, residual adds, the embedding gather and conversions run on the full hidden
// size on every GPU. Two all-reduces per layer (after o_proj and after down) and one after the
// vocabulary-split embedding, each of tokens x hidden elements (OpCosts::allReduceMs). The
// all-reduces do not depend on the band formats, so a step stays additive over layers.
//
// Mixture of experts (ModelArch::moe): an MoE layer runs attention as above, then the router
// GEMM tokens x experts x hidden in bf16 (never quantized), the fused MoE block of its routed
// experts at the band's MLP format (OpCosts::moeMs: the stack's measured fused-MoE table of
// the `balanced` routing corrected to the experts uniform routing touches, else one GEMM per
// touched expert) and a shared expert's GEMMs when
// the model has one; no SiLU op of its own (inside the fused block) but the shared expert's.
// The experts of one GPU follow Config::moeEp (tensorparallel.h). With tp > 1 the two
// all-reduces per layer stay as for a dense layer (TRT-LLM, vLLM and SGLang with attention TP:
// every GPU holds every token, runs its experts' share, and the MoE output is all-reduced),
// no all-to-all.
#pragma once

#include "core/latency/opcosts.h"
#include "core/model/config.h"
#include "core/model/modelarch.h"
#include "core/model/tensorparallel.h"

#include <array>
#include <span>

namespace acsel
{

// Milliseconds of one step by operator class.
struct StepBreakdown {
    std::array<double, BandRecipe::kMaxBands> gemmByBand{}; // all layers of each band
    double attention = 0;
    double memoryOps = 0; // norms + residual adds, activation
    double lmHead = 0;
    double embedding = 0;
    double conversion = 0; // band-boundary activation conversions
    double allReduce = 0;  // tensor parallelism: all-reduces of every layer and the embedding
    double gemm() const { return gemmByBand[0] + gemmByBand[1] + gemmByBand[2]; }
};

struct LatencyEstimate {
    double ttftMs = 0;
    double tpotMs = 0;     // 0 when osl == 1 (no token after the first)
    StepBreakdown prefill; // the prefill step (sums to ttftMs)
    StepBreakdown decode;  // the mean decode step (sums to tpotMs)
    int decodeSamples = 0; // decode contexts evaluated
};

// AIC's decode integration: contexts isl + i + 1 for i = 0, stride, 2 stride, ... < osl - 1,
// each weighted by min(stride, osl - 1 - i). The stride is 32, widened to
// ceil((osl - 1) / kMaxDecodeSamples) for long outputs so an estimate stays bounded: at most
// kMaxDecodeSamples contexts (ceil(steps / 32) <= 16 up to 512 steps, ceil(steps / stride) <= 16
// beyond).
inline constexpr int kDecodeStride = 32;
inline constexpr int kMaxDecodeSamples = 16;
int decodeStride(int osl);

// The step costs of one configuration of one model on one OpCosts. Cheap to construct (no
// allocation); the OpCosts and ModelArch must outlive it. Continuous-batching models build on
// prefillStepMs / decodeStepMs.
class StepModel
{
public:
    // Throws std::invalid_argument if the recipe does not cover the model's layers, a band
    // format (or the quantized lm_head's) is not supported by the OpCosts, Config::tp is not
    // a legal degree for the model (tpProblem), Config::moeEp not a legal expert-parallel
    // degree (moeEpProblem) or the OpCosts cannot cost its all-reduces.
    StepModel(const OpCosts& costs, const ModelArch& arch, const Config& config);

    double prefillStepMs(int batch, int isl, StepBreakdown* out = nullptr) const;
    double decodeStepMs(int batch, double kvLen, StepBreakdown* out = nullptr) const;
    // A decode step without its attention (does not depend on the context length).
    double decodeFixedMs(int batch, StepBreakdown* out = nullptr) const;
    // Attention of all layers in one decode step at KV length kvLen.
    double decodeAttentionMs(int batch, double kvLen) const;
    // out[i] = decodeAttentionMs(batch[i], kvLen[i]) bit for bit (batch[i] > 0), the shape
    // resolved once by the OpCosts: the TPOT integration's lookups in one call.
    void decodeAttentionManyMs(std::span<const double> batch, std::span<const double> kvLen,
                               std::span<double> out) const;

    // One continuous-batching step (docs/SERVING.md): `prefills` requests (a steady-state
    // mean, so possibly fractional) each adding `chunkTokens` tokens of an `isl`-token prompt,
    // plus `decodes` requests generating one token. GEMMs and memory ops run on all the step's
    // tokens at once; a chunk's context attention is the prompt's attention x chunkTokens /
    // isl (the causal work spread evenly over the chunks); attention of the decodes is NOT
    // included (mixedAttentionMs adds it at the context the caller needs). With prefills = 1,
    // chunkTokens = isl, decodes = 0 this equals prefillStepMs(1, isl).
    double mixedFixedMs(double prefills, int isl, double chunkTokens, double decodes,
                        StepBreakdown* out = nullptr) const;
    // Decode attention of a mixed step's (possibly fractional) decode batch at KV length kvLen.
    double mixedAttentionMs(double decodes, double kvLen) const;

private:
    // Layer GEMMs and memory ops of `tokens` tokens; attention excluded.
    double layersMs(double tokens, StepBreakdown& b) const;
    double onceMs(double tokens, double lmRows, StepBreakdown& b) const;

    // An MoE layer's router, routed experts and shared expert at MLP format f.
    double moeLayerMs(Format f, double tokens) const;

    struct Group { // bands sharing (attention format, MLP format) are costed once
        Format attn, mlp;
        int layers;
        int moeLayers;
    };
    const OpCosts& costs_;
    const ModelArch& arch_;
    TpShard shard_;
    KvFormat kv_;
    Format lmFormat_;
    int bandCount_ = 0;
    std::array<int, BandRecipe::kMaxBands> bandGroup_{};
    std::array<int, BandRecipe::kMaxBands> bandLayers_{};
    std::array<int, BandRecipe::kMaxBands> bandMoeLayers_{};
    MoeShape moeShape_;
    std::array<Group, BandRecipe::kMaxBands> groups_{};
    int groupCount_ = 0;
    int conversions_ = 0; // band boundaries where the activation format changes
};

// The full (per-band) raw estimate of a static batch of Config::batch requests of
// Request::isl input and Request::osl output tokens. Throws std::invalid_argument as
// StepModel, or when isl, osl or batch < 1. Request::mode is ignored: estimateServingLatency
// (servingmodel.h) dispatches on it and calls this for ServingMode::Static.
LatencyEstimate estimateLatency(const OpCosts& costs, const ModelArch& arch, const Config& config,
                                const Request& request);

// The activation format a band's GEMMs consume: the format's compute class for W8A8 / W4A4
// formats, bf16 for weight-only formats and bf16.
ComputeClass activationClass(Format f);
// The band boundaries of r where the activation format changes: a step converts the
// activations once at each.
int activationConversions(const BandRecipe& r);
// One such conversion in a step of `tokens` tokens (a memory op on tokens x hidden x 2 bytes,
// on the full hidden size on every GPU).
double conversionStepMs(const OpCosts& costs, const ModelArch& arch, double tokens);

} // namespace acsel
