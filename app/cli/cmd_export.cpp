// acsel export: writes a chosen configuration (config.json, what `acsel search --json`
// prints) as a ModelOpt PTQ recipe (YAML), a legacy ModelOpt quant_cfg (JSON) or a preview of
// the hf_quant_config.json the exported checkpoint will carry. Refuses configurations that
// are not exportable, and one whose own predictions the gate rejects unless --allow-rejected
// (then its header says so); writes atomically and never overwrites without --force.
#include "app/cli/command.h"
#include "app/cli/loadtableargs.h"
#include "app/cli/outputfile.h"
#include "app/cli/workspaceargs.h"
#include "core/data/configjson.h"
#include "core/data/loaderror.h"
#include "core/export/exporter.h"
#include "core/export/launch.h"
#include "core/search/gate.h"

#include <limits>
#include <ostream>

namespace acsel::cli
{
namespace
{

std::string formatList()
{
    std::string out;
    for (ExportFormat f : kAllExportFormats)
        out += (out.empty() ? "" : ", ") + std::string(toString(f));
    return out;
}

int run(const std::vector<std::string>& argvIn, CommandIo& io)
{
    const std::vector<std::string> argv = expandOutputShortOption(argvIn);
    auto specs = workspaceOptions();
    specs.push_back({"config", "FILE", "configuration JSON (what acsel search --json prints)"});
    specs.push_back({"as", "FORMAT", formatList()});
    specs.push_back({"output", "FILE", "file to write (also -o; '-' for standard output)"});
    specs.push_back({"force", "", "overwrite an existing output file"});
    specs.push_back({"allow-rejected", "",
                     "export a configuration whose predictions the gate rejects at its request; "
                     "the file's header then says so"});
    for (app::OptionSpec& o : loadTableOptions())
        specs.push_back(std::move(o));
    const app::Args args("export", argv, specs);
    if (args.helpRequested()) {
        io.out << args.usage();
        return 0;
    }
    const std::string configPath = args.require("config");
    const std::string asName = args.require("as");
    const auto format = parseExportFormat(asName);
    if (!format)
        throw app::UsageError("acsel export: --as " + asName + " is not a format (expected " +
                              formatList() + ")");
    const std::string output = args.require("output");

    ConfigDocument doc = loadConfigJson(configPath);
    const Workspace ws = loadWorkspaceFromArgs(args);
    resolveModel(doc, ws, configPath);
    const Stack* stack = nullptr;
    if (const auto s = ws.findStack(doc.request.stack)) {
        stack = &ws.stacks[static_cast<std::size_t>(*s)];
    } else if (!ws.stacks.empty()) {
        std::string known;
        for (const Stack& st : ws.stacks)
            known += (known.empty() ? "" : ", ") + st.id;
        throw LoadError(configPath, "/stack",
                        "unknown stack '" + doc.request.stack + "' (the workspace has: " + known +
                            ")");
    } else {
        io.err << "acsel export: note: no operator tables loaded, so the formats are not checked "
                  "against stack "
               << doc.request.stack << "\n";
    }

    const ModelArch& arch = ws.models[static_cast<std::size_t>(doc.config.model)];
    // The document's own predictions against its request, as the gate compares them: a
    // rejected configuration is exported only when asked for, and then says so (as the
    // window does after its question).
    std::string predictionNote = doc.predictionNote;
    if (doc.predictions) {
        const double capacity =
            stack ? ws.platformOf(*stack).memCapacityBytes : std::numeric_limits<double>::max();
        if (const std::string why = budgetProblem(*doc.predictions, doc.request, capacity);
            !why.empty()) {
            if (!args.flag("allow-rejected")) {
                io.err << "acsel export: " << configPath << ": the gate rejects it at its request ("
                       << why << "); --allow-rejected exports it with the rejection in the file\n";
                return 2;
            }
            predictionNote = rejectedNote(why, predictionNote);
            io.err << "acsel export: warning: " << configPath << ": the gate rejects it (" << why
                   << "): the file's header says so\n";
        }
    }
    const ExportInput in{arch, doc.config, doc.request, doc.predictions, predictionNote};
    std::string text;
    try {
        text = exportText(*format, in, stack);
    } catch (const ExportError& e) {
        io.err << "acsel export: " << configPath << ": " << e.what() << "\n";
        return 2;
    }
    // A stack's backend outside the known engines has no launch template and no table entry.
    const auto engine = stack ? parseBackend(stack->backend) : std::nullopt;
    const LoaderTable loaders = engine ? loadTableFromArgs(args, ws, io.err) : LoaderTable{};
    const auto loadCheck = [&](LoadReport what) {
        return !engine ||
               reportLoadCheck(loaders, *engine, engineRelease(args, *engine), in,
                               ws.platformOf(*stack), "export", configPath, io.err, what);
    };
    if (!loadCheck(LoadReport::Refusals))
        return 2;
    writeOutput("export", output, text, args.flag("force"), io);
    loadCheck(LoadReport::Notes);
    // On stderr, so that `-o -` keeps the file's text alone on stdout.
    if (const std::string note = nothingQuantizedNote(doc.config, arch.layers); !note.empty())
        io.err << "acsel export: note: " << note << "\n";
    if (isStandardOutput(output))
        return 0;
    io.out << "wrote " << output << " (" << toString(*format) << ") for " << arch.name << ": "
           << doc.config.recipe.describe(arch.isMoe()) << "\n";
    return 0;
}

const RegisterCommand reg("export",
                          "write a configuration as a ModelOpt recipe (YAML/JSON) or an "
                          "hf_quant_config.json preview",
                          &run);

} // namespace
} // namespace acsel::cli
