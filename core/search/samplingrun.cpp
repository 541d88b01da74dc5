#include "core/search/samplingrun.h"

#include <algorithm>

namespace acsel
{

SamplingRun::SamplingRun(std::string algorithm, const Engine& e, const Request& q,
                         const SearchOptions& o, const ProgressFn& progress,
                         const std::atomic<bool>& stop)
    : maxEvaluations_(o.maxEvaluations > 0 || o.maxSeconds > 0 ? o.maxEvaluations
                                                               : kDefaultSearchEvaluations),
      maxSeconds_(o.maxSeconds), engine_(e), progress_(progress), stop_(stop), table_(e, q, o),
      rng_(o.seed)
{
    result_.algorithm = std::move(algorithm);
    result_.candidates = table_.recipeCount();
}

int SamplingRun::randomContext()
{
    const auto contexts = static_cast<int>(table_.contexts().size());
    return std::uniform_int_distribution<int>(0, contexts - 1)(rng_);
}

const GateResult& SamplingRun::gate(const Config& c)
{
    last_ = fullGate(engine_, c, table_.request());
    ++result_.fullEvaluations;
    if (last_.admitted() &&
        (!result_.config || last_.prediction.rmqd < result_.gate.prediction.rmqd)) {
        result_.config = c;
        result_.gate = last_;
    }
    if (progress_ && (result_.fullEvaluations & 63) == 0)
        progress_(budgetFraction());
    return last_;
}

bool SamplingRun::done()
{
    if (stop_.load(std::memory_order_relaxed)) {
        result_.cancelled = true;
        return true;
    }
    return (maxEvaluations_ > 0 && result_.fullEvaluations >= maxEvaluations_) ||
           (maxSeconds_ > 0 && clock_.seconds() >= maxSeconds_);
}

double SamplingRun::budgetFraction() const
{
    double f = 0;
    if (maxEvaluations_ > 0)
        f = static_cast<double>(result_.fullEvaluations) / static_cast<double>(maxEvaluations_);
    if (maxSeconds_ > 0)
        f = std::max(f, clock_.seconds() / maxSeconds_);
    return std::min(f, 1.0);
}

SearchResult SamplingRun::finish()
{
    if (progress_)
        progress_(1.0);
    result_.wallSeconds = clock_.seconds();
    return std::move(result_);
}

} // namespace acsel
