// What the benchmarks time with: the process's CPU time (every thread; on a shared 2-core
// machine the wall time mostly measures the load) and the median of repeated runs.
#pragma once

#include <algorithm>
#include <time.h>
#include <vector>

namespace acsel::bench
{

inline double cpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

} // namespace acsel::bench
