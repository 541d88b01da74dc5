// The evaluation/time budget of the sampling searchers (Rand, HC).
#pragma once

#include "core/search/randomsearch.h"
#include "core/search/stopwatch.h"

namespace acsel
{

class Budget
{
public:
    explicit Budget(const SearchOptions& o)
        : maxEvaluations_(o.maxEvaluations > 0 || o.maxSeconds > 0 ? o.maxEvaluations
                                                                   : kDefaultSearchEvaluations),
          maxSeconds_(o.maxSeconds)
    {
    }
    bool exhausted(std::int64_t evaluations) const
    {
        return (maxEvaluations_ > 0 && evaluations >= maxEvaluations_) ||
               (maxSeconds_ > 0 && clock_.seconds() >= maxSeconds_);
    }
    double fraction(std::int64_t evaluations) const
    {
        double f = 0;
        if (maxEvaluations_ > 0)
            f = static_cast<double>(evaluations) / static_cast<double>(maxEvaluations_);
        if (maxSeconds_ > 0)
            f = std::max(f, clock_.seconds() / maxSeconds_);
        return std::min(f, 1.0);
    }
    double seconds() const { return clock_.seconds(); }

private:
    std::int64_t maxEvaluations_;
    double maxSeconds_;
    Stopwatch clock_;
};

} // namespace acsel
