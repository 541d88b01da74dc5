// Does a surrogate tell the scopes apart? For every model and quantized format: the predicted
// RMQD of the uniform recipe in attention-only, MLP-only and full scope. Quantizing both tensor
// groups is more quantization than either alone, so full must predict the most, and attention
// and MLP (different tensors, different shares of the weights) should differ.
#pragma once

#include "core/quality/ridgesurrogate.h"

#include <string>
#include <vector>

namespace acsel
{

struct ScopeSpread {
    std::string model;
    Format format = Format::Fp8;
    Algorithm algorithm = Algorithm::Max; // the first algorithm that fits the format
    double attn = 0.0, mlp = 0.0, full = 0.0;
    // full above both, attn != mlp, beyond rounding (relative 1e-9)
    bool separated() const;
};

struct ScopeSeparation {
    std::vector<ScopeSpread> spreads; // by model, then format in ladder order (bf16 left out)
    int separated = 0;
};

ScopeSeparation scopeSeparation(const RidgeSurrogate& surrogate,
                                const std::vector<ModelArch>& models);

} // namespace acsel
