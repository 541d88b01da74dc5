#include "viewmodel/explorertypes.h"

namespace acsel::gui
{

const char* toDisplayString(SearchAlgorithm a)
{
    return a.info().label.c_str();
}

} // namespace acsel::gui
