// Operator costs made non-decreasing in the batch: a table can predict a larger
// batch faster than a smaller one (an interpolation artefact), and a search would then answer
// a static batch larger than the concurrency for being "faster". Static serving runs each
// operator of a batch-b step at the cost max over b' of its table cost at batch b', for b' on
// the batch ladder of the workload: the concurrency, the kDefaultBatches between it and b, and
// b. Every operator argument of a static step is proportional to the batch (tokens = batch x
// isl in prefill, batch in decode, attention's batch, element-wise bytes), so the cost at b'
// is the lookup with the arguments scaled by b' / b.
//
// Why per operator and not per estimate: the running max of each operator keeps the estimate
// additive over layers (each layer's cost is a sum of maxed operators, the same in a band as
// in the uniform model), so FracMix stays exact for uniform recipes and a lower bound for
// band recipes. And for b1 < b2 on the ladder, ladder(b1) is part of ladder(b2), so every
// operator, hence TTFT and TPOT, is non-decreasing along the ladder.
#pragma once

#include "core/latency/opcosts.h"
#include "core/model/config.h"

#include <array>

namespace acsel
{

class BatchMonotoneCosts final : public OpCosts
{
public:
    // The ladder of config.batch for request.concurrency; the base must outlive this.
    BatchMonotoneCosts(const OpCosts& base, int batch, int concurrency);

    // The ladder's batches (ascending, config.batch last).
    std::span<const int> ladder() const { return std::span(ladder_).first(count_); }

    const Platform& platform() const override { return base_.platform(); }
    bool supports(Format f) const override { return base_.supports(f); }
    double gemmMs(Format f, double m, double n, double k) const override;
    double contextAttentionMs(double batch, double isl, int heads, int kvHeads, int headDim,
                              KvFormat kv) const override;
    double generationAttentionMs(double batch, double kvLen, int heads, int kvHeads, int headDim,
                                 KvFormat kv) const override;
    double memoryOpMs(double bytes) const override;
    bool supportsTp(int gpus) const override { return base_.supportsTp(gpus); }
    double allReduceMs(int gpus, double elements) const override;
    void generationAttentionManyMs(std::span<const double> batch, std::span<const double> kvLen,
                                   int heads, int kvHeads, int headDim, KvFormat kv,
                                   std::span<double> out) const override;
    std::string attentionNote(int heads, int kvHeads, int headDim, KvFormat kv) const override
    {
        return base_.attentionNote(heads, kvHeads, headDim, kv);
    }

private:
    // max over the ladder of lookup(scale), scale = b' / batch.
    template <class Lookup> double maxOverLadder(Lookup&& lookup) const;

    const OpCosts& base_;
    int batch_;
    std::array<int, 8> ladder_{};
    std::size_t count_ = 0;
};

} // namespace acsel
