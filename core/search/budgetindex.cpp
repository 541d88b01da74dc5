#include "core/search/budgetindex.h"

#include "core/search/dominancegrid.h"
#include "core/search/screeningrun.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

namespace acsel
{
namespace
{

// Candidates a round holds (64 B each: about 16 MB), unless one RMQD bin alone has more.
constexpr std::int64_t kRound = std::int64_t{1} << 18;

Request withoutBudgets(Request q)
{
    const double none = std::numeric_limits<double>::infinity();
    q.ttftBudgetMs = q.tpotBudgetMs = q.memBudgetGiB = none;
    return q;
}

// A bound is compared after shrinking it by this factor: FracMix and the full estimate of a
// uniform recipe agree only to a few ulp (relative 1e-15), and an ordering kept through the
// calibration's exp(delta) * raw^gamma needs a margin above its rounding divided by gamma.
double boundShrink(const Calibration& c)
{
    return 1 - 1e-9 / std::min({1.0, c.gammaTtft, c.gammaTpot});
}

// Increasing RMQD, ties in a fixed order of the candidate: which members a tie keeps depends
// on the order they come in, and that must not depend on the threads.
bool walkOrder(const ScoredCandidate& a, const ScoredCandidate& b)
{
    if (a.rmqd != b.rmqd)
        return a.rmqd < b.rmqd;
    if (a.context != b.context)
        return a.context < b.context;
    if (recipePrecedes(a.recipe, b.recipe) || recipePrecedes(b.recipe, a.recipe))
        return recipePrecedes(a.recipe, b.recipe);
    return a.algorithm < b.algorithm;
}

// A lower bound of a candidate's raw latencies and of the memory the gate compares.
struct Bound {
    double ttft = 0, tpot = 0, memory = 0;
};

// RMQD in bins (a float's bit pattern shifted: 128 bins per octave, ordered as the values,
// equal floats in one bin), so that a round takes whole bins and no tie is ever split.
constexpr int kRmqdBins = 1 << 15;
int rmqdBin(double rmqd)
{
    return static_cast<int>(std::bit_cast<std::uint32_t>(static_cast<float>(rmqd)) >> 16);
}

// One thread's share of a walk over the candidates no member dominates yet: those of the
// round's bins (floorBin, cutBin] are kept, those above are counted per bin to plan the next
// rounds; NaN RMQD (no answer, as in Exact) and the bins already decided are skipped.
struct IndexRoundKeeper {
    const FracMixTable* table = nullptr;
    const DominanceGrid* grid = nullptr;
    double shrink = 1;
    int floorBin = -1, cutBin = -1;
    std::vector<ScoredCandidate> kept;
    std::vector<std::int64_t> above; // per bin, beyond cutBin
    std::int64_t settled = 0;        // walked and already decided (dominated or gated)
    QualityMemo quality;

    // A context whose lowest corner (every uniform minimum at once) is dominated has only
    // dominated recipes: each recipe lies above that corner.
    bool skipsContext(int c)
    {
        const SoftScore& low = table->lowestUniform(c);
        if (!grid->dominated(low.rawTtft * shrink, low.rawTpot * shrink, low.memoryBytes * shrink))
            return false;
        settled += table->space(c).recipeCount();
        return true;
    }

