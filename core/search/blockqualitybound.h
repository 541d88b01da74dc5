// A lower bound of the predicted RMQD of every recipe of a block of ConfigSpace::forEachRecipe
// (`first`, then its last two bands' boundary moved up layer by layer), in O(bands) per
// algorithm: the budget index's walks skip a block whose bound is above the RMQD they keep.
// A recipe's log RMQD is the surrogate's constant plus each band's per-layer terms
// (predictRecipeLog); in a block the bands before the last two are fixed, and each layer from
// the last two's first layer on takes one of their two choices, so its term is at least the
// lower of the two: their sum from that layer on is tabulated per pair of choices, and the
// lowest over the algorithms is taken (bestQuality takes the lowest of those that fit).
#pragma once

#include "core/search/fracmixtable.h"

#include <array>
#include <vector>

namespace acsel
{

class BlockQualityBound
{
public:
    explicit BlockQualityBound(const FracMixTable& table);

    // No higher than FracMixTable::bestQuality's RMQD of any recipe of the block (0 where a
    // term is not a number: no bound).
    double lowest(int context, const BandRecipe& first) const;

private:
    // One per quality group (its contexts share every term): per algorithm and ordered pair
    // of band choices (i, j), lowerSuffix[((a * n + i) * n + j) * (layers + 1) + l] sums over
    // the layers from l on the lower of i's and j's terms.
    struct Group {
        int layers = 0, choices = 0;
        std::array<int, kChoiceSlots> choiceOfSlot{};
        std::array<const SurrogateTerms*, kAlgorithmCount> terms{};
        std::vector<double> lowerSuffix;
    };
    std::vector<Group> groups_;
    std::vector<int> groupOfContext_;
};

} // namespace acsel
