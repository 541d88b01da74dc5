#include "app/cli/command.h"

#include "core/data/loaderror.h"

#include <algorithm>
#include <iostream>

namespace acsel::cli
{

std::vector<Command>& commandRegistry()
{
    static std::vector<Command> registry;
    return registry;
}

namespace
{

void printHelp(std::ostream& out)
{
    std::vector<Command> cmds = commandRegistry();
    std::sort(cmds.begin(), cmds.end(),
              [](const Command& a, const Command& b) { return a.name < b.name; });
    out << "acsel " << ACSEL_VERSION
        << ": design-space explorer for deploying LLMs on constrained GPUs\n\n"
           "usage: acsel <command> [options]   (acsel <command> --help for its options)\n\n"
           "commands:\n";
    for (const Command& c : cmds) {
        std::string name = "  " + c.name;
        name.resize(std::max<std::size_t>(name.size() + 1, 20), ' ');
        out << name << c.summary << "\n";
    }
}

} // namespace

int runCommand(const std::vector<std::string>& argv, CommandIo& io)
{
    if (argv.empty() || argv[0] == "help" || argv[0] == "--help" || argv[0] == "-h") {
        printHelp(io.out);
        return argv.empty() ? 2 : 0;
    }
    if (argv[0] == "--version") {
        io.out << "acsel " << ACSEL_VERSION << "\n";
        return 0;
    }
    // A command is one word ("info") or two ("report latency"); the longer name wins.
    const auto& cmds = commandRegistry();
    auto find = [&](const std::string& name) {
        return std::find_if(cmds.begin(), cmds.end(),
                            [&](const Command& c) { return c.name == name; });
    };
    std::size_t words = 1;
    auto it = cmds.end();
    if (argv.size() >= 2 && (it = find(argv[0] + " " + argv[1])) != cmds.end())
        words = 2;
    else
        it = find(argv[0]);
    if (it == cmds.end()) {
        io.err << "acsel: unknown command '" << argv[0] << "' (acsel help lists them)\n";
        return 2;
    }
    const std::vector<std::string> rest(argv.begin() + static_cast<std::ptrdiff_t>(words),
                                        argv.end());
    try {
        return it->run(rest, io);
    } catch (const app::UsageError& e) {
        io.err << e.what() << "\n";
        return 2;
    } catch (const LoadError& e) {
        io.err << "acsel " << it->name << ": " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        io.err << "acsel " << it->name << ": internal error: " << e.what() << "\n";
        return 1;
    }
}

} // namespace acsel::cli
