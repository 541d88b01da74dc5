// The 50 seeded requests of the evaluation (docs/METHOD.md 5): each picks a stack, a workload and
// an anchor (model, batch); its latency budgets are tighter than the MEASURED latency of the
// anchor's uniform int8 (Ampere/Ada) or fp8 (Hopper/Blackwell) configuration, so that mixed
// precision has headroom.
#pragma once

#include "core/eval/evalsetup.h"
#include "core/eval/simulatedcampaign.h"

#include <vector>

namespace acsel
{

struct EvalRequest {
    Request request;
    Config anchor;
};

// The anchor format of a stack: int8 (W8A8) on Ampere/Ada (sm < 90), fp8 on Hopper/Blackwell;
// the other of the two when the stack lacks it, else bf16.
Format anchorFormat(const Stack& s, const Platform& p);

std::vector<EvalRequest> generateRequests(const Engine& e, const SimulatedCampaign& campaign,
                                          const EvalSetup& setup, int count, std::uint64_t seed);

} // namespace acsel
