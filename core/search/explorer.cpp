#include "core/search/explorer.h"

#include "core/model/units.h"
#include "core/search/paretofront.h"
#include "core/search/selectionsample.h"
#include "core/search/stopwatch.h"

#include <algorithm>
#include <thread>

namespace acsel
{

namespace
{
ExplorerPoint scorePoint(const FracMixTable& table, int context, const BandRecipe& r,
                         bool calibrate)
{
    const SoftScore s = table.soft(context, r);
    // The identity calibration (no FMC loaded) would cost two pow and two exp per point.
    const LatencyMs cal = calibrate ? table.calibrated(s) : LatencyMs{s.rawTtft, s.rawTpot};
    const auto [algo, rmqd] = table.bestQuality(context, r);
    return {r,
            static_cast<float>(cal.ttft),
            static_cast<float>(cal.tpot),
            static_cast<float>(rmqd),
            static_cast<float>(s.memoryBytes / kGiB),
            context,
            algo,
            r.isUniform()};
}

// Runs work(context) for every context on up to hardware_concurrency() threads (the contexts
// are independent; each call writes only its own context's slot).
template <class Work> void forEachContext(int contexts, Work&& work)
{
    if (contexts <= 0)
        return;
    const int threads =
        std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, contexts);
    std::atomic<int> next{0};
    auto drain = [&] {
        for (int c = next++; c < contexts; c = next++)
            work(c);
    };
    std::vector<std::jthread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(drain);
    drain();
}

// The same index set as paretoFront(x, y) (the points no other point strictly dominates),
// without sorting every point: the frontier of every 64th point is a staircase; a point that
// staircase strictly dominates cannot be on the frontier, and only the few others are sorted.
std::vector<std::size_t> frontierSet(const std::vector<double>& x, const std::vector<double>& y)
{
    constexpr std::size_t kStride = 64;
    if (x.size() < 4 * kStride)
        return paretoFront(x, y);
    std::vector<double> sx, sy;
    for (std::size_t i = 0; i < x.size(); i += kStride) {
        sx.push_back(x[i]);
        sy.push_back(y[i]);
    }
    // x increasing, y strictly decreasing: the lowest y at or left of any x is the last step.
    std::vector<double> stepX, stepY;
    for (std::size_t i : paretoFront(sx, sy))
        if (stepY.empty() || sy[i] < stepY.back()) {
            stepX.push_back(sx[i]);
            stepY.push_back(sy[i]);
        }
    std::vector<std::size_t> index;
    std::vector<double> cx, cy;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const auto step = std::upper_bound(stepX.begin(), stepX.end(), x[i]);
        if (step != stepX.begin()) {
            const auto k = static_cast<std::size_t>(step - stepX.begin()) - 1;
            const bool dominated = stepY[k] <= y[i] && (stepX[k] < x[i] || stepY[k] < y[i]);
            if (dominated)
                continue;
        }
        index.push_back(i);
        cx.push_back(x[i]);
        cy.push_back(y[i]);
    }
    std::vector<std::size_t> front = paretoFront(cx, cy);
    for (std::size_t& f : front)
        f = index[f];
    return front;
}

// What the first pass keeps of one context.
struct ContextScan {
    std::vector<ExplorerPoint> uniform;
    std::vector<std::size_t> frontier; // band indices within the context, both latency axes
    std::size_t bands = 0;
    std::int64_t scored = 0;
    bool complete = false;
};

