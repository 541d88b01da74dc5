#include "core/model/tensorparallel.h"

#include <algorithm>

namespace acsel
{

TpShard shardOf(const ModelArch& arch, int tp)
{
    TpShard s;
    s.tp = tp;
    s.heads = arch.heads / tp;
    s.kvHeads = std::max(1, (arch.kvHeads + tp - 1) / tp);
    s.intermediate = static_cast<double>(arch.intermediate) / tp;
    s.vocab = static_cast<double>(arch.vocab) / tp;
    s.qkvColumns = (s.heads + 2.0 * s.kvHeads) * arch.headDim;
    s.attnOut = static_cast<double>(s.heads) * arch.headDim;
    s.attnLinearParams = static_cast<double>(arch.hidden) * (s.qkvColumns + s.attnOut);
    s.mlpLinearParams = 3.0 * arch.hidden * s.intermediate;
    return s;
}

std::string tpProblem(const ModelArch& arch, int tp)
{
    const std::string t = "tp " + std::to_string(tp);
    if (tp < 1 || tp > kMaxGpus || (tp & (tp - 1)) != 0)
        return t + " is not a power of two from 1 to " + std::to_string(kMaxGpus);
    if (arch.heads % tp != 0)
        return t + " does not divide the " + std::to_string(arch.heads) + " attention heads of " +
               arch.name;
    return {};
}

} // namespace acsel
