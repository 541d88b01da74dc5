#include "core/search/blockqualitybound.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace acsel
{

BlockQualityBound::BlockQualityBound(const FracMixTable& table)
{
    std::map<int, int> known; // quality group -> groups_ index
    const auto contexts = static_cast<int>(table.contexts().size());
    for (int c = 0; c < contexts; ++c) {
        const auto [at, added] =
            known.try_emplace(table.qualityGroup(c), static_cast<int>(groups_.size()));
        groupOfContext_.push_back(at->second);
        if (!added)
            continue;
        const ConfigSpace& space = table.space(c);
        Group g;
        g.layers = space.numLayers();
        g.choices = static_cast<int>(space.bandChoices().size());
        for (int i = 0; i < g.choices; ++i) {
            const FormatScope& fs = space.bandChoices()[static_cast<std::size_t>(i)];
            g.choiceOfSlot[static_cast<std::size_t>(choiceSlot(fs.format, fs.scope))] = i;
        }
        const auto n = static_cast<std::size_t>(g.choices);
        const auto stride = static_cast<std::size_t>(g.layers) + 1;
        g.lowerSuffix.assign(kAlgorithmCount * n * n * stride, 0.0);
        for (Algorithm a : kAllAlgorithms) {
            const SurrogateTerms& terms = table.qualityTerms(c, a);
            g.terms[static_cast<std::size_t>(a)] = &terms;
            const auto term = [&](std::size_t choice, int l) {
                const FormatScope& fs = space.bandChoices()[choice];
                return terms.rangeSum(fs.format, fs.scope, l, l + 1);
            };
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t j = 0; j < n; ++j) {
                    double* suffix =
                        &g.lowerSuffix[((static_cast<std::size_t>(a) * n + i) * n + j) * stride];
                    for (int l = g.layers - 1; l >= 0; --l)
                        suffix[l] = suffix[l + 1] + std::min(term(i, l), term(j, l));
                }
        }
        groups_.push_back(std::move(g));
    }
}

double BlockQualityBound::lowest(int context, const BandRecipe& first) const
{
    const Group& g =
        groups_[static_cast<std::size_t>(groupOfContext_[static_cast<std::size_t>(context)])];
    const int bands = first.size();
    const auto n = static_cast<std::size_t>(g.choices);
    const auto stride = static_cast<std::size_t>(g.layers) + 1;
    const auto choice = [&](const Band& b) {
        return static_cast<std::size_t>(
            g.choiceOfSlot[static_cast<std::size_t>(choiceSlot(b.format, b.scope))]);
    };
    double lowestLog = std::numeric_limits<double>::infinity();
    for (Algorithm a : kAllAlgorithms) {
        const SurrogateTerms& t = *g.terms[static_cast<std::size_t>(a)];
        double sum = t.constant;
        if (bands == 1) {
            sum += t.rangeSum(first[0].format, first[0].scope, first[0].begin, first[0].end);
        } else {
            for (int i = 0; i + 2 < bands; ++i)
                sum += t.rangeSum(first[i].format, first[i].scope, first[i].begin, first[i].end);
            const Band& b = first[bands - 2];
            sum += g.lowerSuffix[((static_cast<std::size_t>(a) * n + choice(b)) * n +
                                  choice(first[bands - 1])) *
                                     stride +
                                 static_cast<std::size_t>(b.begin)];
        }
        if (std::isnan(sum))
            return 0;
        lowestLog = std::min(lowestLog, sum);
    }
    // A little lower, so that summing per layer rather than per band (prefix differences)
    // cannot round it above a recipe's own value (as FracMixTable::lowestRmqd).
    return std::exp(lowestLog - 1e-9);
}

} // namespace acsel
