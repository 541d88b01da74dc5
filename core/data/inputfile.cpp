#include "core/data/inputfile.h"

#include "core/data/loaderror.h"

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace acsel
{
namespace
{

std::string typeName(fs::file_type t)
{
    switch (t) {
    case fs::file_type::directory:
        return "a directory";
    case fs::file_type::fifo:
        return "a FIFO (named pipe)";
    case fs::file_type::character:
        return "a character device";
    case fs::file_type::block:
        return "a block device";
    case fs::file_type::socket:
        return "a socket";
    default:
        return "not a regular file";
    }
}

std::string sizeText(std::uintmax_t bytes)
{
    constexpr std::uintmax_t kMiB = std::uintmax_t{1} << 20;
    return bytes % kMiB == 0 ? std::to_string(bytes / kMiB) + " MiB"
                             : std::to_string(bytes) + " bytes";
}

} // namespace

void requireRegularFile(const std::string& path)
{
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec); // follows symlinks; a loop is an error
    if (ec || !fs::exists(st))
        throw LoadError(path, "",
                        "cannot open file for reading (" +
                            (ec ? ec.message() : std::string("no such file")) + ")");
    if (!fs::is_regular_file(st))
        throw LoadError(path, "", "is " + typeName(st.type()) + ": expected a regular file");
}

std::string readInputFile(const std::string& path, const InputLimit& limit)
{
    requireRegularFile(path);
    std::error_code ec;
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec)
        throw LoadError(path, "", "cannot read the file size (" + ec.message() + ")");
    if (size > limit.maxBytes)
        throw LoadError(path, "",
                        "file has " + std::to_string(size) + " bytes: expected " + limit.kind +
                            " of at most " + sizeText(limit.maxBytes));
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw LoadError(path, "", "cannot open file for reading");
    // Exactly the size just checked: a file that changes while it is read is refused, not
    // read past its limit or cut short.
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (in.bad())
        throw LoadError(path, "", "read failed");
    if (static_cast<std::uintmax_t>(in.gcount()) != size ||
        in.peek() != std::ifstream::traits_type::eof())
        throw LoadError(path, "", "file changed while it was read: expected a file at rest");
    return text;
}

} // namespace acsel
