#include "core/model/format.h"

#include "core/model/choicelist.h"

#include <array>

namespace acsel
{
namespace
{

constexpr std::array<FormatFacts, kFormatCount> kFacts = {{
    // name       aic        bits eff   bytes     granularity               act    compute
    {"nvfp4", "nvfp4", 4, 4.5, 9.0 / 16.0, Granularity::Block16, true, ComputeClass::Fp4, 0.25},
    {"int4_wo", "int4_wo", 4, 4.25, 0.5, Granularity::Block128, false, ComputeClass::Bf16, 0.5},
    {"int8_wo", "int8_wo", 8, 8.0, 1.0, Granularity::PerChannel, false, ComputeClass::Bf16, 0.75},
    {"int8", "sq", 8, 8.0, 1.0, Granularity::PerChannel, true, ComputeClass::Int8, 0.75},
    {"fp8", "fp8", 8, 8.0, 1.0, Granularity::PerTensor, true, ComputeClass::Fp8, 1.0},
    {"fp8_block", "fp8_block", 8, 8.0 + 32.0 / (128.0 * 128.0), 1.0, Granularity::Block128x128,
     true, ComputeClass::Fp8, 0.5},
    {"bf16", "bfloat16", 16, 16.0, 2.0, Granularity::None, false, ComputeClass::Bf16, 0.0},
}};

} // namespace

const FormatFacts& facts(Format f)
{
    return kFacts[static_cast<std::size_t>(f)];
}

std::optional<Format> parseFormat(std::string_view name)
{
    for (Format f : kAllFormats) {
        if (facts(f).name == name || facts(f).aicDtype == name)
            return f;
    }
    if (name == "w8a8_sq" || name == "int8_sq")
        return Format::Int8;
    return std::nullopt;
}

std::string_view toString(Scope s, bool moe)
{
    switch (s) {
    case Scope::Full:
        return "full";
    case Scope::Mlp:
        return moe ? "experts" : "mlp";
    case Scope::Attn:
        return "attn";
    }
    return "?";
}

std::optional<Scope> parseScope(std::string_view name)
{
    for (Scope s : kAllScopes)
        if (toString(s) == name || toString(s, true) == name)
            return s;
    return std::nullopt;
}

double scopeCode(Scope s)
{
    switch (s) {
    case Scope::Full:
        return 1.0;
    case Scope::Mlp:
        return 2.0 / 3.0;
    case Scope::Attn:
        return 1.0 / 3.0;
    }
    return 0.0;
}

std::string_view toString(Algorithm a)
{
    switch (a) {
    case Algorithm::Max:
        return "max";
    case Algorithm::SmoothQuant:
        return "smoothquant";
    case Algorithm::Awq:
        return "awq";
    case Algorithm::Gptq:
        return "gptq";
    }
    return "?";
}

std::optional<Algorithm> parseAlgorithm(std::string_view name)
{
    for (Algorithm a : kAllAlgorithms)
        if (toString(a) == name)
            return a;
    return std::nullopt;
}

std::string_view toString(KvFormat k)
{
    return k == KvFormat::Fp8 ? "fp8" : "bf16";
}

std::optional<KvFormat> parseKvFormat(std::string_view name)
{
    if (name == "bf16" || name == "bfloat16")
        return KvFormat::Bf16;
    if (name == "fp8")
        return KvFormat::Fp8;
    return std::nullopt;
}

std::string formatChoices()
{
    return choiceList(kAllFormats, [](Format f) { return toString(f); });
}

std::string scopeChoices()
{
    return choiceList(kAllScopes, [](Scope x) { return toString(x); });
}

std::string kvFormatChoices()
{
    return choiceList(std::array{KvFormat::Bf16, KvFormat::Fp8},
                      [](KvFormat k) { return toString(k); });
}

} // namespace acsel
