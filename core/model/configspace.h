// The legal band recipes of a model on a stack, enumerated without allocation and counted.
// Legality (docs/METHOD.md 1, docs/EXPORT.md "Exportability rules"): 1-3 contiguous bands in
// canonical form (neighbours differ), formats the stack has, and at least one global algorithm
// that fits every band. Fused groups (q/k/v, gate/up) share a format: scopes quantize whole groups.
#pragma once

#include "core/model/bandrecipe.h"
#include "core/model/config.h"

#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

namespace acsel
{

struct FormatScope {
    Format format;
    Scope scope;
    bool operator==(const FormatScope&) const = default;
};

struct SpaceOptions {
    std::vector<Format> formats; // formats allowed (bf16 should be among them)
    std::vector<Scope> scopes{kAllScopes.begin(), kAllScopes.end()};
    int maxBands = 3;
    std::vector<int> batches{1}; // batch sizes considered
    std::vector<KvFormat> kvFormats{KvFormat::Bf16};
    bool lmHeadQuantizedToo = false; // also consider quantizing lm_head
};

class ConfigSpace
{
public:
    ConfigSpace(int numLayers, SpaceOptions options);

    int numLayers() const { return numLayers_; }
    const SpaceOptions& options() const { return options_; }
    // The (format, scope) choices of one band: bf16 once, each other format once per scope.
    const std::vector<FormatScope>& bandChoices() const { return choices_; }

    // Legal recipes only (canonical, with at least one fitting algorithm).
    std::int64_t recipeCount() const;
    // Recipes x fitting algorithms x batches x KV formats x lm_head choices.
    std::int64_t configCount() const;
    // Algorithms that fit every band of the recipe.
    static std::vector<Algorithm> fittingAlgorithms(const BandRecipe& r);
    static bool hasFittingAlgorithm(const BandRecipe& r);
    // Bit i set when Algorithm i fits every band (see algorithmMask).
    static std::uint8_t fittingMask(const BandRecipe& r);

    // Calls f(const BandRecipe&) for every legal recipe: uniform first, then 2-band, 3-band;
    // within a band count in lexicographic order of (choices, cuts). No allocation. If f returns
    // bool, false stops the enumeration (and forEachRecipe returns false).
    template <class F> bool forEachRecipe(F&& f) const
    {
        return forEachRecipe(std::forward<F>(f), [](const BandRecipe&, int) { return true; });
    }
    // The same, the recipes taken in blocks: enter(first, n) is called before each block, which
    // is `first` and the n - 1 recipes that follow it, moving the boundary between its last two
    // bands one layer up each (every other band, and every choice, stays). A uniform recipe is
    // a block of its own (n = 1). When enter returns false the block is skipped.
    template <class F, class Enter> bool forEachRecipe(F&& f, Enter&& enter) const;

private:
    int numLayers_;
    SpaceOptions options_;
    std::vector<FormatScope> choices_;
};

template <class F, class Enter> bool ConfigSpace::forEachRecipe(F&& f, Enter&& enter) const
{
    const int L = numLayers_;
    const auto n = static_cast<int>(choices_.size());
    auto call = [&](const BandRecipe& r) -> bool {
        if constexpr (std::is_same_v<std::invoke_result_t<F&, const BandRecipe&>, bool>)
            return f(r);
        f(r);
        return true;
    };
    // Choices outside, cuts inside: legality depends only on the choices, so it is checked
    // once per choice sequence, and the inner loops only move band boundaries.
    BandRecipe r;
    auto start = [&](std::initializer_list<int> picks) {
        r = BandRecipe{};
        for (int p : picks) {
            const FormatScope& c = choices_[static_cast<std::size_t>(p)];
            r.push({0, 0, c.format, c.scope});
        }
        return hasFittingAlgorithm(r);
    };
    for (int a = 0; a < n; ++a) {
        if (!start({a}))
            continue;
        r[0].end = L;
        if (enter(std::as_const(r), 1) && !call(r))
            return false;
    }
    if (options_.maxBands >= 2)
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b) {
                if (b == a || !start({a, b}))
                    continue;
                r[1].end = L;
                r[0].end = r[1].begin = 1;
                if (L < 2 || !enter(std::as_const(r), L - 1))
                    continue;
                for (int c0 = 1; c0 < L; ++c0) {
                    r[0].end = r[1].begin = c0;
                    if (!call(r))
                        return false;
                }
            }
    if (options_.maxBands >= 3)
        for (int a = 0; a < n; ++a)
            for (int b = 0; b < n; ++b)
                for (int c = 0; c < n; ++c) {
                    if (b == a || c == b || !start({a, b, c}))
                        continue;
                    r[2].end = L;
                    for (int c0 = 1; c0 < L; ++c0) {
                        r[0].end = r[1].begin = c0;
                        r[1].end = r[2].begin = c0 + 1;
                        if (c0 + 1 < L && !enter(std::as_const(r), L - 1 - c0))
                            continue;
                        for (int c1 = c0 + 1; c1 < L; ++c1) {
                            r[1].end = r[2].begin = c1;
                            if (!call(r))
                                return false;
                        }
                    }
                }
    return true;
}

} // namespace acsel
