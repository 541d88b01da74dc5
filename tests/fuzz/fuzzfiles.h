// For the targets whose loader takes a folder of files: one input is split at lines "--8<--"
// into parts, each written to its own file of a per-process folder (removed at exit).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace acsel::fuzz
{

class FileSet
{
public:
    explicit FileSet(const std::string& target)
        : dir_(std::filesystem::temp_directory_path() /
               ("acsel_fuzz_" + target + "_" + std::to_string(::getpid())))
    {
    }
    ~FileSet()
    {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    FileSet(const FileSet&) = delete;
    FileSet& operator=(const FileSet&) = delete;

    // Empties the folder, then writes part i of text to names[i] (a relative path; folders
    // are made). Parts beyond the names are ignored, missing parts are left unwritten.
    void write(const std::string& text, const std::vector<std::string>& names)
    {
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
        std::filesystem::create_directories(dir_);
        std::size_t start = 0;
        for (const std::string& name : names) {
            if (start > text.size())
                break;
            const std::size_t cut = text.find("\n--8<--\n", start);
            const std::size_t end = cut == std::string::npos ? text.size() : cut;
            const std::filesystem::path p = dir_ / name;
            std::filesystem::create_directories(p.parent_path());
            std::ofstream(p, std::ios::binary) << text.substr(start, end - start);
            start = cut == std::string::npos ? text.size() + 1 : cut + 8;
        }
    }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    std::string dir() const { return dir_.string(); }

private:
    std::filesystem::path dir_;
};

} // namespace acsel::fuzz
