#include "core/latency/enginememory.h"

#include "core/latency/memorymodel.h"
#include "core/latency/servingmodel.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace acsel
{
namespace
{

// The smallest multiple of kMemoryFlagStep at or above x (x within a rounding error of a
// multiple stays on it).
double flagAtOrAbove(double x)
{
    return std::ceil(x / kMemoryFlagStep - 1e-9) * kMemoryFlagStep;
}

std::string gib(double bytes)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", bytes / kGiB);
    return buf;
}

// The flag, pool and total of m's terms (C, W, R, A, K) by its backend's rule.
EngineMemory sizePool(EngineMemory m)
{
    const double C = m.capacityBytes, W = m.weightBytes, R = m.runtimeBytes, A = m.activationBytes,
                 K = m.kvBytes;
    switch (info(m.backend).kvPool) {
    case KvPoolRule::ShareOfDevice:
        m.flag = flagAtOrAbove((W + R + A + K) / C);
        m.poolBytes = m.flag * C - W - R - A;
        m.totalBytes = m.flag * C;
        break;
    case KvPoolRule::StaticShareOfDevice:
        m.flag = flagAtOrAbove((W + R + K) / C);
        m.poolBytes = m.flag * C - W - R;
        m.totalBytes = m.flag * C + A;
        break;
    case KvPoolRule::ShareOfFree: {
        const double free = C - W - R - A;
        m.flag = free > 0 ? flagAtOrAbove(K / free) : std::numeric_limits<double>::infinity();
        m.poolBytes = free > 0 ? m.flag * free : 0.0;
        m.totalBytes = W + R + A + m.poolBytes;
        break;
    }
    }
    return m;
}

} // namespace

EngineMemory engineMemory(Backend b, const ModelArch& arch, const Config& config,
                          const Request& request, const Platform& platform)
{
    const ServingDefaults d = servingDefaults(toString(b), platform, request.engineVersion);
    const MemoryEstimate s = estimateStaticMemory(arch, config, request, platform);
    EngineMemory m;
    m.backend = b;
    m.capacityBytes = platform.memCapacityBytes;
    m.limitBytes = std::min(request.memBudgetGiB * kGiB, m.capacityBytes);
    m.weightBytes = s.weightBytes + s.embeddingBytes + s.lmHeadBytes;
    m.runtimeBytes = s.runtimeBytes;
    m.activationBytes = stepActivationBytes(arch, d, config.tp); // per GPU, as every term
    const double fullLength = kvBytesFullLength(arch, config, request);
    if (request.mode == ServingMode::Static) {
        m.kvRequests = std::min(request.concurrency, config.batch);
        m.kvBytes = m.kvRequests * fullLength;
    } else {
        // The serving model's running count on this engine's own defaults, at least one.
        Request onEngine = request;
        onEngine.stack = platform.id + "/" + std::string(toString(b));
        const RunningRule rule = runningRule(arch, config, onEngine, platform);
        m.kvRequests =
            std::max(1, rule.runningAt(estimateMemory(arch, config, onEngine, platform).total()));
        m.kvBytes = std::max(m.kvRequests * rule.bytesPerRequest, fullLength);
    }
    return sizePool(m);
}

EngineMemory withWeights(EngineMemory m, double weightBytes)
{
    m.weightBytes = weightBytes;
    return sizePool(m);
}

std::string engineMemoryProblem(const EngineMemory& m)
{
    if (m.loads())
        return {};
    const BackendInfo& e = info(m.backend);
    const std::string needs = std::string(e.title) + " needs weights " + gib(m.weightBytes) +
                              " + runtime " + gib(m.runtimeBytes) + " + step activations " +
                              gib(m.activationBytes) + " + KV " + gib(m.kvBytes) + " GiB (" +
                              std::to_string(m.kvRequests) +
                              (m.kvRequests == 1 ? " request)" : " requests)");
    if (!std::isfinite(m.flag))
        return needs + ": the weights leave no memory on the device";
    char flag[32];
    std::snprintf(flag, sizeof flag, "%.3f", m.flag);
    if (m.flag > 1.0)
        return needs + ": " + std::string(e.memoryFlag) + " " + flag + " would be above 1";
    return needs + ": at " + std::string(e.memoryFlag) + " " + flag + " it takes " +
           gib(m.totalBytes) + " GiB, over the limit " + gib(m.limitBytes) + " GiB";
}

} // namespace acsel
