// A roofline estimate of TTFT and TPOT from first principles (FLOPs at the platform's peak of
// each GEMM's compute class, bytes at its memory bandwidth, max of the two per step). It is
// the analytical feature of the LR baseline (Imai et al. 2024); not used by the gate. On an
// MoE layer the FLOPs are the router's, the topk routed experts' and a shared expert's per
// token, and a step reads the resident weights less the routed experts its tokens are expected
// not to touch (moeexperts.h, as the operator model's decode path).
#pragma once

#include "core/model/config.h"
#include "core/model/modelarch.h"
#include "core/model/platform.h"

namespace acsel
{

struct RooflineEstimate {
    double ttftMs = 0;
    double tpotMs = 0; // one decode step at the mean context isl + osl / 2
};

RooflineEstimate estimateRoofline(const ModelArch& arch, const Config& config,
                                  const Request& request, const Platform& platform);

} // namespace acsel
