// The order of answers: the lowest predicted RMQD; at equal RMQD fewer GPUs (the
// tensor-parallel degree: quality does not depend on it, and a GPU saved serves another
// replica), then the lower calibrated normalised latency, then the smaller memory, then fewer
// bands; configurations equal in all of these (the quality surrogate aggregates layers per depth
// third, so moving a cut within a third changes no prediction) by a fixed order of the
// configuration itself, so the answer never depends on the order in which a searcher met them.
// Every searcher and the brute-force reference of the tests rank admitted configurations by it.
// "Equal" is equal at float precision (7 digits): the same model summed band by band or over the
// whole model differs in the last bits of a double, and such rounding must not beat a real
// preference (a three-band recipe an ulp smaller than the uniform one it equals). Rounding to float
// is monotone, so the order stays a strict weak order and a stream in RMQD order stays in order.
#pragma once

#include "core/search/gate.h"

#include <algorithm>
#include <tuple>

namespace acsel
{

struct AnswerKey {
    double rmqd = 0;        // the search's predicted RMQD (FracMixTable's decomposition)
    int gpus = 1;           // Config::tp
    double normLatency = 0; // max(TTFT / budget, TPOT / budget), calibrated full estimate
    double memoryBytes = 0;
    int bands = 0;
    Config config; // the last resort: model, batch, KV, bands (end, format, scope), algorithm
};

inline AnswerKey answerKey(double rmqd, const Prediction& p, const Config& c, const Request& q)
{
    return {rmqd,
            c.tp,
            std::max(p.ttftMs / q.ttftBudgetMs, p.tpotMs / q.tpotBudgetMs),
            p.memoryBytes,
            c.recipe.size(),
            c};
}

// A fixed total order of recipes: fewer bands first, then the bands' ends, formats, scopes.
inline bool recipePrecedes(const BandRecipe& a, const BandRecipe& b)
{
    if (a.size() != b.size())
        return a.size() < b.size();
    for (int i = 0; i < a.size(); ++i) {
        const Band &x = a[i], &y = b[i];
        if (std::tie(x.end, x.format, x.scope) != std::tie(y.end, y.format, y.scope))
            return std::tie(x.end, x.format, x.scope) < std::tie(y.end, y.format, y.scope);
    }
    return false;
}

// A fixed total order of configurations (the tie rule's last resort).
inline bool configPrecedes(const Config& a, const Config& b)
{
    const auto head = [](const Config& c) {
        return std::make_tuple(c.tp, c.model, c.batch, c.kv, c.lmHeadQuantized);
    };
    if (head(a) != head(b))
        return head(a) < head(b);
    if (recipePrecedes(a.recipe, b.recipe) || recipePrecedes(b.recipe, a.recipe))
        return recipePrecedes(a.recipe, b.recipe);
    return a.algorithm < b.algorithm;
}

inline float coarse(double v)
{
    return static_cast<float>(v);
}

// Equal in every prediction the answer order looks at (RMQD, GPUs, normalised latency, memory,
// at float precision): configurations the surrogates cannot tell apart, whatever their recipes.
inline bool samePredictions(const AnswerKey& a, const AnswerKey& b)
{
    return coarse(a.rmqd) == coarse(b.rmqd) && a.gpus == b.gpus &&
           coarse(a.normLatency) == coarse(b.normLatency) &&
           coarse(a.memoryBytes) == coarse(b.memoryBytes);
}

inline bool answerPrecedes(const AnswerKey& a, const AnswerKey& b)
{
    const auto key = [](const AnswerKey& k) {
        return std::make_tuple(coarse(k.rmqd), k.gpus, coarse(k.normLatency), coarse(k.memoryBytes),
                               k.bands, k.rmqd, k.normLatency, k.memoryBytes);
    };
    if (key(a) != key(b))
        return key(a) < key(b);
    return configPrecedes(a.config, b.config);
}

} // namespace acsel
