// The brute-force reference of the exact searchers' tests: every (context, recipe, fitting
// algorithm) through the full gate, ranked by the answer order of tierule.h.
#pragma once

#include "core/search/fracmixtable.h"
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

} // namespace acsel::test
