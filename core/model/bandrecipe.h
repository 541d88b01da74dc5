// A band recipe: 1-3 contiguous bands covering layers 0..L-1, each with a format and a scope.
// Fixed-size storage, so recipes are cheap to copy and enumerate without allocation.
#pragma once

#include "core/model/format.h"

#include <array>
#include <string>

namespace acsel
{

struct Band {
    int begin = 0; // first layer
    int end = 0;   // one past the last layer
    Format format = Format::Bf16;
    Scope scope = Scope::Full; // always Full for bf16 (nothing is quantized)
    int layers() const { return end - begin; }
    bool operator==(const Band&) const = default;
};

class BandRecipe
{
public:
    static constexpr int kMaxBands = 3;

    BandRecipe() = default;
    static BandRecipe uniform(int numLayers, Format f, Scope s = Scope::Full);
    // Bands from cut positions: cuts[i] is the first layer of band i+1.
    static BandRecipe fromCuts(int numLayers, std::initializer_list<int> cuts,
                               std::initializer_list<std::pair<Format, Scope>> bands);

    int size() const { return count_; }
    const Band& operator[](int i) const { return bands_[static_cast<std::size_t>(i)]; }
    Band& operator[](int i) { return bands_[static_cast<std::size_t>(i)]; }
    const Band* begin() const { return bands_.data(); }
    const Band* end() const { return bands_.data() + count_; }
    int numLayers() const
    {
        return count_ == 0 ? 0 : bands_[static_cast<std::size_t>(count_ - 1)].end;
    }
    bool isUniform() const { return count_ == 1; }
    // Format and scope of one layer (linear scan over at most three bands).
    const Band& bandOf(int layer) const;

    void push(Band b);
    // Empty when the recipe is well formed for a model of numLayers layers; otherwise why not.
    // Well formed: 1-3 non-empty contiguous bands from 0 to numLayers, bf16 bands with scope
    // full, and neighbouring bands that differ (else they are one band).
    std::string validate(int numLayers) const;
    // "0-9 fp8/full | 10-27 nvfp4/mlp | 28-35 bf16"; with moe the MLP scope reads "experts".
    std::string describe(bool moe = false) const;

    bool operator==(const BandRecipe& o) const;

private:
    std::array<Band, kMaxBands> bands_{};
    int count_ = 0;
};

} // namespace acsel
