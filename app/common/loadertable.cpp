#include "app/common/loadertable.h"

#include "app/common/paths.h"

#include <filesystem>

namespace acsel::app
{

LoaderTable shippedLoaderTable(const Workspace& ws)
{
    namespace fs = std::filesystem;
    std::string file = (fs::path(ws.file).parent_path() / "engine_loaders.json").string();
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        file = bundledDatasetsFile("engine_loaders.json");
    return file.empty() ? LoaderTable{} : loadLoaderTable(file);
}

std::vector<std::string> loadCheckLines(const LoadCheck& check, Backend engine)
{
    std::vector<std::string> out;
    if (!check.entry)
        out.push_back("note: the load-compatibility table has no entry for " +
                      std::string(toString(engine)) + " " + check.release +
                      " or older: whether it loads the checkpoint is not checked");
    for (const LoadFinding& f : check.findings)
        out.push_back((f.refused ? "will not load: " : "note: ") + f.message);
    return out;
}

} // namespace acsel::app
