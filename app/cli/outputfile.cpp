#include "app/cli/outputfile.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace acsel::cli
{
namespace
{

namespace fs = std::filesystem;

fs::path folderOf(const fs::path& out)
{
    return out.has_parent_path() ? out.parent_path() : fs::path(".");
}

} // namespace

std::vector<std::string> expandOutputShortOption(std::vector<std::string> argv)
{
    for (std::string& a : argv)
        if (a == "-o")
            a = "--output";
    return argv;
}

void checkOutputPath(const std::string& command, const std::string& path, bool force)
{
    if (isStandardOutput(path))
        return;
    const fs::path out(path);
    const std::string prefix = "acsel " + command + ": ";
    std::error_code ec;
    if (!fs::is_directory(folderOf(out), ec))
        throw app::UsageError(prefix + "folder " + folderOf(out).string() + " does not exist");
    if (fs::is_directory(out, ec))
        throw app::UsageError(prefix + path + " is a folder");
    if (fs::exists(out, ec) && !force)
        throw app::UsageError(prefix + path + " exists; pass --force to overwrite it");
}

void writeOutput(const std::string& command, const std::string& path, const std::string& text,
                 bool force, CommandIo& io)
{
    if (isStandardOutput(path)) {
        io.out << text;
        return;
    }
    checkOutputPath(command, path, force);
    const std::string prefix = "acsel " + command + ": ";
    const fs::path out(path);
    const fs::path dir = folderOf(out);
    std::string tmp = (dir / ("." + out.filename().string() + ".tmp-XXXXXX")).string();
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        throw app::UsageError(prefix + "cannot create a file in " + dir.string());
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
            throw app::UsageError(prefix + "cannot write " + tmp);
        }
    }
    fs::rename(tmp, out, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw app::UsageError(prefix + "cannot rename the temporary file to " + path);
    }
}

} // namespace acsel::cli
