// Speed-of-light (SOL) operator costs from a GPU's spec sheet alone: each operator takes
// max(flops / peak(dtype), bytes / bandwidth) plus a constant per call. The floor a kernel
// cannot beat; the empirical model (empiricalopcosts.h) divides it by a fitted utilisation.
//
// Work and bytes (docs/GPUS.md):
//  - GEMM C[m,n] = A[m,k] W[k,n]: 2mnk flops at the peak of the format's compute class
//    (weight-only formats run at the bf16 peak); bytes = n k x weight bytes (facts(f).
//    gemmBytesPerElement) + m k x activation bytes (the format's bytes when it quantizes
//    activations, else 2) + m n x 2 (bf16 output);
//  - context attention (causal): 2 b h s^2 d flops at the bf16 peak; bytes = Q and O in bf16
//    (2 b s h d x 2) + K and V (2 b s kvh d x KV bytes);
//  - generation attention: 4 b h s d flops; bytes = the KV cache read (2 b s kvh d x KV bytes)
//    + Q and O (2 b h d x 2);
//  - memory-bound ops as AIC: bytes / (bandwidth x scaling) + the platform's constant;
//  - all-reduce of e bf16 elements over n GPUs (a ring, as NCCL runs it within a node): each
//    GPU sends and receives 2 (n - 1) / n x 2e bytes over its link, so the time is that over
//    the link's bandwidth per direction (Platform::linkBandwidth); 0 on one GPU.
#pragma once

#include "core/latency/opcosts.h"

#include <array>
#include <vector>

namespace acsel
{

// 5 us: a kernel launch plus the ramp of a short kernel, the constant under which the
// measured tables' smallest operators sit (docs/GPUS.md). The utilisation fit records the
// constant it used.
inline constexpr double kDefaultSolConstantMs = 0.005;

// Roofline times in ms WITHOUT the per-call constant (shared with the utilisation fit).
double solGemmRoofMs(const Platform& p, Format f, double m, double n, double k);
double solContextAttentionRoofMs(const Platform& p, double batch, double isl, int heads,
                                 int kvHeads, int headDim, KvFormat kv);
double solGenerationAttentionRoofMs(const Platform& p, double batch, double kvLen, int heads,
                                    int kvHeads, int headDim, KvFormat kv);
double solAllReduceRoofMs(const Platform& p, int gpus, double elements);

class SolOpCosts final : public OpCosts
{
public:
    // formats: the GEMM formats the stack runs (others are not supported: NaN).
    SolOpCosts(Platform platform, const std::vector<Format>& formats,
               double constantMs = kDefaultSolConstantMs);

    const Platform& platform() const override { return platform_; }
    bool supports(Format f) const override { return supported_[static_cast<std::size_t>(f)]; }
    double gemmMs(Format f, double m, double n, double k) const override;
    double contextAttentionMs(double batch, double isl, int heads, int kvHeads, int headDim,
                              KvFormat kv) const override;
    double generationAttentionMs(double batch, double kvLen, int heads, int kvHeads, int headDim,
                                 KvFormat kv) const override;
    double memoryOpMs(double bytes) const override;

    double constantMs() const { return constantMs_; }

private:
    Platform platform_;
    std::array<bool, kFormatCount> supported_{};
    double constantMs_;
};

} // namespace acsel
