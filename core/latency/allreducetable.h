// All-reduce latency of one stack (docs/LATENCY.md, "Tensor parallelism"): the engine's own
// all-reduce table (custom_allreduce_perf.csv), the system's NCCL all-reduce
// (nccl_perf.csv) where the engine's has no curve for the GPU count or the message is beyond
// it.
//
// The tables are sampled at powers of two of the message size, so between two samples the
// latency is interpolated linearly in log2(size): a launch-bound collective (flat latency)
// stays flat, and a bandwidth-bound one (latency doubling per step) is within the two
// samples. Below the smallest sample: the smallest sample's latency (the launch floor).
// Beyond the largest: its latency x size / largest size (bandwidth held, as AIC).
#pragma once

#include "core/data/commtables.h"
#include "core/model/tensorparallel.h"

#include <array>
#include <vector>

namespace acsel
{

class AllReduceTable
{
public:
    AllReduceTable() = default;
    // Rows with more GPUs than kMaxGpus are ignored; either list may be empty.
    AllReduceTable(const std::vector<CommRow>& engine, const std::vector<CommRow>& nccl);

    // Whether an all-reduce over `gpus` GPUs can be costed (always at 1).
    bool has(int gpus) const;
    // ms of one all-reduce of `elements` values over `gpus` GPUs: 0 at 1 GPU, NaN without a
    // curve for `gpus`.
    double lookup(int gpus, double elements) const;

private:
    struct Curve {
        std::vector<double> size, log2Size, ms; // ascending size
        bool empty() const { return size.empty(); }
        double maxSize() const { return size.back(); }
        double at(double elements) const;
    };
    static void build(std::array<Curve, kMaxGpus + 1>& curves, const std::vector<CommRow>& rows);

    std::array<Curve, kMaxGpus + 1> engine_{}, nccl_{};
};

} // namespace acsel
