// The loop state the sampling searchers (Rand, HC) share: their evaluation/time budget, the
// FracMix table of the request, the seeded generator, and the full gate that counts
// evaluations and keeps the admitted configuration with the lowest predicted RMQD.
#pragma once

#include "core/search/fracmixtable.h"
#include "core/search/stopwatch.h"

#include <random>

namespace acsel
{

// Evaluations used when the options give neither an evaluation nor a time budget.
inline constexpr std::int64_t kDefaultSearchEvaluations = 2000;

class SamplingRun
{
public:
    SamplingRun(std::string algorithm, const Engine& e, const Request& q, const SearchOptions& o,
                const ProgressFn& progress, const std::atomic<bool>& stop);

    const FracMixTable& table() const { return table_; }
    std::mt19937_64& rng() { return rng_; }
    int randomContext();
    const SearchResult& result() const { return result_; }

    // The full gate of one configuration (valid until the next call); the admitted one with
    // the lowest predicted RMQD so far becomes the result. Reports progress every 64 gates.
    const GateResult& gate(const Config& c);
    // True once `stop` is raised (the result is then marked cancelled) or the budget is spent.
    bool done();
    // Progress 1, the wall time since construction (the table build included).
    SearchResult finish();

private:
    double budgetFraction() const;

    Stopwatch clock_; // first: the budget includes the table build
    std::int64_t maxEvaluations_;
    double maxSeconds_;
    const Engine& engine_;
    const ProgressFn progress_; // by value: callers may pass a temporary
    const std::atomic<bool>& stop_;
    SearchResult result_;
    FracMixTable table_;
    std::mt19937_64 rng_;
    GateResult last_;
};

} // namespace acsel
