#include "core/model/bandrecipe.h"

#include <stdexcept>

namespace acsel
{

BandRecipe BandRecipe::uniform(int numLayers, Format f, Scope s)
{
    BandRecipe r;
    r.push({0, numLayers, f, f == Format::Bf16 ? Scope::Full : s});
    return r;
}

BandRecipe BandRecipe::fromCuts(int numLayers, std::initializer_list<int> cuts,
                                std::initializer_list<std::pair<Format, Scope>> bands)
{
    if (bands.size() != cuts.size() + 1)
        throw std::invalid_argument("BandRecipe::fromCuts: need one more band than cuts");
    BandRecipe r;
    int begin = 0;
    auto cut = cuts.begin();
    for (const auto& [format, scope] : bands) {
        const int end = cut == cuts.end() ? numLayers : *cut++;
        r.push({begin, end, format, format == Format::Bf16 ? Scope::Full : scope});
        begin = end;
    }
    return r;
}

const Band& BandRecipe::bandOf(int layer) const
{
    for (int i = 0; i < count_ - 1; ++i)
        if (layer < bands_[static_cast<std::size_t>(i)].end)
            return bands_[static_cast<std::size_t>(i)];
    return bands_[static_cast<std::size_t>(count_ - 1)];
}

void BandRecipe::push(Band b)
{
    if (count_ >= kMaxBands)
        throw std::length_error("BandRecipe: at most 3 bands");
    bands_[static_cast<std::size_t>(count_++)] = b;
}

std::string BandRecipe::validate(int numLayers) const
{
    if (count_ < 1 || count_ > kMaxBands)
        return "a recipe needs 1 to 3 bands, got " + std::to_string(count_);
    int expected = 0;
    for (int i = 0; i < count_; ++i) {
        const Band& b = bands_[static_cast<std::size_t>(i)];
        const std::string which = "band " + std::to_string(i + 1);
        if (b.begin != expected)
            return which + " starts at layer " + std::to_string(b.begin) + ", expected " +
                   std::to_string(expected) + " (bands must be contiguous from layer 0)";
        if (b.end <= b.begin)
            return which + " is empty (layers " + std::to_string(b.begin) + ".." +
                   std::to_string(b.end - 1) + ")";
        if (b.format == Format::Bf16 && b.scope != Scope::Full)
            return which + " is bf16 with scope " + std::string(toString(b.scope)) +
                   "; a bf16 band quantizes nothing, so its scope is full";
        if (i > 0) {
            const Band& prev = bands_[static_cast<std::size_t>(i - 1)];
            if (prev.format == b.format && prev.scope == b.scope)
                return which + " repeats the format and scope of band " + std::to_string(i) +
                       "; merge them";
        }
        expected = b.end;
    }
    if (expected != numLayers)
        return "bands end at layer " + std::to_string(expected) + " but the model has " +
               std::to_string(numLayers) + " layers";
    return {};
}

std::string BandRecipe::describe(bool moe) const
{
    std::string out;
    for (int i = 0; i < count_; ++i) {
        const Band& b = bands_[static_cast<std::size_t>(i)];
        if (i > 0)
            out += " | ";
        out += std::to_string(b.begin) + "-" + std::to_string(b.end - 1) + " " +
               std::string(toString(b.format));
        if (b.format != Format::Bf16)
            out += "/" + std::string(toString(b.scope, moe));
    }
    return out;
}

bool BandRecipe::operator==(const BandRecipe& o) const
{
    if (count_ != o.count_)
        return false;
    for (int i = 0; i < count_; ++i)
        if (!(bands_[static_cast<std::size_t>(i)] == o.bands_[static_cast<std::size_t>(i)]))
            return false;
    return true;
}

} // namespace acsel
