// The toy engine's variants the exact searchers are tested on (test_searchexact,
// test_budgetindex).
#pragma once

#include "toyengine.h"

#include <cmath>
#include <vector>

namespace acsel::test
{

inline const std::vector<Format> kBlackwell{Format::Nvfp4, Format::Fp8, Format::Bf16};
inline const std::vector<Format> kAmpere{Format::Int4Wo, Format::Int8Wo, Format::Int8,
                                         Format::Bf16};
// Variants of the toy engine: `flatBatch` predicts every batch at the latency of the
// concurrency (so batches tie in latency and RMQD and differ in memory); `continuous` adds to
// continuous requests a queueing term that is not additive over layers (a step function of
// the weight memory), so FracMix is no lower bound there, as in the real serving model.
class VariantEngine final : public ToyEngine
{
public:
    VariantEngine(std::vector<Format> formats, bool flatBatch)
        : ToyEngine(std::move(formats), {4, 5}), flatBatch_(flatBatch)
    {
    }
    LatencyMs rawLatency(const Config& c, const Request& q) const override
    {
        Config at = c;
        if (flatBatch_)
            at.batch = q.concurrency;
        LatencyMs t = ToyEngine::rawLatency(at, q);
        if (q.mode == ServingMode::Continuous) {
            const double weights = memoryBytes(at, q) / 1e8;
            const double queue = 0.5 * (weights - std::floor(weights));
            t.ttft *= 1 + queue;
            t.tpot *= 1 + 0.5 * queue;
        }
        return t;
    }
    bool fracMixIsLowerBound(const Request& q) const override
    {
        return q.mode == ServingMode::Static;
    }

private:
    bool flatBatch_;
};

} // namespace acsel::test
