// The one thing a latency estimate needs from "a GPU on a serving stack": the latency of each
// operator of a decoder step. Implementations: TableOpCosts (AIC operator tables, this folder);
// speed-of-light and empirical ones for GPUs without tables can be added behind this interface.
//
// Contract for every implementation:
//  - all times are milliseconds for ONE call of the operator on one GPU;
//  - the lookups are const, thread-safe, allocation-free and cheap (they are the hot path of
//    the admission gate: tens of calls per estimate);
//  - gemmMs is only asked for formats with supports(f) == true (otherwise it returns NaN).
#pragma once

#include "core/model/format.h"
#include "core/model/platform.h"

#include <limits>
#include <span>
#include <string>

namespace acsel
{

// An MoE layer's routed experts as one GPU runs them (tensorparallel.h): one expert's whole
// shape and the split of the tp GPUs into moeTp x moeEp.
struct MoeShape {
    int hidden = 0;
    int intermediate = 0; // one expert's gate/up columns, before expert TP
    int topk = 0, experts = 0;
    int moeTp = 1, moeEp = 1;
};

class OpCosts
{
public:
    virtual ~OpCosts() = default;

    virtual const Platform& platform() const = 0;
    // Whether GEMMs of this format can be costed (the stack runs and can export it).
    virtual bool supports(Format f) const = 0;

    // C[m,n] = A[m,k] x W[k,n]: m tokens in the step, n output features, k input features.
    virtual double gemmMs(Format f, double m, double n, double k) const = 0;
    // One prefill attention call for `batch` requests of `isl` new tokens each (no prefix).
    virtual double contextAttentionMs(double batch, double isl, int heads, int kvHeads, int headDim,
                                      KvFormat kv) const = 0;
    // One decode attention call: `batch` requests, one new token each, KV length kvLen.
    virtual double generationAttentionMs(double batch, double kvLen, int heads, int kvHeads,
                                         int headDim, KvFormat kv) const = 0;
    // A memory-bound element-wise op moving `bytes` (read + write).
    virtual double memoryOpMs(double bytes) const = 0;

    // One fused MoE block on one GPU: the routed experts of an MoE layer for the `tokens`
    // tokens of a step (permutation, grouped gate/up, activation, grouped down, weighted
    // combine) at format f; not the router GEMM, not the all-reduces. Only asked for
    // supports(f). The default is one GEMM per touched expert from gemmMs (moeGemmsMs,
    // moeexperts.h); TableOpCosts reads the stack's measured fused-MoE table where it has the
    // shape.
    virtual double moeMs(Format f, double tokens, const MoeShape& s) const;
    // Empty when moeMs reads measured fused-MoE data for (f, s); else one line saying what it
    // uses instead. Not hot.
    virtual std::string moeNote(Format f, const MoeShape& s) const;

    // Whether all-reduces over `gpus` GPUs of one node can be costed (tensor parallelism);
    // always at 1. Costs without interconnect data support 1 only.
    virtual bool supportsTp(int gpus) const { return gpus == 1; }
    // One all-reduce of `elements` bf16 values over `gpus` GPUs: 0 at 1 GPU; only asked for
    // supportsTp(gpus) (otherwise NaN).
    virtual double allReduceMs(int gpus, double elements) const
    {
        (void)elements;
        return gpus == 1 ? 0.0 : std::numeric_limits<double>::quiet_NaN();
    }

    // Decode attention calls of one shape at several points: out[i] =
    // generationAttentionMs(batch[i], kvLen[i], ...), bit for bit. The TPOT integration asks
    // for up to 2 x kMaxDecodeSamples of them at once; an implementation may resolve the shape
    // once (TableOpCosts picks its table slice once). The default asks one by one.
    virtual void generationAttentionManyMs(std::span<const double> batch,
                                           std::span<const double> kvLen, int heads, int kvHeads,
                                           int headDim, KvFormat kv, std::span<double> out) const
    {
        for (std::size_t i = 0; i < out.size(); ++i)
            out[i] = generationAttentionMs(batch[i], kvLen[i], heads, kvHeads, headDim, kv);
    }

    // Empty when the attention lookups for this shape are direct; otherwise one line saying
    // which substitute data they use (missing dtype slice, KV-head count, ...). Not hot.
    virtual std::string attentionNote(int heads, int kvHeads, int headDim, KvFormat kv) const
    {
        (void)heads, (void)kvHeads, (void)headDim, (void)kv;
        return {};
    }
};

} // namespace acsel