    void operator()(int c, const BandRecipe& r, const SoftScore& s)
    {
        if (grid->dominated(s.rawTtft * shrink, s.rawTpot * shrink, s.memoryBytes * shrink)) {
            ++settled;
            return;
        }
        const auto [algo, rmqd] = quality.best(*table, c, r);
        const int bin = rmqdBin(rmqd);
        if (std::isnan(rmqd) || bin <= floorBin) {
            ++settled;
        } else if (bin <= cutBin) {
            kept.push_back({r, rmqd, 0.0, c, algo});
        } else {
            if (above.empty())
                above.assign(kRmqdBins, 0);
            ++above[static_cast<std::size_t>(bin)];
        }
    }
};

} // namespace

bool BudgetIndex::applies(const Engine& e, const Request& q)
{
    return e.fracMixIsLowerBound(q) && e.calibration(q.stack).monotone();
}

std::optional<BudgetIndex> BudgetIndex::build(const Engine& e, const Request& q,
                                              const SearchOptions& o, const ProgressFn& progress,
                                              const std::atomic<bool>& stop)
{
    if (!applies(e, q))
        throw std::invalid_argument("no budget index for this request: FracMix is no lower "
                                    "bound of its latency (an engine without that bound or a "
                                    "non-monotone calibration)");
    BudgetIndex index;
    index.workspace_ = &e.workspace();
    index.workload_ = withoutBudgets(q);
    const ProgressFn silent;
    ScreeningRun run("exact", e, index.workload_, o, silent, stop);
    const FracMixTable& table = run.table();
    if (table.recipeCount() > kMaxCandidates)
        throw std::length_error(
            "no budget index for this workload: " + std::to_string(table.recipeCount()) +
            " candidates, more than the index takes (" + std::to_string(kMaxCandidates) +
            "); budgets are searched");
    index.calibration_ = table.calibration();
    index.deviceCapacity_ = table.deviceCapacity();
    const double shrink = boundShrink(table.calibration());

    // Members of the RMQD (at float precision) being walked stay out of the grid: against a
    // candidate of the same RMQD a member only wins under the later keys of the answer order,
    // checked one by one (`pending`). Grid members are strictly lower in RMQD than anything
    // still to come.
    DominanceGrid grid(table.lowestUniform().rawTtft, table.highestUniform().rawTtft,
                       table.lowestUniform().rawTpot, table.highestUniform().rawTpot, 1024);
    std::vector<std::size_t> pending;
    float pendingRmqd = -std::numeric_limits<float>::infinity();
    const auto flush = [&] {
        for (std::size_t m : pending) {
            const Prediction& p = index.members_[m].prediction;
            grid.add(p.rawTtftMs, p.rawTpotMs, p.admittedMemoryBytes());
        }
        pending.clear();
    };
    // Whether a pending member f comes before a candidate of f's RMQD or above under every
    // budget once it beats it on memory and latency (`beats`): the candidates come in
    // non-decreasing RMQD, so f.rmqd <= rmqd, and a lower one at float precision wins (pending
    // members wait for the grid until a candidate of another RMQD is decided); at f's, f needs
    // no more GPUs, and fewer wins; on as many it needs no more bands and to win one remaining
    // tie.
    const auto pendingDominates = [&](double rmqd, const Config& c, auto beats) {
        for (std::size_t m : pending) {
            const Member& f = index.members_[m];
            const int bands = f.config.recipe.size(), cBands = c.recipe.size();
            const bool precedes =
                coarse(f.rmqd) < coarse(rmqd) || f.config.tp < c.tp ||
                (f.config.tp == c.tp && bands <= cBands &&
                 (f.rmqd < rmqd || bands < cBands || configPrecedes(f.config, c)));
            if (precedes && beats(f.prediction))
                return true;
        }
        return false;
    };
    // Whether a member beats a candidate's bound: its latency is FracMix's shrunk (FracMix
    // may exceed the full estimate it bounds by its rounding), its memory the gate's own
    // (admittedMemoryBytes) or, before that is known, FracMix's shrunk too.
    const auto boundDominated = [&](double rmqd, const Config& cfg, const Bound& b) {
        return grid.dominated(b.ttft, b.tpot, b.memory) ||
               pendingDominates(rmqd, cfg, [&](const Prediction& f) {
                   return f.rawTtftMs <= b.ttft && f.rawTpotMs <= b.tpot &&
                          f.admittedMemoryBytes() <= b.memory;
               });
    };
    // Whether a member beats a candidate's full estimate: no more memory (compared with the
    // budget as it is), and each raw latency equal (the calibration maps equal values to equal
    // ones) or lower by the shrink (an ordering kept through the calibration's rounding).
    const auto fullDominated = [&](double rmqd, const Config& cfg, const Prediction& p) {
        const auto noSlower = [&](double f, double c) { return f == c || f <= c * shrink; };
        return grid.dominated(p.rawTtftMs, p.rawTpotMs, p.admittedMemoryBytes(), shrink) ||
               pendingDominates(rmqd, cfg, [&](const Prediction& f) {
                   return noSlower(f.rawTtftMs, p.rawTtftMs) &&
                          noSlower(f.rawTpotMs, p.rawTpotMs) &&
                          f.admittedMemoryBytes() <= p.admittedMemoryBytes();
               });
    };
    // `gated`: the candidate's full gate, computed ahead; `bound` its bound then.
    const auto consider = [&](const ScoredCandidate& s, const Bound& bound,
                              const GateResult& gated) {
        if (coarse(s.rmqd) != pendingRmqd) {
            flush();
            pendingRmqd = coarse(s.rmqd);
        }
        const Config cfg = table.config(s.context, s.recipe, s.algorithm);
        if (!gated.admitted() || // not exportable (larger than the device: never gated)
            boundDominated(s.rmqd, cfg, bound) || fullDominated(s.rmqd, cfg, gated.prediction))
            return;
        pending.push_back(index.members_.size());
        index.members_.push_back({cfg, s.rmqd, gated.prediction});
    };
    // The candidates of a round are decided in order, a chunk at a time. First the bounds:
    // FracMix's, then with the gate's memory (cheap, exact) for those it does not settle.
    // The full gates of those the members known at the chunk's start do not dominate are then
    // computed on the run's threads (a few turn out dominated by members of the same chunk:
    // gated for nothing, never wrongly kept), and each is decided in order. Which gates are
    // computed does not depend on the threads. A candidate settled at the chunk's start stays
    // settled: the members only grow.
    const int threads = searchThreads(o);
    const auto decide = [&](const std::vector<ScoredCandidate>& ready) {
        constexpr std::size_t kChunk = 512;
        std::vector<GateResult> gates;
        std::vector<Bound> bounds;
        std::vector<std::size_t> ahead;
        for (std::size_t begin = 0; begin < ready.size(); begin += kChunk) {
            const std::size_t end = std::min(ready.size(), begin + kChunk);
            ahead.clear();
            bounds.clear();
            for (std::size_t i = begin; i < end; ++i) {
                const ScoredCandidate& s = ready[i];
                const Config cfg = table.config(s.context, s.recipe, s.algorithm);
                const SoftScore soft = table.soft(s.context, s.recipe);
                Bound b{soft.rawTtft * shrink, soft.rawTpot * shrink, soft.memoryBytes * shrink};
                if (boundDominated(s.rmqd, cfg, b))
                    continue;
                const std::optional<double> memory = admittedMemoryBytes(e, cfg, index.workload_);
                if (!memory)
                    continue;
                b.memory = *memory;
                if (boundDominated(s.rmqd, cfg, b))
                    continue;
                ahead.push_back(i);
                bounds.push_back(b);
            }
            gates.assign(ahead.size(), GateResult{});
            std::atomic<std::size_t> next{0};
            const auto work = [&] {
                for (std::size_t k; (k = next.fetch_add(1)) < ahead.size();) {
                    const ScoredCandidate& s = ready[ahead[k]];
                    gates[k] = fullGate(e, table.config(s.context, s.recipe, s.algorithm),
                                        index.workload_);
                }
            };
            std::vector<std::thread> helpers;
            for (int t = 1; t < std::min<int>(threads, static_cast<int>(ahead.size())); ++t)
                helpers.emplace_back(work);
            work();
            for (std::thread& h : helpers)
                h.join();
            index.stats_.fullGates += static_cast<std::int64_t>(ahead.size());
            if (stop.load(std::memory_order_relaxed))
                return false;
            for (std::size_t k = 0; k < ahead.size(); ++k)
                consider(ready[ahead[k]], bounds[k], gates[k]);
        }
        return true;
    };

    // The first walk only counts per bin; each later one keeps the next round's bins (up to
    // kRound candidates, or one bin) and counts the rest again, fewer as the members grow.
    const double candidates = static_cast<double>(std::max<std::int64_t>(table.recipeCount(), 1));
    for (int floorBin = -1, cutBin = -1;;) {
        const bool first = index.stats_.walks == 0;
        std::vector<IndexRoundKeeper> keepers = run.forEachScreenedRecipeInParallel(
            nullptr, 0.0, IndexRoundKeeper{&table, &grid, shrink, floorBin, cutBin, {}, {}, 0, {}},
            first);
        ++index.stats_.walks;
        if (run.cancelled())
            return std::nullopt;
        std::vector<ScoredCandidate> ready;
        std::vector<std::int64_t> above(kRmqdBins, 0);
        std::int64_t settled = 0;
        std::size_t kept = 0;
        for (const IndexRoundKeeper& k : keepers)
            kept += k.kept.size();
        ready.reserve(kept);
        for (IndexRoundKeeper& k : keepers) {
            ready.insert(ready.end(), k.kept.begin(), k.kept.end());
            k.kept = {}; // one copy at a time
            for (std::size_t bin = 0; bin < k.above.size(); ++bin)
                above[bin] += k.above[bin];
            settled += k.settled;
        }
        keepers.clear();
        if (progress)
            progress(static_cast<double>(settled) / candidates);
        std::sort(ready.begin(), ready.end(), walkOrder);
        if (!decide(ready))
            return std::nullopt;
        floorBin = cutBin;
        std::int64_t planned = 0;
        for (int bin = cutBin + 1; bin < kRmqdBins; ++bin) {
            const std::int64_t n = above[static_cast<std::size_t>(bin)];
            if (n > 0 && planned > 0 && planned + n > kRound)
                break;
            planned += n;
            cutBin = bin;
        }
        if (planned == 0)
            break;
    }
    index.stats_.candidates = run.result().candidates;
    index.stats_.buildSeconds = run.finish().wallSeconds;
    index.members_.shrink_to_fit();
    if (progress)
        progress(1.0);
    return index;
}

bool BudgetIndex::answers(const Engine& e, const Request& q) const
{
    return &e.workspace() == workspace_ && withoutBudgets(q) == workload_ &&
           e.calibration(q.stack) == calibration_;
}

SearchResult BudgetIndex::answer(const Request& q) const
{
    const Stopwatch clock;
    SearchResult r;
    r.algorithm = "exact";
    r.candidates = stats_.candidates;
    const double memoryBudget = memoryBudgetBytes(q, deviceCapacity_);
    std::optional<AnswerKey> best;
    const Member* chosen = nullptr;
    for (const Member& m : members_) {
        if (best && coarse(m.rmqd) != coarse(best->rmqd))
            break;
        const Prediction& p = m.prediction;
        if (p.admittedMemoryBytes() > memoryBudget || p.ttftMs > q.ttftBudgetMs ||
            p.tpotMs > q.tpotBudgetMs)
            continue;
        const AnswerKey key = answerKey(m.rmqd, p, m.config, q);
        if (!best || answerPrecedes(key, *best)) {
            best = key;
            chosen = &m;
        }
    }
    if (chosen) {
        r.config = chosen->config;
        r.gate.prediction = chosen->prediction;
    }
    r.wallSeconds = clock.seconds();
    return r;
}

} // namespace acsel
