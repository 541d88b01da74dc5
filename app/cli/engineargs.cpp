#include "app/cli/engineargs.h"

#include "app/cli/workspaceargs.h"

namespace acsel::cli
{

std::vector<app::OptionSpec> engineOptions()
{
    auto specs = workspaceOptions();
    specs.push_back({"fmc", "FILE", "FMC coefficients (acsel calibrate); default: none (raw)"});
    specs.push_back({"surrogate", "FILE",
                     "quality surrogate JSON; default: fitted on the workspace's quality set"});
    return specs;
}

std::unique_ptr<WorkspaceEngine> loadEngineFromArgs(const app::Args& args)
{
    EngineSources sources;
    sources.fmcFile = args.valueOr("fmc", "");
    sources.surrogateFile = args.valueOr("surrogate", "");
    return std::make_unique<WorkspaceEngine>(loadWorkspaceFromArgs(args), sources);
}

} // namespace acsel::cli
