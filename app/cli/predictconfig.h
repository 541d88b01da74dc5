// acsel predict --config FILE: the predictions, breakdowns, throughput and gate verdict of one
// configuration file (what acsel search --json prints, or hand-written), as the GUI's band
// editor shows them. A mode of acsel predict, dispatched before its options are parsed.
#pragma once

#include "app/cli/command.h"

#include <string>
#include <vector>

namespace acsel::cli
{

// Whether the arguments ask for this mode (--config FILE or --config=FILE).
bool asksForConfigPrediction(const std::vector<std::string>& argv);
int runPredictConfig(const std::vector<std::string>& argv, CommandIo& io);

} // namespace acsel::cli
