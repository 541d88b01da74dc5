#include "viewmodel/plotdata.h"

namespace acsel::gui
{

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
