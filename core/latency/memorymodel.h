// Memory of a configuration on one GPU (docs/METHOD.md 3, docs/LATENCY.md), in bytes; with
// tensor parallelism (Config::tp) on each of its tp GPUs, split as tensorparallel.h says:
//  - layer weights: per layer, the attention linears (q, k, v, o) at the effective bits of the
//    band's format when its scope covers attention (else bf16), the MLP linears likewise, the
//    norms in bf16;
//  - MoE layers: every routed expert resident (the experts of one GPU under expert
//    parallelism, each split by expert TP: TpShard::moeLinearParams) at the MLP's format, the
//    router hidden x experts in bf16 on every GPU (never quantized);
//  - embeddings V x h in bf16, counted once when tied (AIC never reads tie_word_embeddings:
//    it always adds an lm_head); the final norm;
//  - lm_head V x h: bf16, or at the last band's effective bits when Config::lmHeadQuantized
//    (a tied model then stores a separate quantized lm_head);
//  - KV cache batch x (isl + osl) x L x 2 x kvHeads x headDim x bytes(KV format), kvHeads the
//    KV heads of one GPU;
//  - activations as AIC: max(2 x tokens x heads x headDim x 11, 70 MiB), tokens = batch x isl,
//    heads the query heads of one GPU;
//  - the platform's runtime overhead (system yaml misc.other_mem), on every GPU;
//  - linear weights / tp (k and v with the KV heads one GPU holds), embedding and lm_head
//    vocab / tp, norms whole on every GPU;
//  - continuous batching (Request::mode) only: at least what the serving model needs to run one
//    request (docs/SERVING.md, "Memory admission"), so that the gate's memory check and the
//    serving model's KV slots agree.
#pragma once

#include "core/model/config.h"
#include "core/model/modelarch.h"
#include "core/model/platform.h"
#include "core/model/units.h"

namespace acsel
{

struct MemoryEstimate {
    double weightBytes = 0; // decoder layers (linears + norms) and the final norm
    double embeddingBytes = 0;
    double lmHeadBytes = 0;
    double kvCacheBytes = 0;
    double activationBytes = 0;
    double runtimeBytes = 0;
    // Continuous batching: what an engine needs beyond the terms above to hold one request's KV
    // cache in its pool (KvPoolLine: a share of the memory left after the weights, the step's
    // activations and the runtime, less what the engine leaves alone): the capacity at which
    // the pool holds isl + osl tokens, minus the terms above; 0 when they already cover it (and
    // always for static).
    double servingReserveBytes = 0;
    double capacityBytes = 0; // the device's memory

    double total() const
    {
        return weightBytes + embeddingBytes + lmHeadBytes + kvCacheBytes + activationBytes +
               runtimeBytes + servingReserveBytes;
    }
    // Fits within min(budget, device capacity).
    bool fits(double budgetBytes) const
    {
        const double limit = budgetBytes < capacityBytes ? budgetBytes : capacityBytes;
        return total() <= limit;
    }
};

// docs/METHOD.md 3: every term above for Config::batch resident requests, servingReserveBytes 0.
MemoryEstimate estimateStaticMemory(const ModelArch& arch, const Config& config,
                                    const Request& request, const Platform& platform);

// The memory the gate checks for Request::mode: static -> estimateStaticMemory; continuous ->
// the same plus servingReserveBytes, so total() <= the device capacity exactly when the static
// estimate fits and the serving model's KV pool holds one request (kvCapacity(...)
// .holdsOneRequest()); more requests than slots queue (docs/SERVING.md).
MemoryEstimate estimateMemory(const ModelArch& arch, const Config& config, const Request& request,
                              const Platform& platform);

// KV cache bytes of one token of context on one of `tp` GPUs (all layers, K and V of the KV
// heads that GPU holds).
double kvBytesPerToken(const ModelArch& arch, KvFormat kv, int tp);

} // namespace acsel
