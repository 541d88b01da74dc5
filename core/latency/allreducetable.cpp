#include "core/latency/allreducetable.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace acsel
{

AllReduceTable::AllReduceTable(const std::vector<CommRow>& engine, const std::vector<CommRow>& nccl)
{
    build(engine_, engine);
    build(nccl_, nccl);
}

void AllReduceTable::build(std::array<Curve, kMaxGpus + 1>& curves,
                           const std::vector<CommRow>& rows)
{
    std::vector<CommRow> sorted = rows;
    std::stable_sort(sorted.begin(), sorted.end(), [](const CommRow& a, const CommRow& b) {
        return a.gpus != b.gpus ? a.gpus < b.gpus : a.elements < b.elements;
    });
    for (const CommRow& r : sorted) {
        if (r.gpus < 2 || r.gpus > kMaxGpus)
            continue;
        Curve& c = curves[static_cast<std::size_t>(r.gpus)];
        if (!c.empty() && c.size.back() == r.elements)
            continue; // first row of a size wins (the loader already resolved duplicates)
        c.size.push_back(r.elements);
        c.log2Size.push_back(std::log2(r.elements));
        c.ms.push_back(r.ms);
    }
}

double AllReduceTable::Curve::at(double elements) const
{
    if (elements <= size.front())
        return ms.front();
    if (elements >= size.back())
        return ms.back() * elements / size.back();
    const auto hi = static_cast<std::size_t>(std::upper_bound(size.begin(), size.end(), elements) -
                                             size.begin());
    const std::size_t lo = hi - 1;
    const double t = (std::log2(elements) - log2Size[lo]) / (log2Size[hi] - log2Size[lo]);
    return ms[lo] + t * (ms[hi] - ms[lo]);
}

bool AllReduceTable::has(int gpus) const
{
    if (gpus == 1)
        return true;
    if (gpus < 2 || gpus > kMaxGpus)
        return false;
    const auto g = static_cast<std::size_t>(gpus);
    return !engine_[g].empty() || !nccl_[g].empty();
}

double AllReduceTable::lookup(int gpus, double elements) const
{
    if (gpus == 1)
        return 0.0;
    if (!has(gpus))
        return std::numeric_limits<double>::quiet_NaN();
    const Curve& e = engine_[static_cast<std::size_t>(gpus)];
    const Curve& n = nccl_[static_cast<std::size_t>(gpus)];
    if (!e.empty() && elements <= e.maxSize())
        return e.at(elements);
    if (!n.empty() && elements <= n.maxSize())
        return n.at(elements);
    // Beyond both: the curve sampled further, bandwidth held.
    if (e.empty())
        return n.at(elements);
    if (n.empty())
        return e.at(elements);
    return e.maxSize() >= n.maxSize() ? e.at(elements) : n.at(elements);
}

} // namespace acsel
