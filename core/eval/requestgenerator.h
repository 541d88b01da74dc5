// The 50 seeded requests of the evaluation (docs/METHOD.md 5, docs/EVALUATION.md): each picks a
// stack, a workload and an anchor (the largest model of a family, a batch); its TPOT budget
// lies in the anchor model's mixed-precision headroom, between the MEASURED TPOT of two of its
// uniform configurations:
// the anchor format (int8 W8A8 on Ampere/Ada, fp8 on Hopper/Blackwell) and the stack's 4-bit
// format below it (int4_wo, nvfp4), or, on a stack without a 4-bit format, the anchor format and
// bf16 above it. So no uniform configuration of the slower format meets them, the faster one
// does, and band recipes mixing the two can beat it on quality.
#pragma once

#include "core/eval/evalsetup.h"
#include "core/eval/simulatedcampaign.h"

#include <vector>

namespace acsel
{

struct EvalRequest {
    Request request;
    // The two uniform configurations of the anchor model and batch the budgets lie between,
    // one of them in the anchor format.
    Config faster, slower;
};

// The anchor format of a stack: int8 (W8A8) on Ampere/Ada (sm < 90), fp8 on Hopper/Blackwell;
// the other of the two when the stack lacks it, else bf16.
Format anchorFormat(const Stack& s, const Platform& p);

// The two formats whose uniform configurations bound the headroom: {fewest-bit format of the
// stack below the anchor's bits, anchor} when there is one, else {anchor, bf16}. Both are
// bf16 when the stack has bf16 only (no headroom).
std::pair<Format, Format> headroomFormats(const Stack& s, const Platform& p);

// The anchor models: per family the largest of `models` (the model a deployment wants; the
// smaller ones stay candidates of the search, its fallback when no mix of the anchor is
// admitted). In first-seen order of the families.
std::vector<int> anchorModels(const Workspace& ws, const std::vector<int>& models);

// Requests with anchors from anchorModels(setup.models). TPOT budget: faster + u (slower -
// faster), u ~ U(setup.headroomMin, setup.headroomMax), when the faster format decodes faster
// (else the faster point's TPOT x U(1, 1 + setup.looseSlack)); TTFT budget: the larger of the two
// points' TTFT x U(1, 1 + setup.looseSlack), so TTFT admits both. Memory: the slower point's
// measured memory x U(memorySlackMin, memorySlackMax), at least the faster point's, capped by
// the device.
std::vector<EvalRequest> generateRequests(const Engine& e, const SimulatedCampaign& campaign,
                                          const EvalSetup& setup, int count, std::uint64_t seed);

} // namespace acsel
