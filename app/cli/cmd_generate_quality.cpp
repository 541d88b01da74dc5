// acsel generate quality: writes the SYNTHETIC demo quality measurement set (seeded, documented,
// monotone in bits) for the workspace's models, as JSON or, for a .csv name, as CSV whose
// provenance lines mark it synthetic (docs/FORMATS.md 7).
#include "app/cli/command.h"
#include "app/cli/outputfile.h"
#include "app/cli/workspaceargs.h"
#include "app/common/paths.h"
#include "core/data/workspacefile.h"
#include "core/quality/demoquality.h"

#include <algorithm>
#include <ostream>
#include <stdexcept>

namespace acsel::cli
{
namespace
{

constexpr const char* kName = "generate quality";

int run(const std::vector<std::string>& argvIn, CommandIo& io)
{
    const std::vector<std::string> argv = expandOutputShortOption(argvIn);
    std::vector<app::OptionSpec> specs{workspaceOptions().front()}; // quality needs no tables
    specs.push_back({"output", "FILE",
                     "where to write the quality set (JSON; CSV for a .csv name; - for stdout)"});
    specs.push_back({"seed", "N", "generator seed (default 2611)"});
    specs.push_back(
        {"train-rows", "N", "rows in the training split (default 226, as in the paper)"});
    specs.push_back({"bands-per-model", "N", "random 2-3 band recipes per model (default 56)"});
    specs.push_back({"force", "", "overwrite an existing file"});
    const app::Args args("generate quality", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string out = args.require("output");
    checkOutputPath(kName, out, args.flag("force"));
    DemoQualityOptions opt;
    opt.seed = static_cast<std::uint64_t>(args.integer("seed", 2611, 0, 2147483647));
    opt.trainRows = args.integer("train-rows", opt.trainRows, 1, 1000000);
    opt.bandConfigsPerModel = args.integer("bands-per-model", opt.bandConfigsPerModel, 0, 100000);
    // Quality is hardware independent: the models are needed, the operator tables are not.
    const std::string wsPath = app::resolveWorkspacePath(args.valueOr("workspace", ""));
    if (wsPath.empty())
        throw app::UsageError("acsel " + std::string(kName) +
                              ": no workspace found: pass --workspace FILE");
    const Workspace ws = loadWorkspace(wsPath, "");
    const std::string command = "acsel generate quality --seed " + std::to_string(opt.seed) +
                                " --train-rows " + std::to_string(opt.trainRows) +
                                " --bands-per-model " + std::to_string(opt.bandConfigsPerModel);
    QualitySet set;
    try {
        set = generateDemoQualitySet(ws.models, opt, command);
    } catch (const std::invalid_argument& e) { // e.g. --train-rows leaves no held-out row
        throw app::UsageError(std::string("acsel generate quality: ") + e.what());
    }
    writeOutput(kName, out, qualitySetText(set, ws.models, out), args.flag("force"), io);
    // The generator models dense decoders only: the MoE models get no rows.
    const auto dense = std::count_if(ws.models.begin(), ws.models.end(),
                                     [](const ModelArch& m) { return !m.isMoe(); });
    summaryStream(out, io) << "wrote " << set.rows.size() << " SYNTHETIC quality rows ("
                           << opt.trainRows << " training) for " << dense << " models to "
                           << (isStandardOutput(out) ? "stdout" : out) << "\n";
    return 0;
}

const RegisterCommand reg("generate quality",
                          "write the synthetic demo RMQD measurement set (seeded)", &run);

} // namespace
} // namespace acsel::cli
