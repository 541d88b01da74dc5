// acsel launch: the engine launch settings (vLLM, SGLang, TensorRT-LLM) serving the exported
// checkpoint of a configuration at its request's workload, as a commented shell script.
#include "app/cli/command.h"
#include "app/cli/workspaceargs.h"
#include "core/data/configjson.h"
#include "core/export/launch.h"
#include "core/latency/servingmodel.h"

#include <ostream>

namespace acsel::cli
{
namespace
{

int run(const std::vector<std::string>& argv, CommandIo& io)
{
    auto specs = workspaceOptions();
    specs.push_back({"config", "FILE", "configuration JSON (what acsel search --json prints)"});
    specs.push_back({"engine", "NAME",
                     backendNames() + " or all (default: the backend of the configuration's stack)"});
    specs.push_back(
        {"checkpoint", "DIR",
         "the exported checkpoint (default: <model>-acsel, as docs/EXPORT.md exports)"});
    const app::Args args("launch", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string configPath = args.require("config");
    ConfigDocument doc = loadConfigJson(configPath);
    const Workspace ws = loadWorkspaceFromArgs(args);
    resolveModel(doc, ws, configPath);
    const ModelArch& arch = ws.models[static_cast<std::size_t>(doc.config.model)];
    const std::string engineName =
        args.valueOr("engine", std::string(backendOf(doc.request.stack)));
    std::vector<Backend> engines;
    if (engineName == "all")
        for (const BackendInfo& b : kBackends)
            engines.push_back(b.backend);
    else if (const auto e = parseBackend(engineName))
        engines.push_back(*e);
    else
        throw app::UsageError("acsel launch: --engine " + engineName + ": expected " +
                              backendNames() + " or all");
    const std::string dir = args.valueOr("checkpoint", arch.name + "-acsel");
    const ExportInput in{arch, doc.config, doc.request, doc.predictions};
    const Platform& gpu = ws.platformOf(stackOf(ws, doc.request.stack, configPath));
    for (std::size_t i = 0; i < engines.size(); ++i)
        io.out << (i ? "\n" : "") << launchScript(launchSettings(engines[i], in, gpu, dir), in);
    return 0;
}

const RegisterCommand reg("launch",
                          "vLLM / SGLang / TensorRT-LLM launch settings serving a configuration's "
                          "exported checkpoint at its workload",
                          &run);

} // namespace
} // namespace acsel::cli
