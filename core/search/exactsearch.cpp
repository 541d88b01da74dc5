#include "core/search/exactsearch.h"

#include "core/search/screeningrun.h"

#include <algorithm>
#include <limits>

namespace acsel
{
namespace
{

// A round walks the space once and keeps, in a max-heap on RMQD, the lowest-RMQD candidates
// above the RMQD already yielded. Almost every request is answered from the first round; one
// gated through without an admitted candidate grows the next (continuous serving gates hundreds
// of thousands without a latency bound).
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

    void operator()(int c, const BandRecipe& r, const SoftScore&)
    {
        const auto [algo, rmqd] = table->bestQuality(c, r);
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

SearchResult ExactSearch::run(const Engine& e, const Request& q, const SearchOptions& o,
                              const ProgressFn& progress, const std::atomic<bool>& stop) const
{
    ScreeningRun run(name(), e, q, o, progress, stop);
    const FracMixTable& table = run.table();
    // Calibrated FracMix is a lower bound of the full estimate only for such engines and a
    // monotone FMC: then the budgets themselves prune exactly; otherwise memory alone does.
    const bool pruneLatency = e.fracMixIsLowerBound(q) && table.calibration().monotone();
    const LatencyScreen screen(table.calibration(), q.ttftBudgetMs, q.tpotBudgetMs);
    const LatencyScreen* latencyScreen = pruneLatency ? &screen : nullptr;

    // Every candidate with RMQD <= `yielded` has been handed to the gate loop; `ready` holds the
    // rest of the current round, complete below its cut, highest RMQD first (popped at the back).
    double yielded = -std::numeric_limits<double>::infinity();
    bool firstRound = true, exhausted = false;
    std::size_t roundSize = std::max<std::size_t>(firstRound_, 1);
    std::vector<ScoredCandidate> ready;

    // Collects into `ready` every candidate above `yielded` up to the round's cut: all of them
    // when fewer than roundSize remain; else those below the roundSize-th lowest RMQD (the
    // candidates tied at it may have been dropped by a thread's heap, so it is the next
    // round's), or, when all the lowest are tied at it, every candidate of that RMQD. Each
    // thread keeps its own roundSize lowest; their union holds the round's lowest roundSize, so
    // the round is the same for any number of threads.
    auto nextRound = [&] {
        const std::vector<RoundKeeper> kept = run.forEachScreenedRecipeInParallel(
            latencyScreen, firstRound ? 0.5 : 0.0, RoundKeeper{&table, yielded, roundSize, {}},
            firstRound);
        firstRound = false;
        std::vector<ScoredCandidate> lowest;
        for (const RoundKeeper& k : kept)
            lowest.insert(lowest.end(), k.heap.begin(), k.heap.end());
        ready.clear();
        if (lowest.size() < roundSize) {
            exhausted = true;
            ready.swap(lowest);
        } else {
            std::nth_element(lowest.begin(),
                             lowest.begin() + static_cast<std::ptrdiff_t>(roundSize - 1),
                             lowest.end(), higherRmqd);
            const double cut = lowest[roundSize - 1].rmqd;
            for (const ScoredCandidate& s : lowest)
                if (s.rmqd < cut)
                    ready.push_back(s);
            if (ready.empty()) // the lowest are all one RMQD: take every candidate of it
                run.forEachScreenedRecipe(
                    latencyScreen, 0.0,
                    [&](int c, const BandRecipe& r, const SoftScore&) {
                        const auto [algo, rmqd] = table.bestQuality(c, r);
                        if (rmqd == cut)
                            ready.push_back({r, rmqd, 0.0, c, algo});
                    },
                    false);
            roundSize *= kRoundGrowth;
        }
        std::sort(
            ready.begin(), ready.end(),
            [](const ScoredCandidate& a, const ScoredCandidate& b) { return a.rmqd > b.rmqd; });
    };

    // Tied candidates are yielded by their calibrated FracMix normalised latency (computed only
    // for the tied ones): with pruneLatency a lower bound, so the gate loop skips the slower.
    std::vector<ScoredCandidate> tied; // one RMQD, the fastest last
    run.gateUntilAdmitted(
        [&]() -> std::optional<ScoredCandidate> {
            if (tied.empty()) {
                while (ready.empty() && !exhausted && !run.cancelled())
                    nextRound();
                if (ready.empty())
                    return std::nullopt;
                const double rmqd = ready.back().rmqd;
                while (!ready.empty() && ready.back().rmqd == rmqd) {
                    ScoredCandidate& s = ready.back();
                    const LatencyMs cal = table.calibrated(table.soft(s.context, s.recipe));
                    s.normLatency = table.normalisedLatency(cal.ttft, cal.tpot);
                    tied.push_back(s);
                    ready.pop_back();
                }
                yielded = rmqd;
                std::sort(tied.begin(), tied.end(), [](const auto& a, const auto& b) {
                    return a.normLatency > b.normLatency;
                });
            }
            const ScoredCandidate s = tied.back();
            tied.pop_back();
            return s;
        },
        pruneLatency);
    return run.finish();
}

} // namespace acsel
