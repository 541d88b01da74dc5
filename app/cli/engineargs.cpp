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
    const double p = args.number("confidence", kNoConfidence, 0.01, 0.99);
    if (p != kNoConfidence && sources.fmcFile.empty())
        throw app::UsageError("--confidence " + args.valueOr("confidence", "") +
                              ": needs --fmc (without a calibration there is no predictive "
                              "interval)");
    Workspace ws = loadWorkspaceFromArgs(args);
    if (!sources.fmcFile.empty())
        warnFmcStacksOutside(loadFmcFile(sources.fmcFile), ws, sources.fmcFile,
                             warnings ? *warnings : std::cerr);
    return std::make_unique<WorkspaceEngine>(std::move(ws), sources);
}

void applyConfidence(const app::Args& args, WorkspaceEngine& engine, const Request& q,
                     std::ostream* warnings)
{
    const double p = args.number("confidence", kNoConfidence, 0.01, 0.99);
    if (p == kNoConfidence)
        return;
    const std::string fmcFile = args.valueOr("fmc", "");
    std::ostream& warn = warnings ? *warnings : std::cerr;
    for (const std::string& stack : acsel::applyConfidence(engine, loadFmcFile(fmcFile), p, q))
        warn << "warning: --confidence " << p << ": " << stack << " in " << fmcFile
             << " has no predictive spread (fewer than 3 profiles, or a file written before "
                "intervals): its median line is used\n";
}

} // namespace acsel::cli
