// acsel launch: the engine launch settings (vLLM, SGLang, TensorRT-LLM) serving the exported
// checkpoint of a configuration at its request's workload, as a commented shell script.
#include "app/cli/command.h"
#include "app/cli/loadtableargs.h"
#include "app/cli/workspaceargs.h"
#include "core/data/configjson.h"
#include "core/export/exporter.h"
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
    specs.push_back(
        {"engine", "NAME",
         backendNames() + " or all (default: the backend of the configuration's stack)"});
    specs.push_back(
        {"checkpoint", "DIR",
         "the checkpoint to serve (default: the folder acsel export names, <model>-acsel; the "
         "base model's Hugging Face id when no weight is quantized)"});
    for (app::OptionSpec& o : loadTableOptions())
        specs.push_back(std::move(o));
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
    if (engines.size() > 1 && args.value("engine-release"))
        throw app::UsageError("acsel launch: --engine-release names one engine's release: pass "
                              "--engine too");
    const ExportInput in{arch, doc.config, doc.request, doc.predictions, doc.predictionNote};
    const Stack& stack = stackOf(ws, doc.request.stack, configPath);
    try {
        requireExportable(in, &stack);
    } catch (const ExportError& e) {
        io.err << "acsel launch: " << configPath << ": " << e.what() << "\n";
        return 2;
    }
    const std::string dir = args.valueOr("checkpoint", servedModel(in));
    const Platform& gpu = ws.platformOf(stack);
    const LoaderTable table = loadTableFromArgs(args, ws, io.err);
    bool loads = true;
    for (Backend e : engines)
        loads = reportLoadCheck(table, e, engineRelease(args, e), in, gpu, "launch", configPath,
                                io.err) &&
                loads;
    if (!loads)
        return 2;
    std::vector<LaunchSettings> settings;
    for (Backend e : engines) {
        settings.push_back(launchSettings(e, in, gpu, dir));
        if (const std::string problem = engineMemoryProblem(settings.back().memory);
            !problem.empty()) {
            io.err << "acsel launch: " << configPath << ": memory: " << problem << "\n";
            return 2;
        }
    }
    for (std::size_t i = 0; i < settings.size(); ++i)
        io.out << (i ? "\n" : "") << launchScript(settings[i], in);
    return 0;
}

const RegisterCommand reg("launch",
                          "vLLM / SGLang / TensorRT-LLM launch settings serving a configuration's "
                          "exported checkpoint at its workload",
                          &run);

} // namespace
} // namespace acsel::cli
