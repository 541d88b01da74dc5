// What the simulated campaign assumes beyond the real silicon rows: no public
// measurement has band boundaries or reports the memory the engines add to the prediction, so
// these effects are ASSUMPTIONS, each with its value, unit and source; `acsel eval` prints
// them and docs/EVALUATION.md lists them with the sensitivity flags.
#pragma once

#include "core/model/platform.h"

#include <string>
#include <vector>

namespace acsel
{

struct BandEffects {
    double boundaryCostMs = 0;     // per band boundary per engine step
    double formatSwitchCostMs = 0; // per boundary between two different GEMM formats per step
};

struct MemoryEffect {
    double overheadBytes = 0; // median engine memory the prediction leaves out
    double sigma = 0;         // lognormal spread of it across configurations
};

struct CampaignAssumption {
    std::string name, value, source;
};

BandEffects assumedBandEffects(const Stack& s);
MemoryEffect assumedMemoryEffect(const Stack& s);
// The assumptions above for one stack, for the report.
std::vector<CampaignAssumption> campaignAssumptions(const Stack& s);

} // namespace acsel
