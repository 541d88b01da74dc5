#include "app/common/args.h"

#include "core/data/oneline.h"

#include <charconv>
#include <cmath>
#include <sstream>

namespace acsel::app
{

UsageError::UsageError(const std::string& message) : std::runtime_error(oneLine(message)) {}

Args::Args(std::string command, const std::vector<std::string>& argv, std::vector<OptionSpec> specs,
           int maxPositional)
    : command_(std::move(command)), specs_(std::move(specs))
{
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        if (a == "-h" || a == "--help") {
            help_ = true;
            continue;
        }
        if (a.rfind("--", 0) != 0 || a.size() == 2) {
            if (static_cast<int>(positional_.size()) >= maxPositional)
                throw UsageError("acsel " + command_ + ": unexpected argument '" + a +
                                 "' (see acsel " + command_ + " --help)");
            positional_.push_back(a);
            continue;
        }
        std::string name = a.substr(2), val;
        bool hasInline = false;
        if (auto eq = name.find('='); eq != std::string::npos) {
            val = name.substr(eq + 1);
            name = name.substr(0, eq);
            hasInline = true;
        }
        const OptionSpec* spec = find(name);
        if (!spec)
            throw UsageError("acsel " + command_ + ": unknown option --" + name + " (see acsel " +
                             command_ + " --help)");
        if (spec->valueName.empty()) {
            if (hasInline)
                throw UsageError("acsel " + command_ + ": --" + name + " takes no value");
            values_[name] = "1";
            continue;
        }
        if (!hasInline) {
            if (i + 1 >= argv.size())
                throw UsageError("acsel " + command_ + ": --" + name + " expects " +
                                 spec->valueName);
            val = argv[++i];
        }
        values_[name] = val;
    }
}

const OptionSpec* Args::find(const std::string& name) const
{
    for (const OptionSpec& s : specs_)
        if (s.name == name)
            return &s;
    return nullptr;
}

bool Args::flag(const std::string& name) const
{
    return values_.count(name) > 0;
}

std::optional<std::string> Args::value(const std::string& name) const
{
    auto it = values_.find(name);
    if (it == values_.end())
        return std::nullopt;
    return it->second;
}

std::string Args::valueOr(const std::string& name, const std::string& fallback) const
{
    return value(name).value_or(fallback);
}

std::string Args::require(const std::string& name) const
{
    if (auto v = value(name))
        return *v;
    const OptionSpec* s = find(name);
    throw UsageError("acsel " + command_ + ": missing --" + name +
                     (s ? " " + s->valueName : std::string()));
}

int Args::integer(const std::string& name, int fallback, int min, int max) const
{
    const auto v = value(name);
    if (!v)
        return fallback;
    int out = 0;
    const auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (v->empty() || ec != std::errc() || p != v->data() + v->size() || out < min || out > max)
        throw UsageError("acsel " + command_ + ": --" + name + " expects an integer in [" +
                         std::to_string(min) + ", " + std::to_string(max) + "], got '" + *v + "'");
    return out;
}

double Args::number(const std::string& name, double fallback, double min, double max) const
{
    const auto v = value(name);
    if (!v)
        return fallback;
    double out = 0;
    const auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (v->empty() || ec != std::errc() || p != v->data() + v->size() || !std::isfinite(out) ||
        out < min || out > max) {
        std::ostringstream msg;
        msg << "acsel " << command_ << ": --" << name << " expects a number in [" << min << ", "
            << max << "], got '" << *v << "'";
        throw UsageError(msg.str());
    }
    return out;
}

std::string Args::usage() const
{
    std::ostringstream out;
    out << "usage: acsel " << command_ << " [options]\n";
    for (const OptionSpec& s : specs_) {
        std::string left = "  --" + s.name + (s.valueName.empty() ? "" : " " + s.valueName);
        if (left.size() < 28)
            left.resize(28, ' ');
        out << left << " " << s.help << "\n";
    }
    return out.str();
}

} // namespace acsel::app
