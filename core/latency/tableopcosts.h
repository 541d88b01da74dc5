// OpCosts backed by a stack's AIC operator tables (gemm, context and generation attention)
// and its platform's memory-bound op model. Built once per stack (about 0.1 s for the largest
// tables, see docs/LATENCY.md); every lookup afterwards is allocation-free.
#pragma once

#include "core/data/aictables.h"
#include "core/latency/allreducetable.h"
#include "core/latency/attentiontable.h"
#include "core/latency/gemmtable.h"
#include "core/latency/moetable.h"
#include "core/latency/opcosts.h"

#include <vector>

namespace acsel
{

class TableOpCosts final : public OpCosts
{
public:
    // Loads <stack.tableDir>/{gemm,context_attention,generation_attention}_perf.csv, the
    // stack's all-reduce tables (Stack::allReduceFile, Stack::ncclFile) and its fused-MoE
    // table (Stack::moeFile, the `balanced` distribution) when it has them.
    // Throws LoadError (file, line/column, expectation) on any malformed table.
    static TableOpCosts load(const Stack& stack, const Platform& platform);
    // From already parsed tables (fixtures in tests).
    TableOpCosts(Platform platform, const AicTable<GemmRow>& gemm,
                 const AicTable<AttentionRow>& context, const AicTable<AttentionRow>& generation,
                 AllReduceTable allReduce = {}, MoeTable moe = {});

    const Platform& platform() const override { return platform_; }
    bool supports(Format f) const override { return gemm_.has(f); }
    double gemmMs(Format f, double m, double n, double k) const override
    {
        return gemm_.lookup(f, m, n, k);
    }
    double contextAttentionMs(double batch, double isl, int heads, int kvHeads, int headDim,
                              KvFormat kv) const override
    {
        return context_.lookup(batch, isl, heads, kvHeads, headDim, kv);
    }
    double generationAttentionMs(double batch, double kvLen, int heads, int kvHeads, int headDim,
                                 KvFormat kv) const override
    {
        return generation_.lookup(batch, kvLen, heads, kvHeads, headDim, kv);
    }
    void generationAttentionManyMs(std::span<const double> batch, std::span<const double> kvLen,
                                   int heads, int kvHeads, int headDim, KvFormat kv,
                                   std::span<double> out) const override
    {
        generation_.lookupMany(batch, kvLen, heads, kvHeads, headDim, kv, out);
    }
    // AIC: bytes / (mem_bw x mem_bw_empirical_scaling_factor) + mem_empirical_constant_latency.
    double memoryOpMs(double bytes) const override
    {
        return (bytes / effectiveBandwidth_ + platform_.memConstantLatencyS) * 1e3;
    }
    std::string attentionNote(int heads, int kvHeads, int headDim, KvFormat kv) const override;
    // The fused-MoE table's curve where it has the shape (MoeTable::routedLookup), else the
    // GEMM-per-expert default.
    double moeMs(Format f, double tokens, const MoeShape& s) const override;
    std::string moeNote(Format f, const MoeShape& s) const override;
    bool supportsTp(int gpus) const override { return allReduce_.has(gpus); }
    double allReduceMs(int gpus, double elements) const override
    {
        return allReduce_.lookup(gpus, elements);
    }

    const GemmTable& gemmTable() const { return gemm_; }
    // What the loader dropped, skipped or resolved, per file.
    const std::vector<TableLoadInfo>& loadInfo() const { return info_; }

private:
    Platform platform_;
    double effectiveBandwidth_;
    GemmTable gemm_;
    AttentionTable context_, generation_;
    AllReduceTable allReduce_;
    MoeTable moe_;
    std::vector<TableLoadInfo> info_;
};

} // namespace acsel
