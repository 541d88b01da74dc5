// acsel recommend: the headless main job. The default searcher on the workspace's default request
// (requests/default.json beside the workspace file), printed with its uniform comparison.
#include "app/cli/engineargs.h"
#include "app/cli/searchcommand.h"
#include "core/search/searchalgorithm.h"

#include <filesystem>
#include <nlohmann/json.hpp>

namespace acsel::cli
{
namespace
{

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = engineOptions();
    specs.push_back({"algo", "NAME",
                     searchAlgorithmChoices() +
                         " (default: " + std::string(kDefaultSearchAlgorithmName) + ")"});
    specs.push_back(
        {"top", "N", "also print the N best distinct alternatives (default 0; 4 with --save-dir)"});
    specs.push_back({"json", "", "print the configuration JSON that acsel export reads"});
    addSizingOption(specs);
    addMarginOption(specs);
    addResultsFolderOptions(specs);
    const app::Args args("recommend", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const auto engine = loadEngineFromArgs(args);
    const Workspace& ws = engine->workspace();
    const std::string request =
        (std::filesystem::path(ws.file).parent_path() / "requests" / "default.json").string();
    SearchRun r;
    readRequestFile(request, ws, r);
    applyConfidence(args, *engine, r.request);
    r.algorithm = args.valueOr("algo", "");
    readMarginOption(args, r);
    readResultsFolderOptions(args, r);
    r.byGpus = args.flag("by-gpus");
    r.json = args.flag("json");
    if (!r.json) {
        for (const std::string& note : ws.notes)
            io.out << "note: " << note << "\n";
        io.out << "default request: " << request << "\n";
    }
    return runSearchAndPrint(*engine, r, io);
}

const RegisterCommand
    reg("recommend", "the recommended configuration for the workspace's default request", &run);

} // namespace
} // namespace acsel::cli
