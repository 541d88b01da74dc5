// acsel export: writes a chosen configuration (config.json, what `acsel search --json`
// prints) as a ModelOpt PTQ recipe (YAML), a legacy ModelOpt quant_cfg (JSON) or a preview of
// the hf_quant_config.json the exported checkpoint will carry. Refuses configurations that
// are not exportable, writes atomically and never overwrites without --force.
#include "app/cli/command.h"
#include "app/cli/workspaceargs.h"
#include "core/data/configjson.h"
#include "core/data/loaderror.h"
#include "core/export/exporter.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sys/stat.h>
#include <unistd.h>

namespace acsel::cli
{
namespace
{

namespace fs = std::filesystem;

std::string formatList()
{
    std::string out;
    for (ExportFormat f : kAllExportFormats)
        out += (out.empty() ? "" : ", ") + std::string(toString(f));
    return out;
}

// Writes next to the target and renames over it, so a reader never sees a half-written file.
void writeAtomically(const std::string& target, const std::string& text, bool force)
{
    const fs::path out(target);
    const fs::path dir = out.has_parent_path() ? out.parent_path() : fs::path(".");
    if (!fs::is_directory(dir))
        throw app::UsageError("acsel export: folder " + dir.string() + " does not exist");
    if (fs::exists(out) && !force)
        throw app::UsageError("acsel export: " + target + " exists; pass --force to overwrite it");
    if (fs::is_directory(out))
        throw app::UsageError("acsel export: " + target + " is a folder");
    std::string tmp = (dir / ("." + out.filename().string() + ".tmp-XXXXXX")).string();
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        throw app::UsageError("acsel export: cannot create a file in " + dir.string());
    ::close(fd);
    std::error_code ec;
    // mkstemp creates 0600; give the file the permissions a plain write would have had.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    fs::permissions(
        tmp, fs::exists(out) ? fs::status(out).permissions() : static_cast<fs::perms>(0666 & ~mask),
        ec);
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f << text;
        f.flush();
        if (!f) {
            fs::remove(tmp, ec);
            throw app::UsageError("acsel export: cannot write " + tmp);
        }
    }
    fs::rename(tmp, out, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw app::UsageError("acsel export: cannot rename the temporary file to " + target);
    }
}

int run(const std::vector<std::string>& argvIn, CommandIo& io)
{
    // The issue spells the output option "-o"; the shared parser knows long options only.
    std::vector<std::string> argv = argvIn;
    for (std::string& a : argv)
        if (a == "-o")
            a = "--output";
    auto specs = workspaceOptions();
    specs.push_back({"config", "FILE", "configuration JSON (what acsel search --json prints)"});
    specs.push_back({"as", "FORMAT", formatList()});
    specs.push_back({"output", "FILE", "file to write (also -o; '-' for standard output)"});
    specs.push_back({"force", "", "overwrite an existing output file"});
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
    const ExportInput in{arch, doc.config, doc.request, doc.predictions};
    std::string text;
    try {
        text = exportText(*format, in, stack);
    } catch (const ExportError& e) {
        io.err << "acsel export: " << configPath << ": " << e.what() << "\n";
        return 2;
    }
    if (output == "-") {
        io.out << text;
        return 0;
    }
    writeAtomically(output, text, args.flag("force"));
    io.out << "wrote " << output << " (" << toString(*format) << ") for " << arch.name << ": "
           << doc.config.recipe.describe() << "\n";
    return 0;
}

const RegisterCommand reg("export",
                          "write a configuration as a ModelOpt recipe (YAML/JSON) or an "
                          "hf_quant_config.json preview",
                          &run);

} // namespace
} // namespace acsel::cli
