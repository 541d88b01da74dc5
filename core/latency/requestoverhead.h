// The time a served request spends outside the engine's steps before its first token (HTTP
// frontend, tokenisation, the scheduler's admission), as measured for one engine release on
// one GPU: the operator tables cannot see it, so it is fitted on measured rows, one value per
// (stack, release), kept in the workspace's request overheads file
// (datasets/request_overheads.json, each entry with its fit) and added to the continuous
// model's TTFT (docs/SERVING.md, "Request overhead measured per release").
//
// Fitted (requestoverheadfit.h, `acsel fit overhead`) on the tp 1 rows of AIConfigurator's
// `silicon/dense_tp1.csv` only: per (stack, backend_version) with at least 6 rows the model
// does not queue, the h in whole ms from 0 to 1000 that minimises the MdAPE of TTFT + h on
// those rows (the smallest on ties). The
// tensor-parallel and MoE rows of the same releases judge it. Pairs measured at 0 (h200_sxm
// trtllm and vllm) and pairs never measured (every current release, which the search and the
// explorer ask for: an empty engine version) have no entry: 0.
#pragma once

#include "core/model/workspace.h"

#include <string_view>

namespace acsel
{

// The overhead (ms) of `stack` ("h100_sxm/trtllm") at release `engineVersion` in the
// workspace's file, else 0 (an empty release: 0).
double requestOverheadMs(const Workspace& ws, std::string_view stack,
                         std::string_view engineVersion);

} // namespace acsel
