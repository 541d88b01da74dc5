#include "app/cli/workspaceargs.h"

#include "app/common/paths.h"
#include "core/data/loaderror.h"
#include "core/data/workspacefile.h"

namespace acsel::cli
{

std::vector<app::OptionSpec> workspaceOptions()
{
    return {{"workspace", "FILE", "workspace JSON (default: the bundled datasets/workspace.json)"},
            {"tables", "DIR", "operator tables directory (default: $ACSEL_TABLES, ../shared/aic)"}};
}

std::string modelNames(const Workspace& ws)
{
    std::string names;
    for (const ModelArch& m : ws.models)
        names += (names.empty() ? "" : ", ") + m.name;
    return names;
}

const Stack& stackOf(const Workspace& ws, const std::string& id, const std::string& file)
{
    const auto i = ws.findStack(id);
    if (!i)
        throw LoadError(file, "/stack",
                        "unknown stack '" + id + "' (acsel info lists the workspace's stacks)");
    return ws.stacks[static_cast<std::size_t>(*i)];
}

Workspace loadWorkspaceFromArgs(const app::Args& args)
{
    const std::string wsPath = app::resolveWorkspacePath(args.valueOr("workspace", ""));
    if (wsPath.empty())
        throw LoadError("workspace.json", "",
                        "no workspace found: pass --workspace FILE or set "
                        "ACSEL_WORKSPACE");
    const app::TablesChoice tables = app::resolveTablesDir(args.valueOr("tables", ""));
    Workspace ws = [&] {
        try {
            return loadWorkspace(wsPath, tables.dir);
        } catch (const LoadError& e) {
            // The folder itself is no tables folder: name the variable or setting that chose it
            // (--tables names itself).
            if (e.file() != tables.dir || !e.where().empty() || tables.origin == "--tables")
                throw;
            throw LoadError(tables.dir, "",
                            tables.origin + ": " + e.message() + "; " + tables.origin +
                                " must name a tables folder, or be " + app::kNoTables +
                                " to run without tables");
        }
    }();
    if (!tables.dir.empty())
        ws.notes.push_back("Operator tables from " + tables.dir + " (" + tables.origin + ")");
    else if (!tables.origin.empty())
        ws.notes.push_back(tables.origin + ": running without operator tables");
    else
        ws.notes.push_back("no operator tables found (no --tables, no ACSEL_TABLES, no "
                           "../shared/aic): running without operator tables");
    return ws;
}

} // namespace acsel::cli
