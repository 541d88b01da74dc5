#include "core/data/atomicfile.h"

#include "core/data/loaderror.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace acsel
{
namespace
{

std::string systemError()
{
    return std::strerror(errno);
}

fs::path folderOf(const fs::path& p)
{
    return p.has_parent_path() ? p.parent_path() : fs::path(".");
}

// ".<name>.tmp-" + 6 random characters (mkstemp): hidden, and recognisable as ours.
std::string tempPrefix(const fs::path& target)
{
    return "." + target.filename().string() + ".tmp-";
}

// Temporaries a killed writer left for this target (the write that made them never finished).
void removeLeftovers(const fs::path& target)
{
    const std::string prefix = tempPrefix(target);
    std::error_code ec;
    for (fs::directory_iterator it(folderOf(target), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() == prefix.size() + 6 && name.compare(0, prefix.size(), prefix) == 0) {
            std::error_code ignored; // best effort: a leftover that stays is only clutter
            fs::remove(it->path(), ignored);
        }
    }
}

bool writeAll(int fd, std::string_view bytes)
{
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

} // namespace

std::string writeTarget(const std::string& path)
{
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(path, ec)))
        return path;
    const fs::path target = fs::canonical(path, ec);
    if (ec)
        throw LoadError(path, "",
                        "is a symlink whose target cannot be resolved (" + ec.message() +
                            "): write to the target itself, or remove the link");
    return target.string();
}

void writeFileAtomically(const std::string& path, std::string_view bytes)
{
    const fs::path target(writeTarget(path));
    removeLeftovers(target);
    std::string tmp = (folderOf(target) / tempPrefix(target)).string() + "XXXXXX";
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        throw LoadError(path, "",
                        "cannot create a temporary file in " + folderOf(target).string() + " (" +
                            systemError() + ")");
    // mkstemp creates 0600: give the file the permissions it had, or a plain write's.
    struct stat old {
    };
    const mode_t mask = ::umask(0);
    ::umask(mask);
    const mode_t mode = ::stat(target.c_str(), &old) == 0 ? (old.st_mode & 07777) : (0666 & ~mask);
    const auto fail = [&](const std::string& what) {
        const std::string why = systemError();
        ::close(fd);
        ::unlink(tmp.c_str());
        throw LoadError(path, "", what + " (" + why + ")");
    };
    if (::fchmod(fd, mode) != 0)
        fail("cannot set the permissions of " + tmp);
    if (!writeAll(fd, bytes))
        fail("cannot write " + tmp);
    if (::fsync(fd) != 0) // the data is on disk before the name points at it
        fail("cannot flush " + tmp + " to disk");
    if (::close(fd) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw LoadError(path, "", "cannot close " + tmp + " (" + why + ")");
    }
    if (::rename(tmp.c_str(), target.c_str()) != 0) {
        const std::string why = systemError();
        ::unlink(tmp.c_str());
        throw LoadError(path, "", "cannot rename the temporary file over it (" + why + ")");
    }
    // The rename itself is durable once the folder is synced (best effort: some file systems
    // refuse fsync on a folder).
    if (const int dir = ::open(folderOf(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        dir >= 0) {
        (void)::fsync(dir);
        ::close(dir);
    }
}

} // namespace acsel
