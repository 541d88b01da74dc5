// The ModelOpt quantizer attributes (QuantizerAttributeConfig subset) of each of our formats,
// exactly as EXPORT.md's table fixes them, and the reverse mapping used when a recipe file is
// read back. One value type serves both writers (YAML spells num_bits "e4m3", the legacy JSON
// [4, 3]).
#pragma once

#include "core/model/format.h"

#include <cstdint>
#include <optional>
#include <string_view>

namespace acsel
{

enum class NumBits : std::uint8_t { Int4, Int8, E4M3, E2M1 };
// axis: absent from the cfg, null (per tensor), or 0 (per output channel).
enum class Axis : std::uint8_t { Absent, None, Zero };
enum class BlockType : std::uint8_t { Absent, Static, Dynamic };

struct Numerics {
    NumBits bits = NumBits::Int8;
    Axis axis = Axis::Absent;
    int blockLast = 0;   // block_sizes[-1]; 0: no block_sizes
    int blockSecond = 0; // block_sizes[-2]; 0: none
    BlockType blockType = BlockType::Absent;
    std::optional<NumBits> scaleBits; // block_sizes.scale_bits
    bool operator==(const Numerics&) const = default;
};

// A format's weight and input quantizers; nullopt means the quantizer stays disabled.
struct FormatNumerics {
    std::optional<Numerics> weight;
    std::optional<Numerics> input;
    bool operator==(const FormatNumerics&) const = default;
};

FormatNumerics numericsOf(Format f);
// The KV-cache (k/v bmm) quantizer of an fp8 KV cache: {num_bits: e4m3}.
Numerics kvFp8Numerics();
// The format whose numerics these are; nullopt when they match none of ours.
std::optional<Format> formatOfNumerics(const FormatNumerics& n);

// ModelOpt's calibration methods: max, smoothquant, awq_lite (written as {method: awq_lite,
// alpha_step: 0.1}; awq_full and awq_clip read as awq too), gptq.
std::string_view modelOptMethod(Algorithm a);
std::optional<Algorithm> algorithmOfMethod(std::string_view method);

std::string_view yamlName(NumBits b); // "4", "8", "e4m3", "e2m1"
std::optional<NumBits> parseYamlNumBits(std::string_view s);

} // namespace acsel
