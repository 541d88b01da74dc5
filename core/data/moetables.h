// Loader for AIC's fused-MoE table (docs/DATA.md 1): a stack's
// <system>/<backend>/<version>/moe_perf.csv, one MoE layer's routed experts on one GPU
// (permutation, grouped gate/up GEMM, activation, grouped down GEMM, combine), in ms, by
// moe_dtype, num_tokens (the step's tokens), hidden_size, inter_size (one expert's, whole),
// topk, num_experts, moe_tp_size, moe_ep_size and distribution (how tokens were routed when
// timed). Rows kept: moe_dtype a Format names, the distribution asked for (the latency model
// reads `balanced`). A key met twice keeps its first row. A table without a usable row is
// empty (a note says why): the stack then costs MoE blocks without it.
#pragma once

#include "core/data/aictables.h"

#include <string>

namespace acsel
{

inline constexpr const char* kMoeDistribution = "balanced";

struct MoeRow {
    Format format;
    int hidden, inter, topk, experts, moeTp, moeEp;
    int tokens;
    double ms;
};

// Throws LoadError (file, line and column) on a missing column, a malformed or non-positive
// number, or no data row.
AicTable<MoeRow> loadMoeTable(const std::string& path,
                              const std::string& distribution = kMoeDistribution);
AicTable<MoeRow> parseMoeTable(std::string text, const std::string& name,
                               const std::string& distribution = kMoeDistribution);

} // namespace acsel
