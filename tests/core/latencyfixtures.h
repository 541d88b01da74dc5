// The shared part of the closed-form fake operator costs of the latency tests: a platform, and
// a memory-bound op of 1 ns per byte plus 2 us, so expected values can be written down by hand.
// Each test's fake adds its own GEMM and attention formulas, or takes ClosedFormCosts.
#pragma once

#include "core/latency/opcosts.h"

namespace acsel::test
{

// A device of `capacityBytes` (the defaults of vLLM and SGLang follow its memory).
inline Platform fakeGpu(double capacityBytes, double otherMemBytes = 0)
{
    Platform p;
    p.id = "fake";
    p.memCapacityBytes = capacityBytes;
    p.otherMemBytes = otherMemBytes;
    return p;
}

class FakeCostsBase : public OpCosts
{
public:
    const Platform& platform() const override { return p_; }
    double memoryOpMs(double bytes) const override { return bytes * 1e-9 + 0.002; }

protected:
    // By default no runtime overhead: all of the capacity is the model's.
    explicit FakeCostsBase(double capacityBytes = 0, double otherMemBytes = 0)
        : p_(fakeGpu(capacityBytes, otherMemBytes))
    {
    }

private:
    Platform p_;
};

// Closed-form costs for tests that need any positive, growing costs: a GEMM pays its work
// plus 1 us, context attention grows with isl^2, generation attention with batch x context.
class ClosedFormCosts : public FakeCostsBase
{
public:
    explicit ClosedFormCosts(double capacityBytes = 0, double otherMemBytes = 0)
        : FakeCostsBase(capacityBytes, otherMemBytes)
    {
    }
    bool supports(Format) const override { return true; }
    double gemmMs(Format, double m, double n, double k) const override
    {
        return 1e-9 * m * n * k + 1e-3;
    }
    double contextAttentionMs(double b, double isl, int heads, int, int, KvFormat) const override
    {
        return 1e-6 * b * isl * isl * heads;
    }
    double generationAttentionMs(double b, double kvLen, int, int, int, KvFormat) const override
    {
        return 1e-5 * b * kvLen + 1e-3;
    }
};

} // namespace acsel::test
