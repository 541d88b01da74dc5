// The speed-of-light floor of a latency prediction: the serving model on pure roofline costs
// (each operator max(flops / peak, bytes / bandwidth), no per-call constant, memory-bound ops at
// the full spec bandwidth), which no measured, fitted or calibrated latency can beat. A
// prediction below it comes from inputs that are wrong (an FMC offset of -800, a utilisation
// beyond the roof), so the admission gate should refuse it, not admit it.
//
// Where the gate calls it (core/search/gate.cpp, owned by the search): after the calibrated
// TTFT and TPOT of a configuration are known and before it is admitted, once per full gate:
//     if (auto why = belowSpeedOfLight(ttft, tpot, speedOfLightFloor(...)); !why.empty())
//         -> refused (or a LoadError naming the FMC / utilisation file that produced it).
// Its cost is one more latency estimate per configuration (microseconds).
#pragma once

#include "core/latency/opmodel.h"
#include "core/model/config.h"
#include "core/model/modelarch.h"
#include "core/model/platform.h"

#include <string>
#include <vector>

namespace acsel
{

// formats: the GEMM formats the stack runs (as SolOpCosts).
LatencyEstimate speedOfLightFloor(const Platform& platform, const std::vector<Format>& formats,
                                  const ModelArch& arch, const Config& config,
                                  const Request& request);

// Empty when TTFT is finite and positive, TPOT finite and positive (or 0 for osl 1), and
// both at least the floor (to a relative 1e-9); otherwise what is wrong, in one line.
std::string belowSpeedOfLight(double ttftMs, double tpotMs, const LatencyEstimate& floor);

} // namespace acsel
