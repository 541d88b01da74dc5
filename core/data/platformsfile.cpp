#include "core/data/platformsfile.h"

#include "core/data/plausibility.h"
#include "core/model/backend.h"
#include "core/model/units.h"

#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>
#include <string_view>

namespace acsel
{
namespace
{

struct ClassKey {
    std::string_view key;
    ComputeClass cls;
};
constexpr std::array<ClassKey, 4> kClassKeys = {{{"bf16", ComputeClass::Bf16},
                                                 {"int8", ComputeClass::Int8},
                                                 {"fp8", ComputeClass::Fp8},
                                                 {"fp4", ComputeClass::Fp4}}};

// A sourced quantity: {"value": x, "source": "..."}; the source must say where x comes from.
double sourced(const JsonFields& f, const Json& parent, const std::string& key,
               const std::string& ptr, double min, double max)
{
    const Json& q = f.object(parent, key, ptr);
    const std::string qptr = ptr + "/" + key;
    const double v = f.number(q, "value", qptr, min, max);
    if (f.string(q, "source", qptr).empty())
        f.fail(qptr + "/source", "expected the source of this number (data sheet or product page)");
    return v;
}

PlatformSpec parsePlatform(const JsonFields& f, const Json& p, const std::string& ptr,
                           double bwScaling, double constantLatencyS)
{
    if (!p.is_object())
        f.fail(ptr, "expected a platform object");
    PlatformSpec s;
    Platform& pl = s.platform;
    pl.id = f.string(p, "id", ptr);
    if (pl.id.empty() || pl.id.find('/') != std::string::npos)
        f.fail(ptr + "/id", "expected a non-empty id without '/'");
    pl.name = f.string(p, "name", ptr);
    pl.source = f.file() + ": " + pl.name + " (public spec sheets)";
    s.architecture = f.string(p, "architecture", ptr);
    pl.smVersion = f.integer(p, "sm_version", ptr, 1, 1000);
    s.totalMemoryBytes = sourced(f, p, "memory_capacity_gib", ptr, 0.5, 1e5) * kGiB;
    pl.memCapacityBytes = s.totalMemoryBytes;
    if (p.contains("usable_memory_gib")) {
        pl.memCapacityBytes = sourced(f, p, "usable_memory_gib", ptr, 0.5, 1e5) * kGiB;
        if (pl.memCapacityBytes > s.totalMemoryBytes)
            f.fail(ptr + "/usable_memory_gib", "usable memory exceeds memory_capacity_gib");
        s.memoryNote = p.at("usable_memory_gib").at("source").get<std::string>();
    }
    pl.memBandwidth = sourced(f, p, "memory_bandwidth_gb_s", ptr, 1.0, 1e6) * 1e9;
    pl.memBwScaling = bwScaling;
    pl.memConstantLatencyS = constantLatencyS;
    pl.otherMemBytes = sourced(f, p, "runtime_overhead_gib", ptr, 0.0, 1e3) * kGiB;
    if (p.contains("interconnect")) { // absent: a single-GPU device
        const std::string iptr = ptr + "/interconnect";
        const Json& link = f.object(p, "interconnect", ptr);
        const auto kind = parseInterconnect(f.string(link, "kind", iptr));
        if (!kind || *kind == Interconnect::None)
            f.fail(iptr + "/kind", "expected pcie or nvlink (leave interconnect out for a "
                                   "single-GPU device)");
        pl.interconnect = *kind;
        // Per GPU and direction: PCIe 3.0 x16 (16 GB/s) up to NVLink 5 (900 GB/s).
        pl.linkBandwidth = sourced(f, link, "bandwidth_gb_s", iptr, 1.0, 1e4) * 1e9;
    }

    const std::string tptr = ptr + "/dense_tensor_tflops";
    const Json& tensor = f.object(p, "dense_tensor_tflops", ptr);
    for (const auto& item : tensor.items()) {
        // A named variable, not a structured binding: clang 14 (the fuzz build) cannot
        // capture a binding in a lambda.
        const std::string& key = item.key();
        const auto known = std::find_if(kClassKeys.begin(), kClassKeys.end(),
                                        [&](const ClassKey& c) { return c.key == key; });
        if (known == kClassKeys.end())
            f.fail(tptr + "/" + key,
                   "unknown data type '" + key + "': expected bf16, int8, fp8 or fp4");
        pl.tensorFlops[static_cast<std::size_t>(known->cls)] =
            sourced(f, tensor, key, tptr, 1e-3, 1e7) * 1e12;
    }
    if (pl.peakFlops(ComputeClass::Bf16) <= 0)
        f.fail(tptr + "/bf16", "missing field 'bf16': every GPU needs its bf16 throughput");

    const Json& formats = f.array(p, "native_formats", ptr);
    if (formats.empty())
        f.fail(ptr + "/native_formats", "expected at least one format");
    for (std::size_t i = 0; i < formats.size(); ++i) {
        const std::string fptr = ptr + "/native_formats/" + std::to_string(i);
        const auto fmt =
            formats[i].is_string() ? parseFormat(formats[i].get<std::string>()) : std::nullopt;
        if (!fmt)
            f.fail(fptr, "expected a format name: " + formatChoices());
        if (pl.peakFlops(facts(*fmt).compute) <= 0)
            f.fail(fptr, "format '" + std::string(toString(*fmt)) +
                             "' needs a dense_tensor_tflops entry for its tensor-core data type");
        if (std::find(s.nativeFormats.begin(), s.nativeFormats.end(), *fmt) !=
            s.nativeFormats.end())
            f.fail(fptr, "duplicate format '" + std::string(toString(*fmt)) + "'");
        s.nativeFormats.push_back(*fmt);
    }
    std::sort(s.nativeFormats.begin(), s.nativeFormats.end());
    s.kvFp8 = f.boolean(p, "kv_fp8", ptr);
    if (s.kvFp8 && pl.peakFlops(ComputeClass::Fp8) <= 0)
        f.fail(ptr + "/kv_fp8", "an fp8 KV cache needs fp8 tensor throughput on the chip");

    const Json& backends = f.array(p, "backends", ptr);
    if (backends.empty())
        f.fail(ptr + "/backends", "expected at least one backend");
    for (std::size_t i = 0; i < backends.size(); ++i) {
        const std::string bptr = ptr + "/backends/" + std::to_string(i);
        const std::string b = backends[i].is_string() ? backends[i].get<std::string>() : "";
        if (!parseBackend(b))
            f.fail(bptr, "expected a backend name: " + backendNames());
        if (std::find(s.backends.begin(), s.backends.end(), b) != s.backends.end())
            f.fail(bptr, "duplicate backend '" + b + "'");
        s.backends.push_back(b);
    }
    return s;
}

} // namespace

const PlatformSpec* PlatformsFile::find(const std::string& id) const
{
    for (const PlatformSpec& p : platforms)
        if (p.platform.id == id)
            return &p;
    return nullptr;
}

PlatformsFile parsePlatformsFile(const Json& j, const std::string& file)
{
    const JsonFields f(file);
    if (!j.is_object())
        f.fail("", "expected a platforms object");
    PlatformsFile out;
    out.file = file;
    out.schemaVersion = f.schemaVersion(j, 1, kPlatformsSchemaVersion);
    if (f.string(j, "kind", "") != "acsel-platforms")
        f.fail("/kind", "expected \"acsel-platforms\"");
    const Json& mem = f.object(j, "memory_op_model", "");
    const double bwScaling = f.number(mem, "bw_scaling", "/memory_op_model",
                                      plausible::kMinBwScaling, plausible::kMaxBwScaling);
    const double constantS = f.number(mem, "constant_latency_us", "/memory_op_model", 0,
                                      plausible::kMaxMemConstantLatencyS * 1e6) *
                             1e-6;
    if (f.string(mem, "source", "/memory_op_model").empty())
        f.fail("/memory_op_model/source", "expected the source of these numbers");
    const Json& list = f.array(j, "platforms", "");
    if (list.empty())
        f.fail("/platforms", "expected at least one platform");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string ptr = "/platforms/" + std::to_string(i);
        PlatformSpec s = parsePlatform(f, list[i], ptr, bwScaling, constantS);
        if (out.find(s.platform.id))
            f.fail(ptr + "/id", "duplicate platform id '" + s.platform.id + "'");
        out.platforms.push_back(std::move(s));
    }
    return out;
}

PlatformsFile loadPlatformsFile(const std::string& path)
{
    return parsePlatformsFile(parseJsonFile(path), path);
}

} // namespace acsel
