#include "core/data/systemyaml.h"

#include "core/data/loaderror.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <yaml-cpp/yaml.h>

namespace acsel
{
namespace
{

double readNumber(const YAML::Node& parent, const char* key, const std::string& file,
                  const std::string& section, bool required, double fallback)
{
    const YAML::Node n = parent[key];
    const std::string where = section + "." + key;
    if (!n) {
        if (required)
            throw LoadError(file, where, "missing field");
        return fallback;
    }
    double v = 0;
    try {
        v = n.as<double>();
    } catch (const YAML::Exception&) {
        throw LoadError(file, where + " (line " + std::to_string(n.Mark().line + 1) + ")",
                        "expected a number");
    }
    if (!std::isfinite(v) || v < 0)
        throw LoadError(file, where + " (line " + std::to_string(n.Mark().line + 1) + ")",
                        "expected a finite non-negative number");
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
    p.memBandwidth = readNumber(gpu, "mem_bw", file, "gpu", true, 0);
    p.memCapacityBytes = readNumber(gpu, "mem_capacity", file, "gpu", true, 0);
    p.memBwScaling = readNumber(gpu, "mem_bw_empirical_scaling_factor", file, "gpu", false, 0.8);
    p.memConstantLatencyS =
        readNumber(gpu, "mem_empirical_constant_latency", file, "gpu", false, 3e-6);
    p.tensorFlops[static_cast<std::size_t>(ComputeClass::Bf16)] =
        readNumber(gpu, "bfloat16_tc_flops", file, "gpu", true, 0);
    p.tensorFlops[static_cast<std::size_t>(ComputeClass::Int8)] =
        readNumber(gpu, "int8_tc_flops", file, "gpu", false, 0);
    p.tensorFlops[static_cast<std::size_t>(ComputeClass::Fp8)] =
        readNumber(gpu, "fp8_tc_flops", file, "gpu", false, 0);
    p.tensorFlops[static_cast<std::size_t>(ComputeClass::Fp4)] =
        readNumber(gpu, "fp4_tc_flops", file, "gpu", false, 0);
    p.smVersion = readInteger(gpu, "sm_version", file, "gpu", 1, 1000, 0);
    if (p.memBandwidth <= 0 || p.memCapacityBytes <= 0 || p.peakFlops(ComputeClass::Bf16) <= 0)
        throw LoadError(file, "gpu", "mem_bw, mem_capacity and bfloat16_tc_flops must be positive");
    if (const YAML::Node misc = root["misc"]; misc && misc.IsMap())
        p.otherMemBytes = readNumber(misc, "other_mem", file, "misc", false, 0);
    return p;
}

Platform loadSystemYaml(const std::string& path, const std::string& id)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw LoadError(path, "", "cannot open file for reading");
    std::ostringstream buf;
    buf << in.rdbuf();
    if (buf.str().empty())
        throw LoadError(path, "", "file is empty: expected an AIC system yaml");
    return parseSystemYaml(buf.str(), path, id);
}

} // namespace acsel
