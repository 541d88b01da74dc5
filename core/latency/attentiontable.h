// Attention latency lookup of one stack (context or generation table): one (heads, seq,
// batch) grid per slice (attn dtype, KV dtype, KV heads, head dim), built at load.
//
// Policies (docs/LATENCY.md):
//  - interpolation: linear in heads and batch; in sqrt(seq) for context (AIC's transform),
//    linear in the KV length for generation (decode attention reads the KV cache: linear);
//  - unmeasured cells (the large batch x long sequence staircase): held utilisation from the
//    largest measured batch below (time proportional to batch), then along seq and heads
//    (context work b h s^2, generation work b s), then held from above;
//  - outside the grid: clamped value x max(1, work(query) / work(clamped));
//  - slice choice: a slice with the exact KV heads and head dim is preferred; among those one
//    whose heads axis covers the query; then by dtype: context (bf16 attn, kv), (fp8 attn,
//    kv), (bf16, bf16); generation (kv), (bf16). A KV-head or head-dim mismatch scales the
//    time by the ratio of KV bytes (generation) or head dim (context). note() says which.
#pragma once

#include "core/data/aictables.h"
#include "core/latency/grid3.h"

#include <span>
#include <string>
#include <vector>

namespace acsel
{

class AttentionTable
{
public:
    AttentionTable() = default;
    // generation: the table is a decode table (seq = KV length). Throws LoadError naming
    // `file` when a slice cannot be completed.
    AttentionTable(const std::vector<AttentionRow>& rows, bool generation, const std::string& file);

    bool empty() const { return slices_.empty(); }
    double lookup(double batch, double seq, int heads, int kvHeads, int headDim, KvFormat kv) const;
    // out[i] = lookup(batch[i], seq[i], ...) for one shape: the slice is chosen once.
    void lookupMany(std::span<const double> batch, std::span<const double> seq, int heads,
                    int kvHeads, int headDim, KvFormat kv, std::span<double> out) const;
    // Empty when the lookup uses a slice of exactly this shape and dtype.
    std::string note(int heads, int kvHeads, int headDim, KvFormat kv) const;
    int filledCells() const { return filled_; }

private:
    struct Slice {
        KvFormat attn, kv;
        int kvHeads, headDim;
        Grid3 grid; // axes: heads, seq, batch
    };
    struct Choice {
        const Slice* slice = nullptr;
        double scale = 1.0;
        int dtypeRank = 0;
        bool coversHeads = true;
    };
    Choice choose(int heads, int kvHeads, int headDim, KvFormat kv) const;
    double lookupIn(const Choice& c, double batch, double seq, int heads) const;
    int dtypeRank(const Slice& s, KvFormat kv) const;
    double work(double heads, double seq, double batch) const;

    struct Shape { // the contiguous slices [begin, end) of one (KV heads, head dim)
        int kvHeads, headDim, begin, end;
    };
    bool generation_ = false;
    std::vector<Slice> slices_;
    std::vector<Shape> shapes_;
    int filled_ = 0;
};

} // namespace acsel
