// The run state and the two passes the enumerating searchers (BandPareto, Exact) share:
// enumerate every legal recipe of the request's FracMix table, keeping those that fit the
// memory budget and pass a latency screen; then full-gate kept candidates in the searcher's
// order until one is admitted (and the others of its RMQD, for the tie rule). Each searcher
// brings its own screen and order.
#pragma once

#include "core/search/fracmixtable.h"
#include "core/search/scoredcandidate.h"
#include "core/search/stopwatch.h"
#include "core/search/tierule.h"

#include <atomic>
#include <optional>

namespace acsel
{

class ScreeningRun
{
public:
    ScreeningRun(std::string algorithm, const Engine& e, const Request& q, const SearchOptions& o,
                 const ProgressFn& progress, const std::atomic<bool>& stop)
        : engine_(e), progress_(progress), stop_(stop), table_(e, q, o)
    {
        result_.algorithm = std::move(algorithm);
    }

    const FracMixTable& table() const { return table_; }
    const SearchResult& result() const { return result_; }
    bool cancelled() const { return result_.cancelled; }

    // Calls keep(context, recipe, soft score) for every legal recipe of every context whose
    // exact memory fits the budget and whose FracMix latency passes `screen` (nullptr: no
    // latency screen). Counts recipes and soft scores (a later pass over the same space with
    // `count` false does not: the space is searched once, however often it is walked); stops,
    // cancelled, when `stop` is raised (checked every 4096 recipes). Progress runs from 0 to
    // `progressShare`.
    template <class Keep>
    void forEachScreenedRecipe(const LatencyScreen* screen, double progressShare, Keep&& keep,
                               bool count = true)
    {
        const auto contexts = static_cast<int>(table_.contexts().size());
        std::int64_t walked = 0;
        for (int c = 0; c < contexts && !result_.cancelled; ++c) {
            const bool complete = table_.space(c).forEachRecipe([&](const BandRecipe& r) {
                if ((++walked & 4095) == 0 && stop_.load(std::memory_order_relaxed))
                    return false;
                const SoftScore s = table_.soft(c, r);
                if (s.memoryBytes <= table_.memoryBudget() &&
                    (screen == nullptr || screen->passes(s)))
                    keep(c, r, s);
                return true;
            });
            result_.cancelled = !complete || stop_.load(std::memory_order_relaxed);
            if (progress_)
                progress_(progressShare * (c + 1) / contexts);
        }
        if (count) {
            result_.candidates += walked;
            result_.softEvaluations += walked;
        }
    }

    // Full-gates the candidates `next` yields (std::optional<ScoredCandidate> in non-decreasing
    // RMQD, empty when there are no more) until one is admitted, then the rest of its RMQD:
    // the answer is the admitted one preferred by answerPrecedes (tierule.h). With
    // `latencyBounds`, a candidate's normLatency is a lower bound of its gated normalised
    // latency, so tied candidates already slower than the best admitted are skipped ungated.
    // Stops, cancelled, when `stop` is raised.
    template <class Next> void gateUntilAdmitted(Next&& next, bool latencyBounds)
    {
        std::optional<AnswerKey> best;
        while (!result_.cancelled) {
            const std::optional<ScoredCandidate> s = next();
            if (!s || (best && coarse(s->rmqd) != coarse(best->rmqd)))
                return;
            // The bound is the same arithmetic on a smaller raw value: 1e-12 covers its rounding.
            if (best && latencyBounds &&
                coarse(s->normLatency * (1 - 1e-12)) > coarse(best->normLatency))
                continue;
            const Config cfg = table_.config(s->context, s->recipe, s->algorithm);
            GateResult g = fullGate(engine_, cfg, table_.request());
            ++result_.fullEvaluations;
            if (g.admitted()) {
                const AnswerKey key = answerKey(s->rmqd, g.prediction, cfg, table_.request());
                if (!best || answerPrecedes(key, *best)) {
                    best = key;
                    result_.config = cfg;
                    result_.gate = std::move(g);
                }
            }
            result_.cancelled = stop_.load(std::memory_order_relaxed);
        }
    }

    // Progress 1, the wall time since construction (the table build included).
    SearchResult finish()
    {
        if (progress_)
            progress_(1.0);
        result_.wallSeconds = clock_.seconds();
        return std::move(result_);
    }

private:
    Stopwatch clock_; // first: the wall time includes the table build
    const Engine& engine_;
    const ProgressFn& progress_;
    const std::atomic<bool>& stop_;
    SearchResult result_;
    FracMixTable table_;
};

} // namespace acsel
