#include "widgets/explorertypes.h"

#include "widgets/plotdata.h"

namespace acsel::gui
{

const char* toDisplayString(SearchAlgorithm a)
{
    switch (a) {
    case SearchAlgorithm::BandPareto:
        return "BandPareto";
    case SearchAlgorithm::Exact:
        return "Exact";
    case SearchAlgorithm::HillClimb:
        return "Hill climbing";
    case SearchAlgorithm::Random:
        return "Random";
    }
    return "?";
}

Format formatFamily(const BandRecipe& r)
{
    Format lowest = Format::Bf16;
    for (const Band& b : r)
        if (facts(b.format).bits < facts(lowest).bits ||
            (facts(b.format).bits == facts(lowest).bits && b.format < lowest))
            lowest = b.format;
    return lowest;
}

} // namespace acsel::gui
