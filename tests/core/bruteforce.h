// The brute-force reference of the exact searchers' tests: every (context, recipe, fitting
// algorithm) through the full gate, ranked by the answer order of tierule.h.
#pragma once

#include "core/search/fracmixtable.h"
#include "core/search/gate.h"
#include "core/search/searcher.h"
#include "core/search/tierule.h"

#include <optional>

namespace acsel::test
{

inline std::optional<AnswerKey> bruteForceBest(const Engine& e, const Request& q,
                                               const SearchOptions& o)
{
    const FracMixTable table(e, q, o);
    std::optional<AnswerKey> best;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        table.space(c).forEachRecipe([&](const BandRecipe& r) {
            for (Algorithm a : ConfigSpace::fittingAlgorithms(r)) {
                const Config cfg = table.config(c, r, a);
                const GateResult g = fullGate(e, cfg, q);
                if (!g.admitted())
                    continue;
                const AnswerKey k = answerKey(table.quality(c, a, r), g.prediction, cfg, q);
                if (!best || answerPrecedes(k, *best))
                    best = k;
            }
        });
    return best;
}

// The answer key of a searcher's result, re-gated; nullopt when it has none (or it is not
// admitted).
inline std::optional<AnswerKey> keyOf(const Engine& e, const Request& q, const SearchOptions& o,
                                      const SearchResult& r)
{
    if (!r.config)
        return std::nullopt;
    const FracMixTable table(e, q, o);
    int context = -1;
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c) {
        const SearchContext& s = table.contexts()[static_cast<std::size_t>(c)];
        if (s.model == r.config->model && s.batch == r.config->batch && s.kv == r.config->kv &&
            s.tp == r.config->tp)
            context = c;
    }
    if (context < 0)
        return std::nullopt;
    const GateResult g = fullGate(e, *r.config, q);
    if (!g.admitted())
        return std::nullopt;
    return answerKey(table.quality(context, r.config->algorithm, r.config->recipe), g.prediction,
                     *r.config, q);
}

// Whether two answers rank equal under the answer order.
inline bool sameKey(const std::optional<AnswerKey>& a, const std::optional<AnswerKey>& b)
{
    if (a.has_value() != b.has_value())
        return false;
    return !a || (!answerPrecedes(*a, *b) && !answerPrecedes(*b, *a));
}

} // namespace acsel::test
