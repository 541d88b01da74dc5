#include "core/latency/attentiontable.h"

#include "core/data/loaderror.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace acsel
{
namespace
{

std::string dtypeName(KvFormat k)
{
    return k == KvFormat::Fp8 ? "fp8" : "bfloat16";
}

} // namespace

double AttentionTable::work(double heads, double seq, double batch) const
{
    // Decode attention streams the KV cache: b s. Prefill attention is compute: b h s^2.
    return generation_ ? batch * seq : batch * heads * seq * seq;
}

AttentionTable::AttentionTable(const std::vector<AttentionRow>& rows, bool generation,
                               const std::string& file)
    : generation_(generation)
{
    // Slices sorted by shape first, so the slices of one (KV heads, head dim) are contiguous.
    using Key = std::tuple<int, int, KvFormat, KvFormat>;
    std::vector<Key> keys;
    for (const AttentionRow& r : rows) {
        const Key k{r.kvHeads, r.headDim, r.attnDtype, r.kvDtype};
        if (std::find(keys.begin(), keys.end(), k) == keys.end())
            keys.push_back(k);
    }
    std::sort(keys.begin(), keys.end());
    for (const Key& key : keys) {
        std::array<std::vector<double>, 3> axes;
        auto inSlice = [&](const AttentionRow& r) {
            return Key{r.kvHeads, r.headDim, r.attnDtype, r.kvDtype} == key;
        };
        for (const AttentionRow& r : rows)
            if (inSlice(r)) {
                axes[0].push_back(r.heads);
                axes[1].push_back(r.seq);
                axes[2].push_back(r.batch);
            }
        for (auto& a : axes)
            a = Grid3::axisOf(std::move(a));
        const auto seqScale = generation ? Grid3::Scale::Linear : Grid3::Scale::Sqrt;
        Grid3 g(std::move(axes), {Grid3::Scale::Linear, seqScale, Grid3::Scale::Linear});
        for (const AttentionRow& r : rows)
            if (inSlice(r))
                g.set(g.indexOf(0, r.heads), g.indexOf(1, r.seq), g.indexOf(2, r.batch), r.ms);
        filled_ += g.missingCount();
        // Batch first (the staircase), then sequence, then heads.
        if (!g.fill({2, 1, 0}, [&](double h, double s, double b) { return work(h, s, b); }))
            throw LoadError(file, "attention slice", "cannot complete a (heads, seq, batch) grid");
        slices_.push_back(
            {std::get<2>(key), std::get<3>(key), std::get<0>(key), std::get<1>(key), std::move(g)});
        const int index = static_cast<int>(slices_.size()) - 1;
        if (shapes_.empty() || shapes_.back().kvHeads != std::get<0>(key) ||
            shapes_.back().headDim != std::get<1>(key))
            shapes_.push_back({std::get<0>(key), std::get<1>(key), index, index});
        shapes_.back().end = index + 1;
    }
}

int AttentionTable::dtypeRank(const Slice& s, KvFormat kv) const
{
    if (generation_)
        return s.kv == kv ? 0 : s.kv == KvFormat::Bf16 ? 1 : 2;
    if (s.kv == kv)
        return s.attn == KvFormat::Bf16 ? 0 : 1;
    return s.kv == KvFormat::Bf16 && s.attn == KvFormat::Bf16 ? 2 : 3;
}

AttentionTable::Choice AttentionTable::choose(int heads, int kvHeads, int headDim,
                                              KvFormat kv) const
{
    // Rank: shape distance (log2 of KV-head and head-dim ratios), heads coverage, dtype rank.
    // The exact shape is the common case: only its few slices are ranked (hot path).
    std::size_t begin = 0, end = slices_.size();
    for (const Shape& sh : shapes_)
        if (sh.kvHeads == kvHeads && sh.headDim == headDim) {
            begin = static_cast<std::size_t>(sh.begin);
            end = static_cast<std::size_t>(sh.end);
        }
    Choice best;
    double bestDistance = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const Slice& s = slices_[i];
        const bool exact = s.kvHeads == kvHeads && s.headDim == headDim;
        const double distance =
            exact ? 0.0
                  : std::abs(std::log2(static_cast<double>(s.kvHeads) / kvHeads)) +
                        std::abs(std::log2(static_cast<double>(s.headDim) / headDim));
        const auto& ax = s.grid.axis(0);
        const bool covers = heads >= ax.front() && heads <= ax.back();
        const int rank = dtypeRank(s, kv);
        const bool better =
            !best.slice || distance < bestDistance ||
            (distance == bestDistance &&
             (covers > best.coversHeads || (covers == best.coversHeads && rank < best.dtypeRank)));
        if (better) {
            best = {&s, 1.0, rank, covers};
            bestDistance = distance;
        }
    }
    if (best.slice) {
        const double dimRatio = static_cast<double>(headDim) / best.slice->headDim;
        best.scale = generation_ ? dimRatio * kvHeads / best.slice->kvHeads : dimRatio;
    }
    return best;
}

double AttentionTable::lookupIn(const Choice& c, double batch, double seq, int heads) const
{
    if (!c.slice)
        return std::nan("");
    std::array<double, 3> cl{};
    const double h = heads;
    const double t = c.slice->grid.interpolate(h, seq, batch, cl);
    const double outside = (cl[0] == h && cl[1] == seq && cl[2] == batch)
                               ? 1.0
                               : std::max(1.0, work(h, seq, batch) / work(cl[0], cl[1], cl[2]));
    return t * outside * c.scale;
}

double AttentionTable::lookup(double batch, double seq, int heads, int kvHeads, int headDim,
                              KvFormat kv) const
{
    return lookupIn(choose(heads, kvHeads, headDim, kv), batch, seq, heads);
}

void AttentionTable::lookupMany(std::span<const double> batch, std::span<const double> seq,
                                int heads, int kvHeads, int headDim, KvFormat kv,
                                std::span<double> out) const
{
    const Choice c = choose(heads, kvHeads, headDim, kv);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i] = lookupIn(c, batch[i], seq[i], heads);
}

std::string AttentionTable::note(int heads, int kvHeads, int headDim, KvFormat kv) const
{
    const char* kind = generation_ ? "generation attention" : "context attention";
    const Choice c = choose(heads, kvHeads, headDim, kv);
    if (!c.slice)
        return std::string(kind) + ": no table";
    const Slice& s = *c.slice;
    std::string out;
    auto add = [&](const std::string& what) { out += (out.empty() ? "" : "; ") + what; };
    if (s.kvHeads != kvHeads || s.headDim != headDim)
        add("no slice with " + std::to_string(kvHeads) + " KV heads x head dim " +
            std::to_string(headDim) + ": uses " + std::to_string(s.kvHeads) + " x " +
            std::to_string(s.headDim) + " scaled by " + std::to_string(c.scale));
    if (c.dtypeRank > 0)
        add(std::string("no ") + (generation_ ? "" : "bfloat16-attention ") + "slice for KV " +
            dtypeName(kv) + ": uses attn " + dtypeName(s.attn) + " / KV " + dtypeName(s.kv));
    if (!c.coversHeads)
        add(std::to_string(heads) + " heads outside the measured " +
            std::to_string(static_cast<int>(s.grid.axis(0).front())) + ".." +
            std::to_string(static_cast<int>(s.grid.axis(0).back())) + ": extrapolated");
    return out.empty() ? out : std::string(kind) + ": " + out;
}

} // namespace acsel
