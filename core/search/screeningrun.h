// The run state and the two passes the enumerating searchers (BandPareto, Exact) share:
// enumerate every legal recipe of the request's FracMix table, keeping those that fit the
// memory budget and pass a latency screen; then full-gate kept candidates in the searcher's
// order until one is admitted (and the others of its RMQD, for the tie rule). Each searcher
// brings its own screen and order.
#pragma once

#include "core/search/fracmixtable.h"
#include "core/search/paretofront.h"
#include "core/search/scoredcandidate.h"
#include "core/search/stopwatch.h"
#include "core/search/tierule.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

namespace acsel
{

class ScreeningRun
{
public:
    ScreeningRun(std::string algorithm, const Engine& e, const Request& q, const SearchOptions& o,
                 const ProgressFn& progress, const std::atomic<bool>& stop)
        : engine_(e), progress_(progress), stop_(stop), table_(e, q, o), threads_(searchThreads(o))
    {
        result_.algorithm = std::move(algorithm);
    }

    const FracMixTable& table() const { return table_; }
    const SearchResult& result() const { return result_; }
    bool cancelled() const { return result_.cancelled; }

    // Calls keep(context, recipe, soft score) for every legal recipe of every context whose
    // memory fits the budget (FracMixTable::memoryScreen) and whose FracMix latency passes `screen`
    // (nullptr: no latency screen). Counts recipes and soft scores (a later pass over the same
    // space with `count` false does not: the space is searched once, however often it is walked);
    // stops, cancelled, when `stop` is raised (checked every 4096 recipes). Progress runs from 0 to
    // `progressShare` (0: none reported). On this thread.
    template <class Keep>
    void forEachScreenedRecipe(const LatencyScreen* screen, double progressShare, Keep&& keep,
                               bool count = true)
    {
        walk(
            screen, progressShare, count, 1, [&](int) -> auto& { return keep; });
    }

    // The same walk with the contexts shared among the run's threads (SearchOptions::threads,
    // the calling one included; contexts are handed out one at a time, so the threads stay
    // balanced). Thread i calls only keepers[i], a copy of `prototype`, so a keeper needs no
    // lock; the caller merges them, in a way that must not depend on which thread walked which
    // context. A keeper with `bool skipsContext(int)` is asked first for each context; a
    // context it skips is counted but not walked. One with `bool skipsBlock(int context, const
    // BandRecipe& first, int recipes)` is asked, for each walked context, before each block of
    // ConfigSpace::forEachRecipe (every block, in order); a block it skips is counted but not
    // walked for that context. One with `void take(int context, const BandRecipe&)` is handed
    // each recipe of a walked block unscored instead: it scores those it keeps itself, later,
    // and applies the memory and latency screens then (only a context's corner is screened here).
    // Progress is reported from the calling thread only.
    template <class Keeper>
    std::vector<Keeper> forEachScreenedRecipeInParallel(const LatencyScreen* screen,
                                                        double progressShare,
                                                        const Keeper& prototype, bool count = true)
    {
        const int threads =
            std::max(1, std::min(threads_, static_cast<int>(table_.siblingGroups().size())));
        std::vector<Keeper> keepers(static_cast<std::size_t>(threads), prototype);
        walk(screen, progressShare, count, threads,
             [&](int i) -> Keeper& { return keepers[static_cast<std::size_t>(i)]; });
        return keepers;
    }

    // The Pareto frontier of (RMQD, calibrated FracMix normalised latency) of the screened
    // candidates, ordered by RMQD, without holding the others: one frontier per thread, then
    // the frontier of their union (the same points for any number of threads). Walks as
    // forEachScreenedRecipe.
    StreamingParetoFront<ScoredCandidate> screenedFrontier(const LatencyScreen* screen,
                                                           double progressShare, bool count = true)
    {
        struct Keeper {
            const FracMixTable* table = nullptr;
            StreamingParetoFront<ScoredCandidate> front;
            QualityMemo quality;
            void operator()(int c, const BandRecipe& r, const SoftScore& s)
            {
                const auto [algo, rmqd] = quality.best(*table, c, r);
                const LatencyMs cal = table->calibrated(s);
                const double normLatency = table->normalisedLatency(cal.ttft, cal.tpot);
                front.add(rmqd, normLatency, {r, rmqd, normLatency, c, algo});
            }
        };
        StreamingParetoFront<ScoredCandidate> front;
        for (const Keeper& k :
             forEachScreenedRecipeInParallel(screen, progressShare, Keeper{&table_, {}, {}}, count))
            for (const auto& p : k.front.points())
                front.add(p.x, p.y, p.value);
        return front;
    }

