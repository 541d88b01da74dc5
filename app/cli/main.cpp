#include "app/cli/command.h"

#include <iostream>

int main(int argc, char** argv)
{
    std::ios::sync_with_stdio(false);
    const std::vector<std::string> args(argv + 1, argv + argc);
    acsel::cli::CommandIo io{std::cout, std::cerr};
    return acsel::cli::runCommand(args, io);
}
