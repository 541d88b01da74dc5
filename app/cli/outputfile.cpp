#include "app/cli/outputfile.h"

#include "core/data/atomicfile.h"
#include "core/data/loaderror.h"

#include <filesystem>

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
    const std::string prefix = "acsel " + command + ": ";
    // A symlinked output is written through (the link stays, its target is replaced), so the
    // checks are the target's; a dangling or looping link is refused here.
    fs::path out;
    try {
        out = writeTarget(path);
    } catch (const LoadError& e) {
        throw app::UsageError(prefix + e.what());
    }
    std::error_code ec;
    if (!fs::is_directory(folderOf(out), ec))
        throw app::UsageError(prefix + "output " + path + ": the folder " + folderOf(out).string() +
                              " does not exist (expected a file in an existing folder)");
    if (fs::is_directory(out, ec))
        throw app::UsageError(prefix + "output " + path + " is a folder (expected a file name)");
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
    try {
        writeFileAtomically(path, text);
    } catch (const LoadError& e) {
        throw app::UsageError("acsel " + command + ": writing the output: " + e.what());
    }
}

} // namespace acsel::cli
