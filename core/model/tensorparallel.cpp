#include "core/model/tensorparallel.h"

#include <algorithm>

namespace acsel
{

TpShard shardOf(const ModelArch& arch, int tp, int moeEp)
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
    if (arch.isMoe()) {
        s.moeEp = moeEp;
        s.moeTp = tp / moeEp;
        s.localExperts = static_cast<double>(arch.moe.experts) / moeEp;
        s.expertIntermediate = static_cast<double>(arch.moe.expertIntermediate) / s.moeTp;
        s.sharedIntermediate = static_cast<double>(arch.moe.sharedIntermediate) / tp;
        s.moeLinearParams =
            3.0 * arch.hidden * (s.localExperts * s.expertIntermediate + s.sharedIntermediate);
    }
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

std::string moeEpProblem(const ModelArch& arch, int tp, int moeEp)
{
    const std::string ep = "moe_ep " + std::to_string(moeEp);
    if (!arch.isMoe())
        return moeEp == 1 ? std::string() : ep + ": " + arch.name + " has no experts";
    if (moeEp < 1 || tp % moeEp != 0)
        return ep + " does not divide tp " + std::to_string(tp);
    if (arch.moe.experts % moeEp != 0)
        return ep + " does not divide the " + std::to_string(arch.moe.experts) + " experts of " +
               arch.name;
    return {};
}

std::vector<int> tpDegrees(const ModelArch& arch, int gpus, const std::function<bool(int)>& costed)
{
    std::vector<int> out;
    for (int tp = 1; tp <= std::min(gpus, kMaxGpus); tp *= 2)
        if (tpProblem(arch, tp).empty() && costed(tp))
            out.push_back(tp);
    return out;
}

} // namespace acsel