ContextScan scanContext(const FracMixTable& table, int c, bool calibrate,
                        const std::atomic<bool>& stop)
{
    ContextScan out;
    std::vector<double> rmqd, ttft, tpot;
    out.complete = table.space(c).forEachRecipe([&](const BandRecipe& r) {
        if ((++out.scored & 4095) == 0 && stop.load(std::memory_order_relaxed))
            return false;
        const ExplorerPoint p = scorePoint(table, c, r, calibrate);
        if (p.uniform) {
            out.uniform.push_back(p);
        } else {
            rmqd.push_back(static_cast<double>(p.rmqd));
            ttft.push_back(static_cast<double>(p.ttftMs));
            tpot.push_back(static_cast<double>(p.tpotMs));
        }
        return true;
    });
    if (!out.complete)
        return out;
    out.bands = rmqd.size();
    out.frontier = frontierSet(ttft, rmqd);
    const std::vector<std::size_t> byTpot = frontierSet(tpot, rmqd);
    out.frontier.insert(out.frontier.end(), byTpot.begin(), byTpot.end());
    return out;
}
} // namespace

// Two passes so that the millions of band points are never all held: the first scores every
// recipe, keeps the uniform points, and per context only the three numbers its frontiers need;
// the kept band points are chosen by their index in enumeration order, and the second pass
// re-scores just those. The choice is the one of storing every point (the same frontiers, the
// same seeded sample of the same positions); contexts are scanned in parallel.
bool Explorer::build(const Engine& e, const Request& q, const SearchOptions& o,
                     std::size_t maxBandPoints, const std::atomic<bool>& stop)
{
    const Stopwatch clock;
    auto table = std::make_unique<FracMixTable>(e, q, o);
    const bool calibrate = !table->calibration().identity();
    const auto contexts = static_cast<int>(table->contexts().size());
    std::vector<ContextScan> scans(static_cast<std::size_t>(contexts));
    forEachContext(contexts, [&](int c) {
        scans[static_cast<std::size_t>(c)] = scanContext(*table, c, calibrate, stop);
    });
    Stats stats;
    std::vector<ExplorerPoint> uniform;
    std::vector<std::size_t> keep;
    std::vector<std::size_t> firstBand; // of each context, in the enumeration order of all
    std::size_t bandCount = 0;
    for (const ContextScan& s : scans) {
        if (!s.complete)
            return false;
        stats.scored += s.scored;
        uniform.insert(uniform.end(), s.uniform.begin(), s.uniform.end());
        for (std::size_t i : s.frontier)
            keep.push_back(bandCount + i);
        firstBand.push_back(bandCount);
        bandCount += s.bands;
    }
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
    if (keep.size() > maxBandPoints)
        keep.resize(maxBandPoints); // frontiers larger than the display budget: keep the first
    // Fill the rest of the budget with a seeded sample of the other band points.
    const std::size_t room = maxBandPoints - keep.size();
    // Positions in the enumeration order of the band points not kept, sampled without listing
    // them (selectionsample.h), then mapped to their indices.
    if (room > 0) {
        const std::vector<std::size_t> sampled =
            selectionSample(bandCount - keep.size(), room, o.seed);
        std::vector<std::size_t> rest;
        rest.reserve(sampled.size());
        auto next = keep.begin();
        auto want = sampled.begin();
        for (std::size_t i = 0, position = 0; i < bandCount && want != sampled.end(); ++i) {
            if (next != keep.end() && *next == i) {
                ++next;
                continue;
            }
            if (position++ == *want) {
                rest.push_back(i);
                ++want;
            }
        }
        keep.insert(keep.end(), rest.begin(), rest.end());
        std::sort(keep.begin(), keep.end());
    }
    // Second pass: each context re-scores its kept band points into its own slot.
    std::vector<std::vector<ExplorerPoint>> kept(static_cast<std::size_t>(contexts));
    forEachContext(contexts, [&](int c) {
        const std::size_t first = firstBand[static_cast<std::size_t>(c)];
        auto wanted = std::lower_bound(keep.begin(), keep.end(), first);
        const auto last =
            std::lower_bound(wanted, keep.end(), first + scans[static_cast<std::size_t>(c)].bands);
        std::size_t band = first;
        auto& out = kept[static_cast<std::size_t>(c)];
        if (wanted != last)
            table->space(c).forEachRecipe([&](const BandRecipe& r) {
                if (r.isUniform())
                    return true;
                if (band++ == *wanted) {
                    out.push_back(scorePoint(*table, c, r, calibrate));
                    return ++wanted != last;
                }
                return true;
            });
    });
    std::vector<ExplorerPoint> points = std::move(uniform);
    points.reserve(points.size() + keep.size());
    for (const auto& k : kept)
        points.insert(points.end(), k.begin(), k.end());
    adopt(std::move(points), std::move(table), q, stats, clock.seconds() * 1e3);
    return true;
}

