// The time a served request spends outside the engine's steps before its first token (HTTP
// frontend, tokenisation, the scheduler's admission), as measured for one engine release on
// one GPU: the operator tables cannot see it, so it is fitted on measured rows, one constant
// per (stack, release), and added to the continuous model's TTFT (docs/SERVING.md, "Request
// overhead measured per release").
//
// Fitted on the tp 1 rows of AIConfigurator's `silicon/dense_tp1.csv` only: per (stack,
// backend_version) with at least 6 rows the model does not queue, the h in whole ms from 0 to
// 1000 that minimises the MdAPE of TTFT + h on those rows (the smallest on ties). The
// tensor-parallel and MoE rows of the same releases judge it. Pairs measured at 0 (h200_sxm
// trtllm and vllm) and pairs never measured (every current release, which the search and the
// explorer ask for: an empty engine version) get 0.
#pragma once

#include <string_view>

namespace acsel
{

// The fitted overhead (ms) of `stack` ("h100_sxm/trtllm") at release `engineVersion`, else 0.
double requestOverheadMs(std::string_view stack, std::string_view engineVersion);

} // namespace acsel
