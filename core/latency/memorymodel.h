// Memory of a configuration on one GPU (METHOD.md 3, docs/LATENCY.md), in bytes:
//  - layer weights: per layer, the attention linears (q, k, v, o) at the effective bits of the
//    band's format when its scope covers attention (else bf16), the MLP linears likewise, the
//    norms in bf16;
//  - embeddings V x h in bf16, counted once when tied (AIC never reads tie_word_embeddings:
//    it always adds an lm_head); the final norm;
//  - lm_head V x h: bf16, or at the last band's effective bits when Config::lmHeadQuantized
//    (a tied model then stores a separate quantized lm_head);
//  - KV cache batch x (isl + osl) x L x 2 x kvHeads x headDim x bytes(KV format);
//  - activations as AIC: max(2 x tokens x heads x headDim x 11, 70 MiB), tokens = batch x isl;
//  - the platform's runtime overhead (system yaml misc.other_mem).
#pragma once

#include "core/model/config.h"
#include "core/model/modelarch.h"
#include "core/model/platform.h"

namespace acsel
{

struct MemoryEstimate {
    double weightBytes = 0; // decoder layers (linears + norms) and the final norm
    double embeddingBytes = 0;
    double lmHeadBytes = 0;
    double kvCacheBytes = 0;
    double activationBytes = 0;
    double runtimeBytes = 0;
    double capacityBytes = 0; // the device's memory

    double total() const
    {
        return weightBytes + embeddingBytes + lmHeadBytes + kvCacheBytes + activationBytes +
               runtimeBytes;
    }
    // Fits within min(budget, device capacity).
    bool fits(double budgetBytes) const
    {
        const double limit = budgetBytes < capacityBytes ? budgetBytes : capacityBytes;
        return total() <= limit;
    }
};

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

MemoryEstimate estimateMemory(const ModelArch& arch, const Config& config, const Request& request,
                              const Platform& platform);

// KV cache bytes of one token of context (all layers, K and V).
double kvBytesPerToken(const ModelArch& arch, KvFormat kv);

} // namespace acsel
