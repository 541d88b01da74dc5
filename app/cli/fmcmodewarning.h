// The warning of search and predict when a stack's FMC line was fitted on another serving model
// than the estimates it calibrates: its calibrated latencies then correct the wrong estimate.
#pragma once

#include "core/model/config.h"

#include <string>
#include <string_view>

namespace acsel::cli
{

// "warning: the FMC line of <stack> was fitted on the <fitted> serving model, <usedBy> uses the
// <used> one: ..." with a newline; empty when the modes match.
std::string fmcModeWarning(std::string_view stack, std::string_view fittedMode, ServingMode used,
                           std::string_view usedBy);

} // namespace acsel::cli
