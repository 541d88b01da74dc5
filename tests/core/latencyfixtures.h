// The shared part of the closed-form fake operator costs of the latency tests: a platform, and
// a memory-bound op of 1 ns per byte plus 2 us, so expected values can be written down by hand.
// Each test's fake adds its own GEMM and attention formulas.
#pragma once

#include "core/latency/opcosts.h"

namespace acsel::test
{

class FakeCostsBase : public OpCosts
{
public:
    const Platform& platform() const override { return p_; }
    double memoryOpMs(double bytes) const override { return bytes * 1e-9 + 0.002; }

protected:
    // By default no runtime overhead: all of the capacity is the model's.
    explicit FakeCostsBase(double capacityBytes = 0, double otherMemBytes = 0)
    {
        p_.id = "fake";
        p_.memCapacityBytes = capacityBytes;
        p_.otherMemBytes = otherMemBytes;
    }

private:
    Platform p_;
};

} // namespace acsel::test
