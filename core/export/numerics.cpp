#include "core/export/numerics.h"

namespace acsel
{

namespace
{

Numerics make(NumBits bits, Axis axis, int blockLast = 0, int blockSecond = 0,
              BlockType type = BlockType::Absent, std::optional<NumBits> scaleBits = std::nullopt)
{
    Numerics n;
    n.bits = bits;
    n.axis = axis;
    n.blockLast = blockLast;
    n.blockSecond = blockSecond;
    n.blockType = type;
    n.scaleBits = scaleBits;
    return n;
}

} // namespace

FormatNumerics numericsOf(Format f)
{
    switch (f) {
    case Format::Bf16:
        return {};
    case Format::Fp8:
        return {make(NumBits::E4M3, Axis::None), make(NumBits::E4M3, Axis::None)};
    case Format::Int8:
        return {make(NumBits::Int8, Axis::Zero), make(NumBits::Int8, Axis::None)};
    case Format::Int8Wo:
        return {make(NumBits::Int8, Axis::Zero), std::nullopt};
    case Format::Int4Wo:
        return {make(NumBits::Int4, Axis::Absent, 128, 0, BlockType::Static), std::nullopt};
    case Format::Nvfp4: {
        const Numerics n =
            make(NumBits::E2M1, Axis::Absent, 16, 0, BlockType::Dynamic, NumBits::E4M3);
        return {n, n};
    }
    case Format::Fp8Block:
        // ModelOpt's fp8_2d_blockwise W8A8 preset: 128x128 weight blocks, dynamic 1x128
        // activation groups (not in EXPORT.md's table; see docs/EXPORT.md).
        return {make(NumBits::E4M3, Axis::Absent, 128, 128),
                make(NumBits::E4M3, Axis::Absent, 128, 0, BlockType::Dynamic)};
    }
    return {};
}

Numerics kvFp8Numerics()
{
    return make(NumBits::E4M3, Axis::Absent);
}

std::optional<Format> formatOfNumerics(const FormatNumerics& n)
{
    for (Format f : kAllFormats)
        if (numericsOf(f) == n)
            return f;
    return std::nullopt;
}

std::string_view modelOptMethod(Algorithm a)
{
    switch (a) {
    case Algorithm::Max:
        return "max";
    case Algorithm::SmoothQuant:
        return "smoothquant";
    case Algorithm::Awq:
        return "awq_lite";
    case Algorithm::Gptq:
        return "gptq";
    }
    return "?";
}

std::optional<Algorithm> algorithmOfMethod(std::string_view m)
{
    if (m == "awq_full" || m == "awq_clip")
        return Algorithm::Awq;
    for (Algorithm a : kAllAlgorithms)
        if (modelOptMethod(a) == m)
            return a;
    return std::nullopt;
}

std::string_view yamlName(NumBits b)
{
    switch (b) {
    case NumBits::Int4:
        return "4";
    case NumBits::Int8:
        return "8";
    case NumBits::E4M3:
        return "e4m3";
    case NumBits::E2M1:
        return "e2m1";
    }
    return "?";
}

std::optional<NumBits> parseYamlNumBits(std::string_view s)
{
    for (NumBits b : {NumBits::Int4, NumBits::Int8, NumBits::E4M3, NumBits::E2M1})
        if (yamlName(b) == s)
            return b;
    return std::nullopt;
}

} // namespace acsel
