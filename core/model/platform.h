// A GPU (platform) and a serving stack (platform + backend + operator tables).
#pragma once

#include "core/model/format.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

// How a GPU reaches the others of its node: what the all-reduce of tensor parallelism runs over
// on a stack without all-reduce tables. None: a single-GPU device (no tensor parallelism).
enum class Interconnect : std::uint8_t { None, Pcie, NvLink };
inline constexpr int kInterconnectCount = 3;
std::string_view toString(Interconnect i); // "none", "pcie", "nvlink"
std::optional<Interconnect> parseInterconnect(std::string_view s);

struct Platform {
    std::string id;   // "h100_sxm", "jetson_thor"
    std::string name; // "NVIDIA H100 SXM 80GB"
    double memCapacityBytes = 0;
    double memBandwidth = 0;             // byte/s
    double memBwScaling = 0.8;           // mem_bw_empirical_scaling_factor
    double memConstantLatencyS = 3e-6;   // mem_empirical_constant_latency
    double otherMemBytes = 0;            // runtime overhead (misc.other_mem)
    std::array<double, 4> tensorFlops{}; // dense FLOP/s by ComputeClass (0 = not supported)
    Interconnect interconnect = Interconnect::None;
    double linkBandwidth = 0; // byte/s per GPU and direction over `interconnect`
    int smVersion = 0;
    std::string source; // where the numbers come from

    double peakFlops(ComputeClass c) const { return tensorFlops[static_cast<std::size_t>(c)]; }
};

// How a stack's operator latencies are obtained.
enum class LatencySource : std::uint8_t { Tables, Empirical };

struct Stack {
    std::string id;       // "<system>/<backend>", e.g. "h100_sxm/trtllm"
    std::string backend;  // trtllm, vllm, sglang
    std::string version;  // backend version of the tables
    int platform = 0;     // index into Workspace::platforms
    std::string tableDir; // folder holding the CSV tables (empty without tables)
    LatencySource source = LatencySource::Tables;
    std::vector<Format> formats; // GEMM formats this stack can run (and so export)
    bool kvFp8 = false;          // fp8 KV cache available in the attention tables
    // All-reduce tables for tensor parallelism (empty when absent): the engine's
    // <tableDir>/custom_allreduce_perf.csv and the system's <system>/nccl_perf.csv.
    std::string allReduceFile;
    std::string ncclFile;
    // The stack's fused-MoE table <tableDir>/moe_perf.csv (empty when absent).
    std::string moeFile;
    bool hasAllReduce() const { return !allReduceFile.empty() || !ncclFile.empty(); }

    bool hasFormat(Format f) const;
};

} // namespace acsel
