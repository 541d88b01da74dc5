#include "viewmodel/explorertypes.h"

namespace acsel::gui
{

const char* toDisplayString(SearchAlgorithm a)
{
    return names(a).label.data(); // the table's literals end in a NUL
}

} // namespace acsel::gui
