#include "app/common/paths.h"

#include <cstdlib>
#include <filesystem>
#include <vector>

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

std::string executableDir()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : exe.parent_path().string();
}

std::string installedDataDir()
{
    const std::string dir = executableDir();
    if (dir.empty())
        return {};
    return (fs::path(dir).parent_path() / "share" / "acsel-studio").string();
}

std::string resolveWorkspacePath(const std::string& explicitPath)
{
    if (!explicitPath.empty())
        return explicitPath;
    if (const std::string e = env("ACSEL_WORKSPACE"); !e.empty())
        return e;
    return bundledDatasetsFile("workspace.json");
}

std::string bundledDatasetsFile(const std::string& name)
{
    // The copy beside the executable comes first, so an installed binary never reads the
    // build machine's source tree even when that still exists.
    std::vector<fs::path> candidates;
    if (const std::string installed = installedDataDir(); !installed.empty())
        candidates.push_back(fs::path(installed) / "datasets" / name);
    candidates.push_back(fs::path(ACSEL_SOURCE_DIR) / "datasets" / name);
    candidates.push_back(fs::path(ACSEL_INSTALL_DATADIR) / "datasets" / name);
    for (const fs::path& candidate : candidates) {
        std::error_code ec;
        if (fs::exists(candidate, ec))
            return candidate.string();
    }
    return {};
}

TablesChoice resolveTablesDir(const std::string& explicitDir, const std::string& setting)
{
    // kNoTables is the one way to ask for no tables; any other folder named by the flag, the
    // variable or the setting must be a tables folder (the caller's loader says why not).
    if (!explicitDir.empty())
        return explicitDir == kNoTables ? TablesChoice{"", "--tables none"}
                                        : TablesChoice{explicitDir, "--tables"};
    if (const std::string e = env("ACSEL_TABLES"); !e.empty())
        return e == kNoTables ? TablesChoice{"", "ACSEL_TABLES=none"}
                              : TablesChoice{e, "ACSEL_TABLES"};
    if (!setting.empty())
        return {setting, "setting"};
    for (const fs::path& candidate : {fs::path(ACSEL_SOURCE_DIR) / ".." / "shared" / "aic",
                                      fs::path("..") / "shared" / "aic"}) {
        if (isDir(candidate))
            return {fs::weakly_canonical(candidate).string(), "default ../shared/aic"};
    }
    return {};
}

} // namespace acsel::app