    // Full-gates the candidates `next` yields (std::optional<ScoredCandidate> in non-decreasing
    // RMQD, empty when there are no more) until one is admitted, then the rest of its RMQD:
    // the answer is the admitted one preferred by answerPrecedes (tierule.h). Tied candidates
    // on more GPUs than the best admitted are skipped ungated; with `latencyBounds`, a
    // candidate's normLatency is a lower bound of its gated normalised latency, so tied
    // candidates on as many GPUs already slower than the best admitted are too.
    // Stops, cancelled, when `stop` is raised.
    template <class Next> void gateUntilAdmitted(Next&& next, bool latencyBounds)
    {
        std::optional<AnswerKey> best;
        while (!result_.cancelled) {
            const std::optional<ScoredCandidate> s = next();
            if (!s || (best && coarse(s->rmqd) != coarse(best->rmqd)))
                return;
            const Config cfg = table_.config(s->context, s->recipe, s->algorithm);
            // At the best's RMQD more GPUs never win; on as many, a candidate whose latency
            // bound is already slower cannot either (the bound is the same arithmetic on a
            // smaller raw value: 1e-12 covers its rounding).
            if (best && (cfg.tp > best->gpus ||
                         (cfg.tp == best->gpus && latencyBounds &&
                          coarse(s->normLatency * (1 - 1e-12)) > coarse(best->normLatency))))
                continue;
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
    template <class KeeperOf>
    void walk(const LatencyScreen* screen, double progressShare, bool count, int threads,
              KeeperOf&& keeperOf)
    {
        const auto contexts = static_cast<int>(table_.contexts().size());
        const auto groups = static_cast<int>(table_.siblingGroups().size());
        // A walk with no share of the progress (a later round) reports nothing, so the bar
        // never runs backwards.
        const bool report = progress_ && progressShare > 0;
        std::atomic<int> nextGroup{0}, doneContexts{0};
        std::atomic<std::int64_t> walked{0}, skipped{0};
        std::atomic<bool> incomplete{false};
        const double memoryScreen = table_.memoryScreen();
        using Keep = std::remove_reference_t<decltype(keeperOf(0))>;
        constexpr bool takesUnscored = requires(Keep & k)
        {
            k.take(0, BandRecipe{});
        };
        // A group of sibling contexts (batches and tensor-parallel degrees of one model and KV
        // format) is walked once: each recipe is scored for every sibling in a row, so a
        // keeper can reuse its quality (QualityMemo), which batch and degree do not change.
        auto work = [&](int thread) {
            auto& keep = keeperOf(thread);
            std::int64_t n = 0, recipes = 0, blocksSkipped = 0;
            std::vector<int> active, inBlock;
            for (int g; (g = nextGroup.fetch_add(1)) < groups;) {
                const auto [first, last] = table_.siblingGroups()[static_cast<std::size_t>(g)];
                active.clear();
                for (int c = first; c < last; ++c) {
                    bool skip = cornerFails(c, screen, memoryScreen);
                    if constexpr (requires { keep.skipsContext(c); })
                        skip = skip || keep.skipsContext(c);
                    if (skip) // none of its recipes can be kept
                        skipped += table_.space(c).recipeCount();
                    else
                        active.push_back(c);
                }
                inBlock = active; // the contexts walked in the current block
                const auto enter = [&](const BandRecipe& firstOfBlock, int size) {
                    if constexpr (requires { keep.skipsBlock(0, firstOfBlock, size); }) {
                        inBlock.clear();
                        for (int c : active) {
                            if (keep.skipsBlock(c, firstOfBlock, size))
                                blocksSkipped += size;
                            else
                                inBlock.push_back(c);
                        }
                    }
                    return !inBlock.empty();
                };
                const bool complete =
                    active.empty() ||
                    table_.space(first).forEachRecipe(
                        [&](const BandRecipe& r) {
                            if ((++recipes & 4095) == 0 && stop_.load(std::memory_order_relaxed))
                                return false;
                            for (int c : inBlock) {
                                if constexpr (takesUnscored) {
                                    keep.take(c, r);
                                } else {
                                    const SoftScore s = table_.soft(c, r);
                                    if (s.memoryBytes <= memoryScreen &&
                                        (screen == nullptr || screen->passes(s)))
                                        keep(c, r, s);
                                }
                            }
                            n += static_cast<std::int64_t>(inBlock.size());
                            return true;
                        },
                        enter);
                if (!complete) {
                    incomplete = true;
                    break;
                }
                doneContexts += last - first;
                if (thread == 0 && report)
                    progress_(progressShare * doneContexts.load() / contexts);
            }
            walked += n;
            skipped += blocksSkipped;
        };
        std::vector<std::thread> helpers;
        for (int t = 1; t < std::min(threads, std::max(groups, 1)); ++t)
            helpers.emplace_back(work, t);
        work(0);
        for (std::thread& h : helpers)
            h.join();
        result_.cancelled = incomplete.load() || stop_.load(std::memory_order_relaxed);
        if (report)
            progress_(progressShare);
        if (count) {
            result_.candidates += walked.load() + skipped.load();
            if constexpr (!takesUnscored)
                result_.softEvaluations += walked.load();
        }
    }

    // Whether the context's lowest corner (each uniform minimum, less FracMix's rounding)
    // already fails the memory screen or a monotone latency screen: every recipe of it
    // mixes its uniform estimates, so lies above that corner, and fails too.
    bool cornerFails(int c, const LatencyScreen* screen, double memoryScreen) const
    {
        const SoftScore& low = table_.lowestUniform(c);
        const double shrink = 1 - kSoftRounding;
        return low.memoryBytes * shrink > memoryScreen ||
               (screen && screen->monotone() &&
                !screen->passes({low.rawTtft * shrink, low.rawTpot * shrink, 0}));
    }

    Stopwatch clock_; // first: the wall time includes the table build
    const Engine& engine_;
    const ProgressFn progress_; // by value: callers may pass a temporary
    const std::atomic<bool>& stop_;
    SearchResult result_;
    FracMixTable table_;
    int threads_;
};

} // namespace acsel
