// What the CLI tests share: running an acsel subcommand in-process as the executable would,
// capturing its output; the bundled workspace and the real operator tables; and reading back
// what a command wrote.
#pragma once

#include "app/cli/command.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace acsel::cli::test
{

struct Run {
    int code;
    std::string out, err;
};

inline Run run(std::vector<std::string> argv)
{
    std::ostringstream out, err;
    CommandIo io{out, err};
    const int code = runCommand(argv, io);
    return {code, out.str(), err.str()};
}

inline const std::string kWorkspace = ACSEL_DATASETS "/workspace.json";
// Absent on a machine without ../shared: tests that need the tables skip.
inline const std::string kTables = ACSEL_SHARED_DIR "/aic";
inline const std::string kSilicon = kTables + "/silicon/dense_tp1.csv";

inline bool haveTables()
{
    return std::filesystem::exists(kTables);
}

inline bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

inline std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline nlohmann::json readJson(const std::string& path)
{
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

} // namespace acsel::cli::test
