#include "app/common/paths.h"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace acsel::app
{
namespace
{

std::string env(const char* name)
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

bool isDir(const fs::path& p)
{
    std::error_code ec;
    return fs::is_directory(p, ec);
}

} // namespace

std::string resolveWorkspacePath(const std::string& explicitPath)
{
    if (!explicitPath.empty())
        return explicitPath;
    if (const std::string e = env("ACSEL_WORKSPACE"); !e.empty())
        return e;
    for (const fs::path& candidate :
         {fs::path(ACSEL_SOURCE_DIR) / "datasets" / "workspace.json",
          fs::path(ACSEL_INSTALL_DATADIR) / "datasets" / "workspace.json"}) {
        std::error_code ec;
        if (fs::exists(candidate, ec))
            return candidate.string();
    }
    return {};
}

TablesChoice resolveTablesDir(const std::string& explicitDir, const std::string& setting)
{
    if (!explicitDir.empty())
        return {explicitDir, "--tables"};
    // A variable that points nowhere means "no tables here" (say so, do not fall back), while
    // an explicit --tables that does not exist stays an error for the caller.
    if (const std::string e = env("ACSEL_TABLES"); !e.empty())
        return isDir(e) ? TablesChoice{e, "ACSEL_TABLES"}
                        : TablesChoice{"", "ACSEL_TABLES=" + e + " is not a folder"};
    if (!setting.empty() && isDir(setting))
        return {setting, "setting"};
    for (const fs::path& candidate : {fs::path(ACSEL_SOURCE_DIR) / ".." / "shared" / "aic",
                                      fs::path("..") / "shared" / "aic"}) {
        if (isDir(candidate))
            return {fs::weakly_canonical(candidate).string(), "default ../shared/aic"};
    }
    return {};
}

} // namespace acsel::app
