#include "core/latency/memorymodel.h"

#include "core/latency/servingmodel.h"
#include "core/model/tensorparallel.h"

#include <algorithm>

namespace acsel
{
namespace
{

double bytesAt(Format f, double params)
{
    return params * facts(f).effectiveBits / 8.0;
}

} // namespace

double kvBytesPerToken(const ModelArch& arch, KvFormat kv, int tp)
{
    const double bytes = kv == KvFormat::Fp8 ? 1.0 : 2.0;
    return static_cast<double>(arch.layers) * 2.0 * shardOf(arch, tp).kvHeads * arch.headDim *
           bytes;
}

MemoryEstimate estimateStaticMemory(const ModelArch& arch, const Config& config,
                                    const Request& request, const Platform& platform)
{
    MemoryEstimate m;
    const TpShard shard = shardOf(arch, config.tp, config.moeEp);
    const double attn = shard.attnLinearParams;
    const double mlp = shard.mlpLinearParams;
    const double norms = static_cast<double>(arch.layerNormParams());
    const double router = static_cast<double>(arch.routerParams());
    for (const Band& b : config.recipe) {
        const Format fa = b.scope != Scope::Mlp ? b.format : Format::Bf16;
        const Format fm = b.scope != Scope::Attn ? b.format : Format::Bf16;
        const int moeLayers = arch.moeLayersIn(b.begin, b.end);
        m.weightBytes += b.layers() * (bytesAt(fa, attn) + 2.0 * norms) +
                         (b.layers() - moeLayers) * bytesAt(fm, mlp) +
                         moeLayers * (bytesAt(fm, shard.moeLinearParams) + 2.0 * router);
    }
    m.weightBytes += 2.0 * arch.hidden; // final norm
    const double table = shard.vocab * arch.hidden;
    m.embeddingBytes = 2.0 * table;
    if (config.lmHeadQuantized && config.recipe.size() > 0)
        m.lmHeadBytes = bytesAt(config.recipe[config.recipe.size() - 1].format, table);
    else
        m.lmHeadBytes = arch.tiedEmbeddings ? 0.0 : 2.0 * table;
    const double contexts = static_cast<double>(config.batch) * (request.isl + request.osl);
    m.kvCacheBytes = contexts * kvBytesPerToken(arch, config.kv, config.tp);
    const double tokens = static_cast<double>(config.batch) * request.isl;
    m.activationBytes =
        std::max(2.0 * tokens * shard.heads * arch.headDim * 11.0, 70.0 * 1024.0 * 1024.0);
    m.runtimeBytes = platform.otherMemBytes;
    m.capacityBytes = platform.memCapacityBytes;
    return m;
}

MemoryEstimate estimateMemory(const ModelArch& arch, const Config& config, const Request& request,
                              const Platform& platform)
{
    MemoryEstimate m = estimateStaticMemory(arch, config, request, platform);
    if (request.mode == ServingMode::Continuous) {
        const ServingDefaults d = servingDefaults(request, platform);
        // The free memory (capacity - weights - activations - runtime) whose pool holds one
        // request to its end: share x free - deduction = full-length KV.
        const double activations = stepActivationBytes(arch, d, config.tp);
        const KvPoolLine pool = kvPoolLine(d, arch, platform, config.tp);
        const double needed =
            m.weightBytes + m.embeddingBytes + m.lmHeadBytes + activations + m.runtimeBytes +
            (kvBytesFullLength(arch, config, request) + pool.deductionBytes) / pool.share;
        m.servingReserveBytes = std::max(0.0, needed - m.total());
    }
    return m;
}

} // namespace acsel
