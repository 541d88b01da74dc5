// The explorer behind the frontier plot: scores every candidate configuration of a request
// cheaply (FracMix + FMC latency, exact memory, surrogate RMQD), keeps a displayable set, and
// re-derives feasibility and the frontier when only the budgets move (no re-scoring).
#pragma once

#include "core/search/fracmixtable.h"
#include "core/search/latencyaxis.h"

#include <atomic>
#include <memory>
#include <vector>

namespace acsel
{

struct ExplorerPoint {
    BandRecipe recipe;
    float ttftMs = 0, tpotMs = 0; // FracMix + calibration (the full estimate adds conversions)
    float rmqd = 0;
    float memoryGiB = 0;
    std::int32_t context = 0;
    Algorithm algorithm = Algorithm::Max;
    bool uniform = false;
};

class Explorer
{
public:
    struct Stats {
        std::int64_t scored = 0; // every candidate configuration of the space
        std::int64_t kept = 0;   // points held for display
        double buildMs = 0;
    };

    // Heavy (milliseconds): keeps every uniform configuration, every band configuration on a
    // per-context frontier of (RMQD, TTFT) or (RMQD, TPOT), and a seeded uniform sample of the
    // other band configurations, at most maxBandPoints band points in all. False if stopped.
    bool build(const Engine& e, const Request& q, const SearchOptions& o, std::size_t maxBandPoints,
               const std::atomic<bool>& stop);

    // Light (about a millisecond): only the uniform configurations, the first points build()
    // keeps and in its order, for a first frame while build() runs. False if stopped.
    bool buildUniform(const Engine& e, const Request& q, const SearchOptions& o,
                      const std::atomic<bool>& stop);

    // Light (well under a frame for 10^5 points): new budgets, same workload.
    void applyBudgets(double ttftMs, double tpotMs, double memGiB);

    const std::vector<ExplorerPoint>& points() const { return points_; }
    bool feasible(std::size_t i) const { return feasible_[i] != 0; }
    std::size_t feasibleCount() const { return feasibleCount_; }
    double latency(std::size_t i, LatencyAxis axis) const;
    // Indices of the feasible points on the Pareto frontier of (latency on axis, RMQD), by latency.
    std::vector<std::size_t> frontier(LatencyAxis axis) const;
    Config config(std::size_t i) const;
    const SearchContext& context(std::size_t i) const;
    const Stats& stats() const { return stats_; }
    const FracMixTable* table() const { return table_.get(); }
    const Request& request() const { return request_; }

private:
    // Takes a finished build's points and table, then classifies them for q's budgets.
    void adopt(std::vector<ExplorerPoint> points, std::unique_ptr<FracMixTable> table,
               const Request& q, Stats stats, double buildMs);

    std::unique_ptr<FracMixTable> table_;
    Request request_;
    std::vector<ExplorerPoint> points_;
    std::vector<std::uint8_t> feasible_;
    std::size_t feasibleCount_ = 0;
    Stats stats_;
};

} // namespace acsel
