#include "core/latency/requestoverhead.h"

namespace acsel
{

double requestOverheadMs(const Workspace& ws, std::string_view stack,
                         std::string_view engineVersion)
{
    if (engineVersion.empty())
        return 0.0;
    for (const RequestOverhead& o : ws.requestOverheads)
        if (o.stack == stack && o.release == engineVersion)
            return o.ms;
    return 0.0;
}

} // namespace acsel
