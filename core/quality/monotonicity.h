// Does the fitted surrogate ever predict better quality after a band moves to fewer bits?
//
// A move changes one band's format, so its effect on the predicted log(RMQD) is
//   sum over the band's layers of term(l, new format, scope) - term(l, old format, scope),
// whatever the other bands, the algorithm or the exclusions are (those add the same constant to
// both sides). Checking every (model, band interval [b, e), scope, old -> new format) therefore
// covers every move in every recipe of the configuration space exactly, at O(L^2) per model.
// With w >= 0 on the bit-deficit features the bit part of a move never lowers the prediction;
// a drop comes from the other codes that change with the format (granularity, and the scope code
// when a bf16 band becomes quantized) outweighing it.
#pragma once

#include "core/quality/ridgesurrogate.h"

#include <cstdint>
#include <vector>

namespace acsel
{

struct MoveStats {
    Format from = Format::Bf16;
    Format to = Format::Bf16;
    std::int64_t moves = 0;
    std::int64_t drops = 0;
    double worstRatio = 1.0; // smallest predicted RMQD(after) / RMQD(before)
};

struct SurrogateMonotonicity {
    std::int64_t moves = 0;
    std::int64_t drops = 0;
    std::vector<MoveStats> byPair; // every (from, to) with fewer bits, in ladder order
};

SurrogateMonotonicity checkMonotonicity(const RidgeSurrogate& surrogate,
                                        const std::vector<ModelArch>& models);

} // namespace acsel
