#include "app/cli/fmcmodewarning.h"

namespace acsel::cli
{

std::string fmcModeWarning(std::string_view stack, std::string_view fittedMode, ServingMode used,
                           std::string_view usedBy)
{
    const std::string_view mode = toString(used);
    if (fittedMode == mode)
        return {};
    std::string w = "warning: the FMC line of ";
    w.append(stack).append(" was fitted on the ").append(fittedMode);
    w.append(" serving model, ").append(usedBy).append(" uses the ").append(mode);
    w.append(" one: its calibrated latencies correct the wrong estimate (refit with acsel "
             "calibrate --mode ");
    w.append(mode).append(")\n");
    return w;
}

} // namespace acsel::cli
