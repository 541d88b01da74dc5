#include "core/model/configspace.h"

#include <algorithm>
#include <stdexcept>

namespace acsel
{

ConfigSpace::ConfigSpace(int numLayers, SpaceOptions options)
    : numLayers_(numLayers), options_(std::move(options))
{
    if (numLayers_ < 1)
        throw std::invalid_argument("ConfigSpace: a model needs at least one layer");
    if (options_.maxBands < 1 || options_.maxBands > BandRecipe::kMaxBands)
        throw std::invalid_argument("ConfigSpace: maxBands must be 1, 2 or 3");
    for (Format f : kAllFormats) {
        if (std::find(options_.formats.begin(), options_.formats.end(), f) ==
            options_.formats.end())
            continue;
        if (f == Format::Bf16) {
            choices_.push_back({f, Scope::Full});
            continue;
        }
        for (Scope s : kAllScopes)
            if (std::find(options_.scopes.begin(), options_.scopes.end(), s) !=
                options_.scopes.end())
                choices_.push_back({f, s});
    }
}

std::vector<Algorithm> ConfigSpace::fittingAlgorithms(const BandRecipe& r)
{
    // Nothing quantized: there is nothing to calibrate, so only the plain algorithm counts.
    if (std::all_of(r.begin(), r.end(), [](const Band& b) { return b.format == Format::Bf16; }))
        return {Algorithm::Max};
    std::vector<Algorithm> out;
    for (Algorithm a : kAllAlgorithms)
        if (std::all_of(r.begin(), r.end(),
                        [a](const Band& b) { return algorithmFits(a, b.format); }))
            out.push_back(a);
    return out;
}

bool ConfigSpace::hasFittingAlgorithm(const BandRecipe& r) { return fittingMask(r) != 0; }

std::uint8_t ConfigSpace::fittingMask(const BandRecipe& r)
{
    std::uint8_t mask = 0xF;
    for (const Band& b : r)
        mask &= algorithmMask(b.format);
    return mask;
}

namespace
{

std::int64_t cutCount(int numLayers, int bands)
{
    const std::int64_t gaps = numLayers - 1;
    switch (bands) {
    case 1:
        return 1;
    case 2:
        return std::max<std::int64_t>(gaps, 0);
    case 3:
        return gaps >= 2 ? gaps * (gaps - 1) / 2 : 0;
    }
    return 0;
}

// Visits every canonical choice sequence (neighbours differ) of 1..maxBands bands.
template <class F>
void forEachSequence(const std::vector<FormatScope>& choices, int maxBands, F&& f)
{
    const auto n = static_cast<int>(choices.size());
    BandRecipe r;
    auto make = [&](std::initializer_list<int> picks) {
        r = BandRecipe{};
        int layer = 0;
        for (int p : picks) {
            const FormatScope& c = choices[static_cast<std::size_t>(p)];
            r.push({layer, layer + 1, c.format, c.scope});
            ++layer;
        }
        f(static_cast<const BandRecipe&>(r), static_cast<int>(picks.size()));
    };
    for (int a = 0; a < n; ++a) {
        make({a});
        if (maxBands < 2)
            continue;
        for (int b = 0; b < n; ++b) {
            if (b == a)
                continue;
            make({a, b});
            if (maxBands < 3)
                continue;
            for (int c = 0; c < n; ++c)
                if (c != b)
                    make({a, b, c});
        }
    }
}

} // namespace

std::int64_t ConfigSpace::recipeCount() const
{
    std::int64_t total = 0;
    forEachSequence(choices_, options_.maxBands, [&](const BandRecipe& r, int bands) {
        if (hasFittingAlgorithm(r))
            total += cutCount(numLayers_, bands);
    });
    return total;
}

std::int64_t ConfigSpace::configCount() const
{
    const auto perRecipe =
        static_cast<std::int64_t>(options_.batches.size() * options_.kvFormats.size());
    std::int64_t total = 0;
    forEachSequence(choices_, options_.maxBands, [&](const BandRecipe& r, int bands) {
        const auto algos = static_cast<std::int64_t>(fittingAlgorithms(r).size());
        const bool lastQuantized = r[r.size() - 1].format != Format::Bf16;
        const std::int64_t lmHead = options_.lmHeadQuantizedToo && lastQuantized ? 2 : 1;
        total += cutCount(numLayers_, bands) * algos * perRecipe * lmHead;
    });
    return total;
}

} // namespace acsel
