#include "core/search/batchmonotonecosts.h"

#include "core/latency/opmodel.h"
#include "core/model/defaults.h"

#include <algorithm>

namespace acsel
{

BatchMonotoneCosts::BatchMonotoneCosts(const OpCosts& base, int batch, int concurrency)
    : base_(base), batch_(batch)
{
    static_assert(kDefaultBatches.size() + 2 <= std::tuple_size_v<decltype(ladder_)>);
    if (concurrency < batch)
        ladder_[count_++] = concurrency;
    for (int b : kDefaultBatches)
        if (b > concurrency && b < batch)
            ladder_[count_++] = b;
    ladder_[count_++] = batch;
}

template <class Lookup> double BatchMonotoneCosts::maxOverLadder(Lookup&& lookup) const
{
    double worst = lookup(1.0); // the batch itself: the unscaled lookup, bit for bit
    for (std::size_t i = 0; i + 1 < count_; ++i)
        worst = std::max(worst, lookup(static_cast<double>(ladder_[i]) / batch_));
    return worst;
}

double BatchMonotoneCosts::gemmMs(Format f, double m, double n, double k) const
{
    return maxOverLadder([&](double s) { return base_.gemmMs(f, m * s, n, k); });
}

double BatchMonotoneCosts::contextAttentionMs(double batch, double isl, int heads, int kvHeads,
                                              int headDim, KvFormat kv) const
{
    return maxOverLadder([&](double s) {
        return base_.contextAttentionMs(batch * s, isl, heads, kvHeads, headDim, kv);
    });
}

double BatchMonotoneCosts::generationAttentionMs(double batch, double kvLen, int heads, int kvHeads,
                                                 int headDim, KvFormat kv) const
{
    return maxOverLadder([&](double s) {
        return base_.generationAttentionMs(batch * s, kvLen, heads, kvHeads, headDim, kv);
    });
}

double BatchMonotoneCosts::memoryOpMs(double bytes) const
{
    return maxOverLadder([&](double s) { return base_.memoryOpMs(bytes * s); });
}

double BatchMonotoneCosts::allReduceMs(int gpus, double elements) const
{
    return maxOverLadder([&](double s) { return base_.allReduceMs(gpus, elements * s); });
}

void BatchMonotoneCosts::generationAttentionManyMs(std::span<const double> batch,
                                                   std::span<const double> kvLen, int heads,
                                                   int kvHeads, int headDim, KvFormat kv,
                                                   std::span<double> out) const
{
    base_.generationAttentionManyMs(batch, kvLen, heads, kvHeads, headDim, kv, out);
    std::array<double, 2 * kMaxDecodeSamples> scaled{}, ms{};
    const std::size_t n = out.size();
    for (std::size_t i = 0; i + 1 < count_; ++i) {
        const double s = static_cast<double>(ladder_[i]) / batch_;
        for (std::size_t j = 0; j < n; j += scaled.size()) {
            const std::size_t len = std::min(scaled.size(), n - j);
            for (std::size_t t = 0; t < len; ++t)
                scaled[t] = batch[j + t] * s;
            base_.generationAttentionManyMs(std::span(scaled).first(len), kvLen.subspan(j, len),
                                            heads, kvHeads, headDim, kv, std::span(ms).first(len));
            for (std::size_t t = 0; t < len; ++t)
                out[j + t] = std::max(out[j + t], ms[t]);
        }
    }
}

} // namespace acsel
