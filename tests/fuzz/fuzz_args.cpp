// libFuzzer target: the CLI's option parser (app/common/args), which every acsel subcommand
// runs first on its arguments. Input: one byte giving how many positional arguments are
// allowed (its value mod 4), then the arguments, separated by NUL bytes. Any split must end in
// an Args or an app::UsageError of one line naming the command, and every typed accessor must
// return a value within its bounds or throw the same; nothing else may escape.
#include "app/common/args.h"
#include "tests/fuzz/fuzzcheck.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace
{

using acsel::app::Args;
using acsel::app::OptionSpec;
using acsel::app::UsageError;
namespace fuzz = acsel::fuzz;

// The kinds of option the subcommands declare: flags and options with a value, including
// prefixes of one another ("tables"/"tau"), which a lax matcher would confuse.
const std::vector<OptionSpec> kSpecs = {{"json", "", "print JSON"},
                                        {"force", "", "overwrite"},
                                        {"workspace", "FILE", "workspace JSON"},
                                        {"tables", "DIR", "operator tables"},
                                        {"tau", "Q", "quantile"},
                                        {"isl", "N", "input length"},
                                        {"ttft", "MS", "TTFT budget"},
                                        {"output", "FILE", "output file"}};

void checkUsageError(const UsageError& e)
{
    const std::string_view what = e.what();
    if (fuzz::verbose())
        std::fprintf(stderr, "fuzz: %s\n", e.what());
    fuzz::require(what.rfind("acsel fuzz: ", 0) == 0, "a UsageError names the command");
    fuzz::require(what.find('\n') == std::string_view::npos, "a UsageError is one line");
}

// Runs one accessor: it returns (and `check` holds) or throws a UsageError.
void valueOrUsageError(const std::function<void()>& access)
{
    try {
        access();
    } catch (const UsageError& e) {
        checkUsageError(e);
    }
}

bool given(const std::vector<std::string>& argv, const std::string& name, const std::string& v)
{
    for (std::size_t i = 0; i < argv.size(); ++i)
        if (argv[i] == "--" + name + "=" + v ||
            (argv[i] == "--" + name && i + 1 < argv.size() && argv[i + 1] == v))
            return true;
    return false;
}

void checkArgs(const Args& args, const std::vector<std::string>& argv, int maxPositional)
{
    fuzz::require(static_cast<int>(args.positional().size()) <= maxPositional,
                  "no more positional arguments than allowed");
    for (const std::string& p : args.positional())
        fuzz::require(std::find(argv.begin(), argv.end(), p) != argv.end(),
                      "a positional argument is one of the arguments");
    for (const OptionSpec& s : kSpecs) {
        if (s.valueName.empty()) {
            if (args.flag(s.name))
                fuzz::require(std::find(argv.begin(), argv.end(), "--" + s.name) != argv.end(),
                              "a flag is set only by its own argument");
        } else if (const auto v = args.value(s.name)) {
            fuzz::require(given(argv, s.name, *v), "an option's value is what followed it");
        }
    }
    valueOrUsageError([&] {
        const int isl = args.integer("isl", 1024, 1, 1 << 20);
        fuzz::require(isl >= 1 && isl <= (1 << 20), "an integer option is within its bounds");
    });
    valueOrUsageError([&] {
        for (const char* name : {"tau", "ttft"}) {
            const double v = args.number(name, 0.5, 0.01, 1e6);
            fuzz::require(std::isfinite(v) && v >= 0.01 && v <= 1e6,
                          "a number option is finite and within its bounds");
        }
    });
    valueOrUsageError([&] {
        const std::string out = args.require("output");
        fuzz::require(args.value("output") == out, "require returns the option's value");
    });
    const std::string usage = args.usage();
    for (const OptionSpec& s : kSpecs)
        fuzz::require(usage.find("--" + s.name) != std::string::npos, "usage lists every option");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const int maxPositional = data[0] % 4;
    std::vector<std::string> argv;
    if (size > 1) {
        const std::string rest = fuzz::text(data + 1, size - 1);
        std::size_t start = 0;
        for (std::size_t nul; (nul = rest.find('\0', start)) != std::string::npos; start = nul + 1)
            argv.push_back(rest.substr(start, nul - start));
        argv.push_back(rest.substr(start));
    }
    try {
        const Args args("fuzz", argv, kSpecs, maxPositional);
        checkArgs(args, argv, maxPositional);
    } catch (const UsageError& e) {
        checkUsageError(e);
    }
    return 0;
}
