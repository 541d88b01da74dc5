#include "core/latency/throughput.h"

#include <cmath>
#include <stdexcept>

namespace acsel
{

Throughput throughputOf(double ttftMs, double tpotMs, int osl, int concurrency, int gpus)
{
    if (!(ttftMs > 0) || !std::isfinite(ttftMs) || !(tpotMs >= 0) || !std::isfinite(tpotMs))
        throw std::invalid_argument("throughput: TTFT must be > 0 and TPOT >= 0 (finite)");
    if (osl < 1 || concurrency < 1 || gpus < 1)
        throw std::invalid_argument("throughput: osl, concurrency and gpus must be at least 1");
    Throughput t;
    t.requestMs = ttftMs + (osl - 1) * tpotMs;
    t.tokensPerSUser = osl > 1 && tpotMs > 0 ? 1000.0 / tpotMs : 1000.0 / ttftMs;
    t.requestsPerS = concurrency * 1000.0 / t.requestMs;
    t.tokensPerSGpu = t.requestsPerS * osl / gpus;
    return t;
}

} // namespace acsel
