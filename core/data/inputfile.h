// Reading one input file whole, safely: regular files only (a FIFO, a directory or a device
// such as /dev/zero is refused before it is opened, so nothing blocks or fills memory), a size
// limit per kind of file, and every operating-system error turned into a LoadError naming the
// path. Every loader that reads a file reads it through here (docs/FORMATS.md, "Limits").
#pragma once

#include <cstdint>
#include <string>

namespace acsel
{

// Size limits, each far above the largest real file of its kind (the largest AIC operator
// table in ../shared/aic is 8.8 MB; the default workspace's quality set is 90 kB).
struct InputLimit {
    const char* kind; // named in the error: "a JSON document"
    std::uintmax_t maxBytes;
};
inline constexpr InputLimit kJsonLimit{"a JSON document", std::uintmax_t{64} << 20};
inline constexpr InputLimit kCsvLimit{"a CSV file", std::uintmax_t{64} << 20};
inline constexpr InputLimit kOperatorTableLimit{"an operator table", std::uintmax_t{256} << 20};
inline constexpr InputLimit kYamlLimit{"a YAML file", std::uintmax_t{1} << 20};

// Throws LoadError(path, "", ...) unless path names (through symlinks) a regular file.
void requireRegularFile(const std::string& path);

// The whole file; throws LoadError when it is not a regular file, is larger than the limit or
// cannot be read.
std::string readInputFile(const std::string& path, const InputLimit& limit);

} // namespace acsel
