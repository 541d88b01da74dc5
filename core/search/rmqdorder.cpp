#include "core/search/rmqdorder.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace acsel
{
namespace
{

bool higherRmqd(const ScoredCandidate& a, const ScoredCandidate& b)
{
    return a.rmqd < b.rmqd;
}

// One thread's share of a round: the `size` lowest-RMQD candidates above `floor` it walked.
struct RoundKeeper {
    const FracMixTable* table = nullptr;
    double floor = 0;
    std::size_t size = 0;
    std::vector<ScoredCandidate> heap; // max-heap on RMQD
    QualityMemo quality;

    // Once full, a context whose lowest possible RMQD is not below the largest held has no
    // recipe to add.
    bool skipsContext(int c) const
    {
        return heap.size() >= size && !(table->lowestRmqd(c) < heap.front().rmqd);
    }

    void operator()(int c, const BandRecipe& r, const SoftScore&)
    {
        const auto [algo, rmqd] = quality.best(*table, c, r);
        if (!(rmqd > floor))
            return;
        if (heap.size() < size) {
            heap.push_back({r, rmqd, 0.0, c, algo});
            std::push_heap(heap.begin(), heap.end(), higherRmqd);
        } else if (rmqd < heap.front().rmqd) {
            std::pop_heap(heap.begin(), heap.end(), higherRmqd);
            heap.back() = {r, rmqd, 0.0, c, algo};
            std::push_heap(heap.begin(), heap.end(), higherRmqd);
        }
    }
};

} // namespace

RmqdOrder::RmqdOrder(ScreeningRun& run, const LatencyScreen* screen, double progressShare,
                     std::size_t firstRound)
    : run_(run), screen_(screen), progressShare_(progressShare),
      roundSize_(std::max<std::size_t>(firstRound, 1)),
      yielded_(-std::numeric_limits<double>::infinity())
{
}

void RmqdOrder::nextRound()
{
    const FracMixTable& table = run_.table();
    const std::vector<RoundKeeper> kept = run_.forEachScreenedRecipeInParallel(
        screen_, firstRound_ ? progressShare_ : 0.0,
        RoundKeeper{&table, yielded_, roundSize_, {}, {}}, firstRound_);
    firstRound_ = false;
    std::vector<ScoredCandidate> lowest;
    for (const RoundKeeper& k : kept)
        lowest.insert(lowest.end(), k.heap.begin(), k.heap.end());
    ready_.clear();
    if (lowest.size() < roundSize_) {
        exhausted_ = true;
        ready_.swap(lowest);
    } else {
        std::nth_element(lowest.begin(),
                         lowest.begin() + static_cast<std::ptrdiff_t>(roundSize_ - 1), lowest.end(),
                         higherRmqd);
        const double cut = lowest[roundSize_ - 1].rmqd;
        for (const ScoredCandidate& s : lowest)
            if (s.rmqd < cut)
                ready_.push_back(s);
        if (ready_.empty()) // the lowest are all one RMQD: take every candidate of it
            run_.forEachScreenedRecipe(
                screen_, 0.0,
                [&](int c, const BandRecipe& r, const SoftScore&) {
                    const auto [algo, rmqd] = table.bestQuality(c, r);
                    if (rmqd == cut)
                        ready_.push_back({r, rmqd, 0.0, c, algo});
                },
                false);
        roundSize_ *= kGrowth;
    }
    std::sort(ready_.begin(), ready_.end(),
              [](const ScoredCandidate& a, const ScoredCandidate& b) { return a.rmqd > b.rmqd; });
}

std::optional<ScoredCandidate> RmqdOrder::next()
{
    if (tied_.empty()) {
        while (ready_.empty() && !exhausted_ && !run_.cancelled())
            nextRound();
        if (ready_.empty() || run_.cancelled())
            return std::nullopt;
        // Tied candidates by their calibrated FracMix normalised latency, computed only for
        // them.
        const FracMixTable& table = run_.table();
        const double rmqd = ready_.back().rmqd;
        while (!ready_.empty() && ready_.back().rmqd == rmqd) {
            ScoredCandidate& s = ready_.back();
            const LatencyMs cal = table.calibrated(table.soft(s.context, s.recipe));
            s.normLatency = table.normalisedLatency(cal.ttft, cal.tpot);
            tied_.push_back(s);
            ready_.pop_back();
        }
        yielded_ = rmqd;
        // Fewest GPUs first, then fastest (popped from the back): the order the tie rule
        // prefers, so the gate loop skips most of the rest.
        const auto gpus = [&](const ScoredCandidate& c) {
            return table.contexts()[static_cast<std::size_t>(c.context)].tp;
        };
        std::sort(tied_.begin(), tied_.end(), [&](const auto& a, const auto& b) {
            return std::pair(gpus(a), a.normLatency) > std::pair(gpus(b), b.normLatency);
        });
    }
    const ScoredCandidate s = tied_.back();
    tied_.pop_back();
    return s;
}

} // namespace acsel
