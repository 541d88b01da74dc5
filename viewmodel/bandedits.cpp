#include "viewmodel/bandedits.h"

#include "core/model/configspace.h"

#include <algorithm>

namespace acsel::gui
{

namespace
{
std::optional<BandRecipe> legal(const BandRecipe& r)
{
    const BandRecipe c = canonical(r);
    if (!c.validate(c.numLayers()).empty() || !ConfigSpace::hasFittingAlgorithm(c))
        return std::nullopt;
    return c;
}
} // namespace

BandRecipe canonical(const BandRecipe& r)
{
    BandRecipe out;
    for (Band b : r) {
        if (b.format == Format::Bf16)
            b.scope = Scope::Full;
        if (out.size() > 0) {
            Band& last = out[out.size() - 1];
            if (last.format == b.format && last.scope == b.scope) {
                last.end = b.end;
                continue;
            }
        }
        out.push(b);
    }
    return out;
}

std::optional<BandRecipe> moveCut(const BandRecipe& r, int cut, int layer)
{
    if (cut < 0 || cut + 1 >= r.size())
        return std::nullopt;
    BandRecipe out = r;
    layer = std::clamp(layer, r[cut].begin + 1, r[cut + 1].end - 1);
    out[cut].end = layer;
    out[cut + 1].begin = layer;
    return legal(out);
}

std::optional<BandRecipe> setBand(const BandRecipe& r, int band, Format f, Scope s)
{
    if (band < 0 || band >= r.size())
        return std::nullopt;
    BandRecipe out = r;
    out[band].format = f;
    out[band].scope = s;
    return legal(out);
}

std::optional<BandRecipe> splitBand(const BandRecipe& r, int band, int layer, Format f, Scope s)
{
    if (band < 0 || band >= r.size() || r.size() >= BandRecipe::kMaxBands ||
        layer <= r[band].begin || layer >= r[band].end)
        return std::nullopt;
    BandRecipe out;
    for (int i = 0; i < r.size(); ++i) {
        if (i != band) {
            out.push(r[i]);
            continue;
        }
        out.push({r[i].begin, layer, r[i].format, r[i].scope});
        out.push({layer, r[i].end, f, s});
    }
    // A split whose new part equals its neighbour would silently undo itself: refuse it.
    const std::optional<BandRecipe> c = legal(out);
    return c && c->size() == out.size() ? c : std::nullopt;
}

std::optional<BandRecipe> mergeWithNext(const BandRecipe& r, int band)
{
    if (band < 0 || band + 1 >= r.size())
        return std::nullopt;
    return setBand(r, band + 1, r[band].format, r[band].scope);
}

std::optional<BandRecipe> mergeIntoNext(const BandRecipe& r, int band)
{
    if (band < 0 || band + 1 >= r.size())
        return std::nullopt;
    return setBand(r, band, r[band + 1].format, r[band + 1].scope);
}

} // namespace acsel::gui
