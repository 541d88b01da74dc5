#include "core/search/explorer.h"

#include "core/search/paretofront.h"
#include "core/search/stopwatch.h"

#include <algorithm>
#include <random>

namespace acsel
{

bool Explorer::build(const Engine& e, const Request& q, const SearchOptions& o,
                     std::size_t maxBandPoints, const std::atomic<bool>& stop)
{
    const Stopwatch clock;
    auto table = std::make_unique<FracMixTable>(e, q, o);
    std::vector<ExplorerPoint> uniform, band;
    std::vector<std::size_t> keep;
    std::mt19937_64 rng(o.seed);
    Stats stats;
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    const auto contexts = static_cast<int>(table->contexts().size());
    for (int c = 0; c < contexts; ++c) {
        const std::size_t first = band.size();
        const bool complete = table->space(c).forEachRecipe([&](const BandRecipe& r) {
            if ((++stats.scored & 4095) == 0 && stop.load(std::memory_order_relaxed))
                return false;
            const SoftScore s = table->soft(c, r);
            const LatencyMs cal = table->calibrated(s);
            const auto [algo, rmqd] = table->bestQuality(c, r);
            ExplorerPoint p{r,
                            static_cast<float>(cal.ttft),
                            static_cast<float>(cal.tpot),
                            static_cast<float>(rmqd),
                            static_cast<float>(s.memoryBytes / kGiB),
                            c,
                            algo,
                            r.isUniform()};
            (r.isUniform() ? uniform : band).push_back(p);
            return true;
        });
        if (!complete)
            return false;
        // This context's band frontiers on both latency axes are always kept.
        const std::size_t count = band.size() - first;
        std::vector<double> rmqd(count), ttft(count), tpot(count);
        for (std::size_t i = 0; i < count; ++i) {
            rmqd[i] = static_cast<double>(band[first + i].rmqd);
            ttft[i] = static_cast<double>(band[first + i].ttftMs);
            tpot[i] = static_cast<double>(band[first + i].tpotMs);
        }
        for (std::size_t i : paretoFront(ttft, rmqd))
            keep.push_back(first + i);
        for (std::size_t i : paretoFront(tpot, rmqd))
            keep.push_back(first + i);
    }
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
    if (keep.size() > maxBandPoints)
        keep.resize(maxBandPoints); // frontiers larger than the display budget: keep the first
    // Fill the rest of the budget with a seeded sample of the other band points.
    const std::size_t room = maxBandPoints - keep.size();
    if (room > 0) {
        std::vector<std::uint8_t> taken(band.size(), 0);
        for (std::size_t i : keep)
            taken[i] = 1;
        std::vector<std::size_t> rest;
        rest.reserve(band.size() - keep.size());
        for (std::size_t i = 0; i < band.size(); ++i)
            if (!taken[i])
                rest.push_back(i);
        if (rest.size() > room) {
            std::shuffle(rest.begin(), rest.end(), rng);
            rest.resize(room);
        }
        keep.insert(keep.end(), rest.begin(), rest.end());
        std::sort(keep.begin(), keep.end());
    }
    points_ = std::move(uniform);
    points_.reserve(points_.size() + keep.size());
    for (std::size_t i : keep)
        points_.push_back(band[i]);
    table_ = std::move(table);
    request_ = q;
    stats.kept = static_cast<std::int64_t>(points_.size());
    stats.buildMs = clock.seconds() * 1e3;
    stats_ = stats;
    applyBudgets(q.ttftBudgetMs, q.tpotBudgetMs, q.memBudgetGiB);
    return true;
}

void Explorer::applyBudgets(double ttftMs, double tpotMs, double memGiB)
{
    request_.ttftBudgetMs = ttftMs;
    request_.tpotBudgetMs = tpotMs;
    request_.memBudgetGiB = memGiB;
    // The device capacity caps the budget whatever the slider says.
    const double capacityGiB =
        table_ ? std::min(memGiB, table_->deviceCapacity() / (1024.0 * 1024.0 * 1024.0)) : memGiB;
    feasible_.assign(points_.size(), 0);
    feasibleCount_ = 0;
    for (std::size_t i = 0; i < points_.size(); ++i) {
        const ExplorerPoint& p = points_[i];
        const bool ok = static_cast<double>(p.ttftMs) <= ttftMs &&
                        static_cast<double>(p.tpotMs) <= tpotMs &&
                        static_cast<double>(p.memoryGiB) <= capacityGiB;
        feasible_[i] = ok;
        feasibleCount_ += ok;
    }
}

double Explorer::latency(std::size_t i, LatencyAxis axis) const
{
    const ExplorerPoint& p = points_[i];
    switch (axis) {
    case LatencyAxis::Ttft:
        return static_cast<double>(p.ttftMs);
    case LatencyAxis::Tpot:
        return static_cast<double>(p.tpotMs);
    case LatencyAxis::Normalised:
        return std::max(static_cast<double>(p.ttftMs) / request_.ttftBudgetMs,
                        static_cast<double>(p.tpotMs) / request_.tpotBudgetMs);
    }
    return 0;
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
