#include "widgets/explorertypes.h"

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

} // namespace acsel::gui
