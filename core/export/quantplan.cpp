#include "core/export/quantplan.h"

#include "core/model/configspace.h"

#include <algorithm>

namespace acsel
{

QuantPlan planOf(const Config& c, int numLayers)
{
    QuantPlan p;
    p.layers.resize(static_cast<std::size_t>(numLayers));
    for (const Band& b : c.recipe)
        for (int i = b.begin; i < b.end; ++i)
            for (Linear l : kAllLinears)
                p.layers[static_cast<std::size_t>(i)][static_cast<std::size_t>(l)] =
                    linearFormat(b, l);
    p.lmHead = c.lmHeadQuantized ? c.recipe[c.recipe.size() - 1].format : Format::Bf16;
    p.kv = c.kv;
    p.algorithm = c.algorithm;
    return p;
}

namespace
{

using LayerFormats = std::array<Format, kLinearCount>;

Format at(const LayerFormats& f, Linear l)
{
    return f[static_cast<std::size_t>(l)];
}

std::string fmt(Format f)
{
    return std::string(toString(f));
}

// The (format, scope) of a layer, or nullopt with the reason in `why`.
std::optional<FormatScope> layerBand(const LayerFormats& f, int layer, std::string& why)
{
    const std::string name = "layer " + std::to_string(layer) + ": ";
    if (at(f, Linear::Q) != at(f, Linear::K) || at(f, Linear::Q) != at(f, Linear::V)) {
        why = name + "q_proj, k_proj and v_proj are " + fmt(at(f, Linear::Q)) + ", " +
              fmt(at(f, Linear::K)) + " and " + fmt(at(f, Linear::V)) +
              "; they are fused on export and must share one format";
        return std::nullopt;
    }
    if (at(f, Linear::Gate) != at(f, Linear::Up)) {
        why = name + "gate_proj is " + fmt(at(f, Linear::Gate)) + " but up_proj is " +
              fmt(at(f, Linear::Up)) + "; they are fused on export and must share one format";
        return std::nullopt;
    }
    const Format attn = at(f, Linear::Q), mlp = at(f, Linear::Gate);
    const bool attnUniform = at(f, Linear::O) == attn;
    const bool mlpUniform = at(f, Linear::Down) == mlp;
    if (attnUniform && mlpUniform) {
        if (attn == mlp)
            return FormatScope{attn, Scope::Full};
        if (mlp == Format::Bf16)
            return FormatScope{attn, Scope::Attn};
        if (attn == Format::Bf16)
            return FormatScope{mlp, Scope::Mlp};
    }
    why = name + "its linears use more than one quantized format (attention " + fmt(attn) + "/" +
          fmt(at(f, Linear::O)) + ", MLP " + fmt(mlp) + "/" + fmt(at(f, Linear::Down)) +
          "); a band quantizes a whole layer, or only its attention or its MLP, in one format";
    return std::nullopt;
}

} // namespace

std::optional<BandRecipe> recipeOfPlan(const QuantPlan& p, std::vector<std::string>& problems)
{
    const std::size_t before = problems.size();
    std::vector<Band> bands;
    for (std::size_t i = 0; i < p.layers.size(); ++i) {
        std::string why;
        const auto fs = layerBand(p.layers[i], static_cast<int>(i), why);
        if (!fs) {
            problems.push_back(why);
            continue;
        }
        const int layer = static_cast<int>(i);
        if (!bands.empty() && bands.back().end == layer && bands.back().format == fs->format &&
            bands.back().scope == fs->scope)
            bands.back().end = layer + 1;
        else
            bands.push_back({layer, layer + 1, fs->format, fs->scope});
    }
    if (p.layers.empty())
        problems.push_back("the recipe covers no decoder layer");
    if (problems.size() != before)
        return std::nullopt;
    if (bands.size() > static_cast<std::size_t>(BandRecipe::kMaxBands)) {
        std::string list;
        for (const Band& b : bands)
            list += (list.empty() ? "" : " | ") + std::to_string(b.begin) + "-" +
                    std::to_string(b.end - 1) + " " + fmt(b.format) + "/" +
                    std::string(toString(b.scope));
        problems.push_back("the layers form " + std::to_string(bands.size()) + " bands (" + list +
                           "); a recipe has at most 3");
        return std::nullopt;
    }
    BandRecipe r;
    for (const Band& b : bands)
        r.push(b);
    const Format last = r[r.size() - 1].format;
    if (p.lmHead != Format::Bf16 && p.lmHead != last) {
        problems.push_back("lm_head is " + fmt(p.lmHead) + " but the last band is " + fmt(last) +
                           "; a quantized lm_head runs at the last band's format");
        return std::nullopt;
    }
    return r;
}

std::vector<Format> quantizedFormats(const QuantPlan& plan)
{
    std::vector<Format> out;
    auto add = [&out](Format f) {
        if (f != Format::Bf16 && std::find(out.begin(), out.end(), f) == out.end())
            out.push_back(f);
    };
    for (const auto& layer : plan.layers)
        for (Format f : layer)
            add(f);
    add(plan.lmHead);
    return out;
}

} // namespace acsel
