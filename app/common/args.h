// A small, strict command-line parser for the CLI subcommands: declared options only,
// "--name value" or "--name=value", flags without a value, and clear usage errors.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace acsel::app
{

// Bad command-line input: the CLI prints it and exits with code 2. The message echoes
// arguments, so their control characters are spelled out (core/data/oneline.h): one line.
class UsageError : public std::runtime_error
{
public:
    explicit UsageError(const std::string& message);
};

struct OptionSpec {
    std::string name;      // without dashes
    std::string valueName; // empty for a flag
    std::string help;
};

class Args
{
public:
    Args(std::string command, const std::vector<std::string>& argv, std::vector<OptionSpec> specs,
         int maxPositional = 0);

    bool flag(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::string valueOr(const std::string& name, const std::string& fallback) const;
    std::string require(const std::string& name) const;
    int integer(const std::string& name, int fallback, int min, int max) const;
    double number(const std::string& name, double fallback, double min, double max) const;
    const std::vector<std::string>& positional() const { return positional_; }
    bool helpRequested() const { return help_; }
    std::string usage() const;

private:
    const OptionSpec* find(const std::string& name) const;
    std::string command_;
    std::vector<OptionSpec> specs_;
    std::map<std::string, std::string> values_;
    std::vector<std::string> positional_;
    bool help_ = false;
};

} // namespace acsel::app
