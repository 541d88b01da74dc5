#include "core/model/platform.h"

#include <algorithm>

namespace acsel
{

bool Stack::hasFormat(Format f) const
{
    return std::find(formats.begin(), formats.end(), f) != formats.end();
}

} // namespace acsel
