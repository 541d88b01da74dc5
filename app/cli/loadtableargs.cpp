#include "app/cli/loadtableargs.h"

#include "app/common/loadertable.h"

namespace acsel::cli
{

std::vector<app::OptionSpec> loadTableOptions()
{
    return {{"engine-release", "VER",
             "the engine release to check loading against (default: the release the launch "
             "command is written for)"},
            {"loaders", "FILE",
             "load-compatibility entries added to the shipped datasets/engine_loaders.json"}};
}

LoaderTable loadTableFromArgs(const app::Args& args, const Workspace& ws, std::ostream& err)
{
    LoaderTable table = app::shippedLoaderTable(ws);
    if (const std::string more = args.valueOr("loaders", ""); !more.empty())
        table.extend(loadLoaderTable(more));
    else if (table.entries.empty())
        err << "note: no load-compatibility table (no datasets/engine_loaders.json found and no "
               "--loaders): whether the engine loads the checkpoint is not checked\n";
    return table;
}

std::string engineRelease(const app::Args& args, Backend engine)
{
    return args.valueOr("engine-release", std::string(info(engine).templateVersion));
}

bool reportLoadCheck(const LoaderTable& table, Backend engine, const std::string& release,
                     const ExportInput& in, const Platform& gpu, const std::string& command,
                     const std::string& configPath, std::ostream& err, LoadReport what)
{
    if (table.entries.empty())
        return true;
    const LoadCheck check = checkLoad(table, engine, release, in, gpu);
    const std::string prefix = "acsel " + command + ": ";
    const bool refusals = what != LoadReport::Notes;
    const bool notes = what != LoadReport::Refusals;
    if (!check.entry && notes)
        err << prefix << "note: the load-compatibility table has no entry for " << toString(engine)
            << " " << release << " or older: whether it loads the checkpoint is not checked\n";
    for (const LoadFinding& f : check.findings)
        if (f.refused ? refusals : notes)
            err << prefix << (f.refused ? configPath + ": will not load: " : "note: ") << f.message
                << "\n";
    return !check.refused();
}

} // namespace acsel::cli
