// The order of answers (issue 15): the lowest predicted RMQD; at equal RMQD the lower
// calibrated normalised latency, then the smaller memory, then fewer bands. Every searcher and
// the brute-force reference of the tests rank admitted configurations by it. "Equal" is equal
// at float precision (7 digits): the same model summed band by band or over the whole model
// differs in the last bits of a double, and such rounding must not beat a real preference
// (a three-band recipe an ulp smaller than the uniform one it equals). Rounding to float is
// monotone, so the order stays a strict weak order and a stream in RMQD order stays in order.
#pragma once

#include "core/search/gate.h"

#include <algorithm>
#include <tuple>

namespace acsel
{

struct AnswerKey {
    double rmqd = 0;        // the search's predicted RMQD (FracMixTable's decomposition)
    double normLatency = 0; // max(TTFT / budget, TPOT / budget), calibrated full estimate
    double memoryBytes = 0;
    int bands = 0;
};

inline AnswerKey answerKey(double rmqd, const Prediction& p, const Config& c, const Request& q)
{
    return {rmqd, std::max(p.ttftMs / q.ttftBudgetMs, p.tpotMs / q.tpotBudgetMs), p.memoryBytes,
            c.recipe.size()};
}

inline float coarse(double v)
{
    return static_cast<float>(v);
}

inline bool answerPrecedes(const AnswerKey& a, const AnswerKey& b)
{
    const auto key = [](const AnswerKey& k) {
        return std::make_tuple(coarse(k.rmqd), coarse(k.normLatency), coarse(k.memoryBytes),
                               k.bands, k.rmqd, k.normLatency, k.memoryBytes);
    };
    return key(a) < key(b);
}

} // namespace acsel
