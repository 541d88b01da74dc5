// A soft-scored candidate of one search context, kept compact for large spaces.
#pragma once

#include "core/model/bandrecipe.h"

#include <cstdint>

namespace acsel
{

struct ScoredCandidate {
    BandRecipe recipe;
    double rmqd = 0;
    double normLatency = 0;
    std::int32_t context = 0;
    Algorithm algorithm = Algorithm::Max;
};

} // namespace acsel
