// Numerical formats of a layer's linear weights/activations, with the facts the method needs.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace acsel
{

// Order is the ladder position, low bits first within the families (see docs/METHOD.md 1).
enum class Format : std::uint8_t { Nvfp4, Int4Wo, Int8Wo, Int8, Fp8, Fp8Block, Bf16 };
inline constexpr int kFormatCount = 7;
inline constexpr std::array<Format, kFormatCount> kAllFormats = {
    Format::Nvfp4, Format::Int4Wo,   Format::Int8Wo, Format::Int8,
    Format::Fp8,   Format::Fp8Block, Format::Bf16};

enum class Granularity : std::uint8_t {
    None,
    PerTensor,
    PerChannel,
    Block128,
    Block16,
    Block128x128
};

// The peak-throughput class a format's GEMMs run at (system yaml *_tc_flops).
enum class ComputeClass : std::uint8_t { Bf16, Int8, Fp8, Fp4 };

struct FormatFacts {
    std::string_view name;      // our name, used in files and the CLI: "nvfp4", "int8_wo", ...
    std::string_view aicDtype;  // AIC gemm_dtype column value
    int bits;                   // nominal weight bits
    double effectiveBits;       // bits per weight including scales (memory)
    double gemmBytesPerElement; // AIC's bytes per weight element for speed of light
    Granularity granularity;    // default weight-scale granularity
    bool quantizesActivations;  // W8A8 / W4A4 versus weight-only
    ComputeClass compute;       // which tensor-core peak applies
    double granularityCode;     // in [0,1]: 0 none, coarser = higher (quality feature)
};

const FormatFacts& facts(Format f);
inline std::string_view toString(Format f)
{
    return facts(f).name;
}
// Accepts our names ("int8_wo") and AIC dtype names ("bfloat16", "sq", "int8_wo", ...).
std::optional<Format> parseFormat(std::string_view name);
// "nvfp4, int4_wo, int8_wo, int8, fp8, fp8_block or bf16": every message that lists the
// formats reads it from the format table.
std::string formatChoices();
// Bit deficit (16 - bits) / 16 in [0, 1], the monotone quality feature.
inline double bitDeficit(Format f)
{
    return (16.0 - facts(f).bits) / 16.0;
}

// What a band quantizes in each of its layers: every linear, the MLP's, or the attention's.
// On a mixture-of-experts model the MLP scope is named "experts": an MoE layer's MLP weights
// are its routed experts (and a shared expert or a dense layer's MLP where the config has one),
// while its router is never quantized by any scope.
enum class Scope : std::uint8_t { Full, Mlp, Attn };
inline constexpr int kScopeCount = 3;
inline constexpr std::array<Scope, kScopeCount> kAllScopes = {Scope::Full, Scope::Mlp, Scope::Attn};
// "full", "mlp" ("experts" with moe), "attn".
std::string_view toString(Scope s, bool moe = false);
// Either name of a scope ("experts" is the MLP scope).
std::optional<Scope> parseScope(std::string_view name);
std::string scopeChoices(); // "full, mlp or attn"
// Scope code in [0,1] for the quality surrogate: share of the layer's linear weights quantized
// is model dependent, so the code is categorical: full 1, mlp 2/3, attn 1/3.
double scopeCode(Scope s);

enum class Algorithm : std::uint8_t { Max, SmoothQuant, Awq, Gptq };
inline constexpr int kAlgorithmCount = 4;
inline constexpr std::array<Algorithm, kAlgorithmCount> kAllAlgorithms = {
    Algorithm::Max, Algorithm::SmoothQuant, Algorithm::Awq, Algorithm::Gptq};
std::string_view toString(Algorithm a);
std::optional<Algorithm> parseAlgorithm(std::string_view name);
// Whether one global calibration algorithm can serve a band of this format (docs/EXPORT.md,
// "Exportability rules"): bf16 bands fit every algorithm; int8 (W8A8) needs SmoothQuant; int4_wo
// needs AWQ or GPTQ; int8_wo takes max or GPTQ; fp8, fp8_block and nvfp4 take max only.
// The same as a bit mask over algorithms (bit i = Algorithm i), for allocation-free checks
// of whole recipes: a recipe's fitting algorithms are the AND of its bands' masks.
constexpr std::uint8_t algorithmMask(Format f)
{
    constexpr std::uint8_t max = 1u << 0, sq = 1u << 1, awq = 1u << 2, gptq = 1u << 3;
    switch (f) {
    case Format::Bf16:
        return max | sq | awq | gptq;
    case Format::Int8:
        return sq;
    case Format::Int4Wo:
        return awq | gptq;
    case Format::Int8Wo:
        return max | gptq;
    case Format::Fp8:
    case Format::Fp8Block:
    case Format::Nvfp4:
        return max;
    }
    return 0;
}
constexpr bool algorithmFits(Algorithm a, Format f)
{
    return ((static_cast<unsigned>(algorithmMask(f)) >> static_cast<unsigned>(a)) & 1u) != 0;
}
// The algorithm a uniform configuration of the format is calibrated with by default: AWQ for
// int4_wo, SmoothQuant for int8 (W8A8), max otherwise. It fits the format.
constexpr Algorithm uniformAlgorithm(Format f)
{
    return f == Format::Int4Wo ? Algorithm::Awq
           : f == Format::Int8 ? Algorithm::SmoothQuant
                               : Algorithm::Max;
}
static_assert(algorithmFits(uniformAlgorithm(Format::Int4Wo), Format::Int4Wo) &&
              algorithmFits(uniformAlgorithm(Format::Int8), Format::Int8) &&
              algorithmFits(uniformAlgorithm(Format::Int8Wo), Format::Int8Wo) &&
              algorithmFits(uniformAlgorithm(Format::Nvfp4), Format::Nvfp4));

enum class KvFormat : std::uint8_t { Bf16, Fp8 };
std::string_view toString(KvFormat k);
std::optional<KvFormat> parseKvFormat(std::string_view name);
std::string kvFormatChoices(); // "bf16 or fp8"

} // namespace acsel
