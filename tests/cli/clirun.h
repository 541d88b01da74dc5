// Runs an acsel subcommand in-process, as the executable would, capturing its output.
#pragma once

#include "app/cli/command.h"

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

} // namespace acsel::cli::test
