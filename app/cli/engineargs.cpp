#include "app/cli/engineargs.h"

#include "app/cli/workspaceargs.h"
#include "core/latency/fmcfile.h"
#include "core/search/confidencegate.h"

#include <iostream>
#include <sstream>

namespace acsel::cli
{

void warnFmcStacksOutside(const FmcSet& set, const Workspace& ws, const std::string& file,
                          std::ostream& warnings)
{
    for (const std::string& s : fmcStacksOutside(set, ws, file))
        warnings << "warning: " << file << ": stack '" << s
                 << "' is not in the workspace: its lines are ignored\n";
}

std::vector<app::OptionSpec> engineOptions()
{
    auto specs = workspaceOptions();
    specs.push_back({"fmc", "FILE", "FMC coefficients (acsel calibrate); default: none (raw)"});
    specs.push_back({"confidence", "P",
                     "gate TTFT and TPOT at the P-quantile of the calibrated prediction "
                     "(probability >= P of meeting the limits; needs --fmc; default 0.5, "
                     "the median line)"});
    specs.push_back({"surrogate", "FILE",
                     "quality surrogate JSON; default: fitted on the workspace's quality set"});
    return specs;
}

std::unique_ptr<WorkspaceEngine> loadEngineFromArgs(const app::Args& args, std::ostream* warnings)
{
    EngineSources sources;
    sources.fmcFile = args.valueOr("fmc", "");
    sources.surrogateFile = args.valueOr("surrogate", "");
    const double p = args.number("confidence", 0.5, 0.01, 0.99);
    if (p != 0.5 && sources.fmcFile.empty())
        throw app::UsageError("--confidence " + args.valueOr("confidence", "") +
                              ": needs --fmc (without a calibration there is no predictive "
                              "interval)");
    Workspace ws = loadWorkspaceFromArgs(args);
    if (!sources.fmcFile.empty())
        warnFmcStacksOutside(loadFmcFile(sources.fmcFile), ws, sources.fmcFile,
                             warnings ? *warnings : std::cerr);
    auto engine = std::make_unique<WorkspaceEngine>(std::move(ws), sources);
    // The FMC lines shifted to the confidence-quantile (core/search/confidencegate.h); a stack
    // whose file entry has no spread keeps its median line, said on the warnings.
    if (p == kNoConfidence)
        return engine;
    std::ostream& warn = warnings ? *warnings : std::cerr;
    for (const std::string& stack : applyConfidence(*engine, loadFmcFile(sources.fmcFile), p))
        warn << "warning: --confidence " << p << ": " << stack << " in " << sources.fmcFile
             << " has no predictive spread (fewer than 3 profiles, or a file written before "
                "intervals): its median line is used\n";
    return engine;
}

} // namespace acsel::cli
