// The legal band recipes of a model on a stack, enumerated without allocation and counted.
// Legality (METHOD.md 1, EXPORT.md 3): 1-3 contiguous bands in canonical form (neighbours
// differ), formats the stack has, and at least one global algorithm that fits every band.
// Fused groups (q/k/v, gate/up) share a format by construction: a scope quantizes whole groups.
#pragma once

#include "core/model/bandrecipe.h"
#include "core/model/config.h"

#include <cstdint>
#include <type_traits>
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

    // Calls f(const BandRecipe&) for every legal recipe: uniform first, then 2-band, 3-band;
    // within a band count in lexicographic order of (cuts, choices). No allocation. If f returns
    // bool, false stops the enumeration (and forEachRecipe returns false).
    template <class F> bool forEachRecipe(F&& f) const;

private:
    int numLayers_;
    SpaceOptions options_;
    std::vector<FormatScope> choices_;
};

template <class F> bool ConfigSpace::forEachRecipe(F&& f) const
{
    const int L = numLayers_;
    const auto n = static_cast<int>(choices_.size());
    BandRecipe r;
    // Returns false when f asked to stop.
    auto visit = [&](int bandCount, const int* cuts, const int* pick) -> bool {
        r = BandRecipe{};
        int begin = 0;
        for (int b = 0; b < bandCount; ++b) {
            const int end = b + 1 < bandCount ? cuts[b] : L;
            const FormatScope& c = choices_[static_cast<std::size_t>(pick[b])];
            r.push({begin, end, c.format, c.scope});
            begin = end;
        }
        if (!hasFittingAlgorithm(r))
            return true;
        if constexpr (std::is_same_v<std::invoke_result_t<F&, const BandRecipe&>, bool>)
            return f(static_cast<const BandRecipe&>(r));
        f(static_cast<const BandRecipe&>(r));
        return true;
    };
    int pick[3] = {0, 0, 0};
    int cuts[2] = {0, 0};
    for (pick[0] = 0; pick[0] < n; ++pick[0])
        if (!visit(1, cuts, pick))
            return false;
    if (options_.maxBands >= 2)
        for (cuts[0] = 1; cuts[0] < L; ++cuts[0])
            for (pick[0] = 0; pick[0] < n; ++pick[0])
                for (pick[1] = 0; pick[1] < n; ++pick[1])
                    if (pick[1] != pick[0] && !visit(2, cuts, pick))
                        return false;
    if (options_.maxBands >= 3)
        for (cuts[0] = 1; cuts[0] < L; ++cuts[0])
            for (cuts[1] = cuts[0] + 1; cuts[1] < L; ++cuts[1])
                for (pick[0] = 0; pick[0] < n; ++pick[0])
                    for (pick[1] = 0; pick[1] < n; ++pick[1])
                        for (pick[2] = 0; pick[2] < n; ++pick[2])
                            if (pick[1] != pick[0] && pick[2] != pick[1] && !visit(3, cuts, pick))
                                return false;
    return true;
}

} // namespace acsel
