// The empirical model's coefficients: log-utilisation u = (SOL roof + constant) / measured on
// grids of integer log2 shape nodes, per operator class, backend ("*" = all backends pooled)
// and variant (GEMM format, or attention KV format). Fitted by utilisationfit.h from measured
// operator tables, stored as datasets/utilisation.json (schema below, docs/GPUS.md).
//
// A lookup interpolates log u multilinearly in log2 of the shape, clamped to the fitted
// range (utilisation held beyond it). A backend grid overlays the pooled grid; nodes empty in
// both take the mean of their filled neighbours (utilisation held outward).
#pragma once

#include "core/data/jsonfields.h"
#include "core/latency/solopcosts.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

inline constexpr int kUtilisationSchemaVersion = 1;
inline constexpr const char* kAllBackends = "*";

// AllReduce: NCCL's all-reduce of bf16 over the GPUs of a node, by interconnect (the variant),
// for tensor parallelism on GPUs without the engines' all-reduce tables.
enum class OpClass : std::uint8_t { Gemm, ContextAttention, GenerationAttention, AllReduce };
inline constexpr int kOpClassCount = 4;
std::string_view toString(OpClass op);

// Integer log2 nodes lo..hi of one shape axis.
struct UtilAxis {
    std::string name;
    int lo = 0, hi = 0;
    int size() const { return hi - lo + 1; }
};

// The fixed node ranges (the measured tables' ranges): GEMM m 1..32768, n and k 32..65536;
// context batch 1..256, isl 1..16384; generation batch 1..2048, KV length 2..131072;
// all-reduce 2..8 GPUs, 256..2^28 elements (NCCL's tables).
const std::vector<UtilAxis>& utilAxes(OpClass op);
int utilNodeCount(OpClass op);

struct UtilGrid {
    OpClass op = OpClass::Gemm;
    std::string backend = kAllBackends;
    std::string variant;      // format name (GEMM) or KV format name (attention)
    int samples = 0;          // table entries behind it
    std::vector<double> logU; // row-major over utilAxes(op); NaN = no data
};

// Error of predicted against measured table entries for one scope (a GPU or a stack).
struct ApeSummary {
    std::string scope; // "l40s" or "l40s/vllm"
    OpClass op = OpClass::Gemm;
    std::string variant; // empty: all variants of the op class
    int count = 0;
    double medianApe = 0, p90Ape = 0; // fractions (0.12 = 12%)
};

struct UtilisationModel {
    double solConstantMs = kDefaultSolConstantMs;
    std::vector<UtilGrid> grids;
    std::vector<std::string> fittedStacks;  // "system/backend" of the tables used
    std::string command;                    // the command that wrote the file
    std::vector<ApeSummary> inSample;       // per stack and per GPU, fitted on everything
    std::vector<ApeSummary> leaveOneGpuOut; // per GPU, fitted on the other GPUs

    const UtilGrid* find(OpClass op, std::string_view backend, std::string_view variant) const;
    int parameterCount() const; // stored (non-empty) grid values
};

// A complete grid for one (op, backend, variant), resolved at construction with the
// fallbacks; at() is allocation-free.
class ResolvedUtilGrid
{
public:
    ResolvedUtilGrid() = default;
    // Fallbacks: backend grid node -> pooled grid node -> filled from neighbours; a variant
    // without a pooled grid uses fallbackVariant's. usedFallback() reports the latter.
    ResolvedUtilGrid(const UtilisationModel& m, OpClass op, std::string_view backend,
                     std::string_view variant, std::string_view fallbackVariant);
    bool valid() const { return !values_.empty(); }
    bool usedFallback() const { return usedFallback_; }
    // log u at shape (x0, x1[, x2]) in natural units (not log2).
    double logUtilisation(double x0, double x1, double x2 = 1.0) const;

private:
    std::array<int, 3> lo_{}, size_{1, 1, 1};
    std::vector<double> values_;
    bool usedFallback_ = false;
};

Json utilisationToJson(const UtilisationModel& m);
// The file text: the JSON above laid out one grid per line.
std::string utilisationToText(const UtilisationModel& m);
// Throws LoadError with the JSON pointer of the offending field.
UtilisationModel parseUtilisation(const Json& j, const std::string& file);
UtilisationModel loadUtilisationFile(const std::string& path);

} // namespace acsel
