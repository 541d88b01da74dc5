#include "core/latency/tableopcosts.h"

#include "core/data/loaderror.h"

#include <cmath>

namespace acsel
{

TableOpCosts::TableOpCosts(Platform platform, const AicTable<GemmRow>& gemm,
                           const AicTable<AttentionRow>& context,
                           const AicTable<AttentionRow>& generation, AllReduceTable allReduce,
                           MoeTable moe)
    : platform_(std::move(platform)),
      effectiveBandwidth_(platform_.memBandwidth * platform_.memBwScaling),
      gemm_(gemm.rows, platform_, gemm.info.file), context_(context.rows, false, context.info.file),
      generation_(generation.rows, true, generation.info.file), allReduce_(std::move(allReduce)),
      moe_(std::move(moe)), info_{gemm.info, context.info, generation.info}
{
    if (!(effectiveBandwidth_ > 0))
        throw LoadError(platform_.source, "gpu.mem_bw", "memory bandwidth must be positive");
    if (context_.empty())
        throw LoadError(context.info.file, "", "no usable context attention rows");
    if (generation_.empty())
        throw LoadError(generation.info.file, "", "no usable generation attention rows");
    // Say what the grids hold beyond the measurements (shown by acsel bench latency).
    for (Format f : kAllFormats)
        if (gemm_.has(f) && gemm_.filledCells(f) > 0)
            info_[0].notes.push_back(std::to_string(gemm_.filledCells(f)) + " unmeasured " +
                                     std::string(facts(f).aicDtype) +
                                     " grid cells filled (utilisation held)");
    if (gemm_.raisedCells() > 0)
        info_[0].notes.push_back(std::to_string(gemm_.raisedCells()) +
                                 " cells below speed of light raised to it");
    if (context_.filledCells() > 0)
        info_[1].notes.push_back(std::to_string(context_.filledCells()) +
                                 " unmeasured grid cells filled (utilisation held)");
    if (generation_.filledCells() > 0)
        info_[2].notes.push_back(std::to_string(generation_.filledCells()) +
                                 " unmeasured grid cells filled (utilisation held)");
}

TableOpCosts TableOpCosts::load(const Stack& stack, const Platform& platform)
{
    if (stack.tableDir.empty())
        throw LoadError(stack.id, "", "stack has no operator tables");
    const std::string dir = stack.tableDir + "/";
    std::vector<TableLoadInfo> commInfo;
    std::vector<CommRow> engine, nccl;
    if (!stack.allReduceFile.empty()) {
        auto t = loadCustomAllReduceTable(stack.allReduceFile);
        engine = std::move(t.rows);
        commInfo.push_back(std::move(t.info));
    }
    if (!stack.ncclFile.empty()) {
        auto t = loadNcclAllReduceTable(stack.ncclFile);
        nccl = std::move(t.rows);
        commInfo.push_back(std::move(t.info));
    }
    MoeTable moe;
    if (!stack.moeFile.empty()) {
        auto t = loadMoeTable(stack.moeFile);
        moe = MoeTable(t.rows);
        commInfo.push_back(std::move(t.info));
    }
    TableOpCosts costs(platform, loadGemmTable(dir + "gemm_perf.csv"),
                       loadContextAttentionTable(dir + "context_attention_perf.csv"),
                       loadGenerationAttentionTable(dir + "generation_attention_perf.csv"),
                       AllReduceTable(engine, nccl), std::move(moe));
    for (TableLoadInfo& i : commInfo)
        costs.info_.push_back(std::move(i));
    return costs;
}

double TableOpCosts::moeMs(Format f, double tokens, const MoeShape& s) const
{
    const double ms = moe_.routedLookup(f, tokens, s);
    return std::isnan(ms) ? OpCosts::moeMs(f, tokens, s) : ms;
}

std::string TableOpCosts::moeNote(Format f, const MoeShape& s) const
{
    return std::isnan(moe_.lookup(f, 1.0, s)) ? OpCosts::moeNote(f, s) : std::string();
}

std::string TableOpCosts::attentionNote(int heads, int kvHeads, int headDim, KvFormat kv) const
{
    const std::string c = context_.note(heads, kvHeads, headDim, kv);
    const std::string g = generation_.note(heads, kvHeads, headDim, kv);
    return c.empty() ? g : g.empty() ? c : c + "; " + g;
}

} // namespace acsel
