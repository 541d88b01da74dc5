#include "core/latency/opcostsfactory.h"

#include "core/data/loaderror.h"
#include "core/latency/empiricalopcosts.h"
#include "core/latency/tableopcosts.h"

namespace acsel
{

std::unique_ptr<OpCosts> makeOpCosts(const Workspace& ws, const Stack& stack,
                                     const UtilisationModel* utilisation)
{
    const Platform& platform = ws.platformOf(stack);
    if (stack.source == LatencySource::Tables)
        return std::make_unique<TableOpCosts>(TableOpCosts::load(stack, platform));
    if (!utilisation)
        throw LoadError(stack.id, "",
                        "stack has no operator tables and no utilisation model "
                        "was loaded (expected datasets/utilisation.json)");
    return std::make_unique<EmpiricalOpCosts>(platform, stack.formats, stack.backend, *utilisation);
}

} // namespace acsel
