// CLI subcommands register themselves: each cmd_*.cpp defines one and a static
// RegisterCommand, and main() dispatches by name.
#pragma once

#include "app/common/args.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace acsel::cli
{

struct CommandIo {
    std::ostream& out;
    std::ostream& err;
};

// Returns the process exit code: 0 success, 2 bad input, 1 internal error. Throwing
// app::UsageError or acsel::LoadError is the same as returning 2 with that message.
using CommandFn = int (*)(const std::vector<std::string>& argv, CommandIo& io);

struct Command {
    std::string name;
    std::string summary;
    CommandFn run;
};

std::vector<Command>& commandRegistry();

struct RegisterCommand {
    RegisterCommand(std::string name, std::string summary, CommandFn run)
    {
        commandRegistry().push_back({std::move(name), std::move(summary), run});
    }
};

// Runs a subcommand with the CLI's error policy; shared by main() and the tests.
int runCommand(const std::vector<std::string>& argv, CommandIo& io);

} // namespace acsel::cli