bool Explorer::buildUniform(const Engine& e, const Request& q, const SearchOptions& o,
                            const std::atomic<bool>& stop)
{
    const Stopwatch clock;
    auto table = std::make_unique<FracMixTable>(e, q, o);
    const bool calibrate = !table->calibration().identity();
    std::vector<ExplorerPoint> uniform;
    Stats stats;
    for (int c = 0; c < static_cast<int>(table->contexts().size()); ++c) {
        if (stop.load(std::memory_order_relaxed))
            return false;
        // The enumeration visits every one-band recipe first: stop at the first band recipe.
        table->space(c).forEachRecipe([&](const BandRecipe& r) {
            if (!r.isUniform())
                return false;
            ++stats.scored;
            uniform.push_back(scorePoint(*table, c, r, calibrate));
            return true;
        });
    }
    adopt(std::move(uniform), std::move(table), q, stats, clock.seconds() * 1e3);
    return true;
}

void Explorer::adopt(std::vector<ExplorerPoint> points, std::unique_ptr<FracMixTable> table,
                     const Request& q, Stats stats, double buildMs)
{
    points_ = std::move(points);
    table_ = std::move(table);
    request_ = q;
    stats.kept = static_cast<std::int64_t>(points_.size());
    stats.buildMs = buildMs;
    stats_ = stats;
    applyBudgets(q.ttftBudgetMs, q.tpotBudgetMs, q.memBudgetGiB);
}

void Explorer::applyBudgets(double ttftMs, double tpotMs, double memGiB)
{
    request_.ttftBudgetMs = ttftMs;
    request_.tpotBudgetMs = tpotMs;
    request_.memBudgetGiB = memGiB;
    // The device capacity caps the budget whatever the slider says.
    const double capacityGiB = table_ ? std::min(memGiB, table_->deviceCapacity() / kGiB) : memGiB;
    feasible_.assign(points_.size(), 0);
    feasibleCount_ = 0;
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const ExplorerPoint& p = points_[i];
        const bool ok =
            withinBudgets(static_cast<double>(p.ttftMs), static_cast<double>(p.tpotMs),
                          static_cast<double>(p.memoryGiB), ttftMs, tpotMs, capacityGiB);
        feasible_[i] = ok;
        feasibleCount_ += ok;
    }
}

double Explorer::latency(std::size_t i, LatencyAxis axis) const
{
    const ExplorerPoint& p = points_[i];
    return latencyOnAxis(axis, static_cast<double>(p.ttftMs), static_cast<double>(p.tpotMs),
                         request_.ttftBudgetMs, request_.tpotBudgetMs);
}

std::vector<std::size_t> Explorer::frontier(LatencyAxis axis) const
{
    std::vector<std::size_t> index;
    std::vector<double> x, y;
    for (std::size_t i = 0; i < points_.size(); ++i) {
        if (!feasible_[i])
            continue;
        index.push_back(i);
        x.push_back(latency(i, axis));
        y.push_back(static_cast<double>(points_[i].rmqd));
    }
    std::vector<std::size_t> front = paretoFront(x, y);
    for (std::size_t& f : front)
        f = index[f];
    return front;
}

Config Explorer::config(std::size_t i) const
{
    const ExplorerPoint& p = points_[i];
    return table_->config(p.context, p.recipe, p.algorithm);
}

const SearchContext& Explorer::context(std::size_t i) const
{
    return table_->contexts()[static_cast<std::size_t>(points_[i].context)];
}

} // namespace acsel
