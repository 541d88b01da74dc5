// What a configuration quantizes, linear by linear: the form every exporter writes from, and
// the form a recipe read back from a file is checked in before it becomes a Config again.
#pragma once

#include "core/export/modulenames.h"
#include "core/model/config.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace acsel
{

struct QuantPlan {
    std::vector<std::array<Format, kLinearCount>> layers; // per layer, per linear (bf16 = none)
    Format lmHead = Format::Bf16;
    KvFormat kv = KvFormat::Bf16;
    Algorithm algorithm = Algorithm::Max;
    bool operator==(const QuantPlan&) const = default;
};

// The format a band gives one of its linears (bf16 outside the band's scope).
inline Format linearFormat(const Band& b, Linear l)
{
    return inScope(b.scope, l) ? b.format : Format::Bf16;
}

// Expands a well-formed recipe (BandRecipe::validate passed) over numLayers layers.
QuantPlan planOf(const Config& c, int numLayers);

// The weight formats the checkpoint carries (lm_head included), bf16 left out, in first-seen
// order.
std::vector<Format> quantizedFormats(const QuantPlan& plan);

// The band recipe a plan describes, or nullopt with one message per reason it cannot be one:
// fused groups (q/k/v, gate/up) in different formats, a layer mixing formats, more than three
// bands, lm_head in a format other than the last band's.
std::optional<BandRecipe> recipeOfPlan(const QuantPlan& p, std::vector<std::string>& problems);

} // namespace acsel
