#include "core/data/systemyaml.h"

#include "core/data/inputfile.h"
#include "core/data/loaderror.h"
#include "core/data/plausibility.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <locale>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace acsel
{
namespace
{

// Numbers in [min, max] (finite). The scalar is read with from_chars: yaml-cpp's as<double>
// goes through a stream, which follows the global C++ locale.
double readNumber(const YAML::Node& parent, const char* key, const std::string& file,
                  const std::string& section, bool required, double fallback, double min = 0,
                  double max = std::numeric_limits<double>::max())
{
    const YAML::Node n = parent[key];
    const std::string where = section + "." + key;
    if (!n) {
        if (required)
            throw LoadError(file, where, "missing field");
        return fallback;
    }
    const std::string at = where + " (line " + std::to_string(n.Mark().line + 1) + ")";
    if (!n.IsScalar())
        throw LoadError(file, at, "expected a number");
    const std::string& s = n.Scalar();
    double v = 0;
    const auto [stop, error] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || error != std::errc() || stop != s.data() + s.size())
        throw LoadError(file, at, "expected a number, found '" + s + "'");
    if (!std::isfinite(v) || v < min || v > max) {
        std::ostringstream range;
        range.imbue(std::locale::classic());
        range << "expected a finite number in [" << min << ", " << max << "], found '" << s << "'";
        throw LoadError(file, at, range.str());
    }
    return v;
}

// A required field that must be positive: a zero is blamed on that field itself.
double readPositive(const YAML::Node& parent, const char* key, const std::string& file,
                    const std::string& section)
{
    const double v = readNumber(parent, key, file, section, true, 0);
    if (!(v > 0))
        throw LoadError(file, section + "." + key, "expected a positive number, found 0");
    return v;
}

// A whole number in [lo, hi]: a double cast to int outside int's range is undefined.
int readInteger(const YAML::Node& parent, const char* key, const std::string& file,
                const std::string& section, int lo, int hi, int fallback)
{
    const YAML::Node n = parent[key];
    if (!n)
        return fallback;
    const double v = readNumber(parent, key, file, section, true, 0);
    if (v != std::floor(v) || v < lo || v > hi)
        throw LoadError(
            file, section + "." + key + " (line " + std::to_string(n.Mark().line + 1) + ")",
            "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<int>(v);
}

} // namespace

Platform parseSystemYaml(const std::string& text, const std::string& file, const std::string& id)
{
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw LoadError(file, "line " + std::to_string(e.mark.line + 1), "invalid YAML: " + e.msg);
    }
    if (!root || !root.IsMap())
        throw LoadError(file, "", "expected a YAML mapping with a 'gpu' section");
    const YAML::Node gpu = root["gpu"];
    if (!gpu || !gpu.IsMap())
        throw LoadError(file, "gpu", "missing 'gpu' section");
    Platform p;
    p.id = id;
    p.name = id;
    p.source = file;
    p.memBandwidth = readPositive(gpu, "mem_bw", file, "gpu");
    p.memCapacityBytes = readPositive(gpu, "mem_capacity", file, "gpu");
    p.memBwScaling = readNumber(gpu, "mem_bw_empirical_scaling_factor", file, "gpu", false, 0.8,
                                plausible::kMinBwScaling, plausible::kMaxBwScaling);
    p.memConstantLatencyS = readNumber(gpu, "mem_empirical_constant_latency", file, "gpu", false,
                                       3e-6, 0, plausible::kMaxMemConstantLatencyS);
    p.tensorFlops[static_cast<std::size_t>(ComputeClass::Bf16)] =
        readPositive(gpu, "bfloat16_tc_flops", file, "gpu");
    p.tensorFlops[static_cast<std::size_t>(ComputeClass::Int8)] =
        readNumber(gpu, "int8_tc_flops", file, "gpu", false, 0);
    p.tensorFlops[static_cast<std::size_t>(ComputeClass::Fp8)] =
        readNumber(gpu, "fp8_tc_flops", file, "gpu", false, 0);
    p.tensorFlops[static_cast<std::size_t>(ComputeClass::Fp4)] =
        readNumber(gpu, "fp4_tc_flops", file, "gpu", false, 0);
    p.smVersion = readInteger(gpu, "sm_version", file, "gpu", 1, 1000, 0);
    if (const YAML::Node misc = root["misc"]; misc && misc.IsMap())
        p.otherMemBytes = readNumber(misc, "other_mem", file, "misc", false, 0);
    return p;
}

Platform loadSystemYaml(const std::string& path, const std::string& id)
{
    std::string text = readInputFile(path, kYamlLimit);
    if (text.empty())
        throw LoadError(path, "", "file is empty: expected an AIC system yaml");
    return parseSystemYaml(text, path, id);
}

} // namespace acsel
