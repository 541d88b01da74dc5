#include "core/search/budgetindex.h"

#include "core/search/admittedmemoryfloor.h"
#include "core/search/blockqualitybound.h"
#include "core/search/dominancegrid.h"
#include "core/search/forwardingengine.h"
#include "core/search/screeningrun.h"
#include "core/search/workshare.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace acsel
{
namespace
{

// Candidates a walk takes for a round (16 B each: 0.5 MB; the keepers together hold up to twice
// that before they cut), unless one RMQD bin alone has more. Small rounds walk more often but
// take fewer candidates: the members of each round's bins settle much of the next.
constexpr std::int64_t kRound = std::int64_t{1} << 15;

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

// A band recipe in one integer whose order is recipePrecedes' (band count, then each band's
// end, format and scope): a kept candidate sorts without decoding.
constexpr int kEndBits = 12, kBandBits = kEndBits + 5; // 3 bits of format, 2 of scope
constexpr int kMaxIndexedLayers = (1 << kEndBits) - 1;
static_assert(kFormatCount <= 8 && kScopeCount <= 4 && BandRecipe::kMaxBands == 3);

std::uint64_t packRecipe(const BandRecipe& r)
{
    auto v = static_cast<std::uint64_t>(r.size());
    for (int i = 0; i < BandRecipe::kMaxBands; ++i) {
        v <<= kBandBits;
        if (i < r.size())
            v |= static_cast<std::uint64_t>(r[i].end) << 5 |
                 static_cast<std::uint64_t>(r[i].format) << 2 |
                 static_cast<std::uint64_t>(r[i].scope);
    }
    return v;
}

BandRecipe unpackRecipe(std::uint64_t v)
{
    BandRecipe r;
    const auto bands = static_cast<int>(v >> (BandRecipe::kMaxBands * kBandBits));
    for (int i = 0, begin = 0; i < bands; ++i) {
        const std::uint64_t b =
            v >> ((BandRecipe::kMaxBands - 1 - i) * kBandBits) & ((1u << kBandBits) - 1);
        const auto end = static_cast<int>(b >> 5);
        r.push({begin, end, static_cast<Format>(b >> 2 & 7u), static_cast<Scope>(b & 3u)});
        begin = end;
    }
    return r;
}

struct IndexCandidate {
    double rmqd = 0;
    std::uint64_t recipe = 0; // packRecipe
    std::int32_t context = 0;
    Algorithm algorithm = Algorithm::Max;
    // The walk's FracMix latencies rounded down to floats, still lower bounds of the
    // candidate's, and the lower bound of the memory the gate compares (AdmittedMemoryFloor):
    // the later screens need no decoding. The memory stays a double: a vLLM engine's total is
    // a multiple of 0.001 of the device, shared to the bit by many members and candidates.
    float ttft = 0, tpot = 0;
    double memory = 0;
};

// A candidate a walk takes, scored once the walk is over and the round's bins are known: a
// candidate of a bin above them is dropped before its score.
struct TakenCandidate {
    std::uint64_t recipe = 0; // packRecipe
    std::int32_t context = 0;
    std::uint16_t bin = 0; // rmqdBin
};

// x rounded to a float no higher than x (x >= 0).
float floatBelow(double x)
{
    const auto f = static_cast<float>(x);
    // The float below a positive one is the one whose bit pattern is one less (nextafter,
    // without its call: this runs for every candidate kept).
    return static_cast<double>(f) > x ? std::bit_cast<float>(std::bit_cast<std::uint32_t>(f) - 1)
                                      : f;
}

// Increasing RMQD, ties in a fixed order of the candidate: which members a tie keeps depends
// on the order they come in, and that must not depend on the threads.
bool walkOrder(const IndexCandidate& a, const IndexCandidate& b)
{
    return std::tie(a.rmqd, a.context, a.recipe, a.algorithm) <
           std::tie(b.rmqd, b.context, b.recipe, b.algorithm);
}

// The engine without the quality surrogate's prediction (RMQD 0): a build full-gates several
// times more configurations than it keeps, and a member's Prediction::rmqd is Engine::rmqd,
// set once the members are known.
class EngineWithoutRmqd final : public ForwardingEngine
{
public:
    using ForwardingEngine::ForwardingEngine;
    double rmqd(const Config&) const override { return 0; }
};

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
// A recipe's bin not computed yet, and NaN RMQD (no answer, as in Exact): beyond every bin.
constexpr std::uint16_t kBinUnknown = 0xffff, kBinNoAnswer = 0xfffe;
static_assert(kRmqdBins <= kBinNoAnswer);

// The lowest bin above floorBin at which the counts (bin floorBin + 1 + k at k) reach `round`
// (the last bin when they never do): a round's bins.
int roundCut(const std::vector<std::int64_t>& counts, int floorBin, std::int64_t round)
{
    std::int64_t n = 0;
    for (std::size_t k = 0; k < counts.size(); ++k)
        if ((n += counts[k]) >= round)
            return floorBin + 1 + static_cast<int>(k);
    return kRmqdBins - 1;
}

// Whether bits [from, from + n) are all set.
bool allDecided(const std::uint64_t* words, std::int64_t from, std::int64_t n)
{
    for (std::int64_t at = from, end = from + n; at < end;) {
        const auto offset = static_cast<int>(at % 64);
        const std::int64_t take = std::min<std::int64_t>(64 - offset, end - at);
        const std::uint64_t mask = (take == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << take) - 1)
                                   << offset;
        if ((words[at / 64] & mask) != mask)
            return false;
        at += take;
    }
    return true;
}

void markDecided(std::uint64_t* words, std::int64_t from, std::int64_t n)
{
    for (std::int64_t at = from, end = from + n; at < end;) {
        const auto offset = static_cast<int>(at % 64);
        const std::int64_t take = std::min<std::int64_t>(64 - offset, end - at);
        words[at / 64] |= (take == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << take) - 1)
                          << offset;
        at += take;
    }
}

// The keepers' candidates, one slot per thread reused from walk to walk: allocating them anew for
// every walk cost a fifth of the build in page faults and copies. Each slot also shows the
// other keepers what its keeper holds: how many candidates, and per bin how many it took in
// this walk (its own thread writes them; the others only read), so that every keeper cuts at
// the round's bins as soon as the walk together holds twice a round, not once it alone does.
// A slot is written at every candidate its keeper takes, so it has cache lines of its own:
// two slots sharing one made each of two threads' walks about twice as slow as one thread's.
struct alignas(64) KeptSlot {
    std::vector<TakenCandidate> candidates;
    AdmittedMemoryMemo memory; // its steps hold from walk to walk
    std::atomic<std::size_t> held{0};
    std::vector<std::atomic<std::int64_t>> taken =
        std::vector<std::atomic<std::int64_t>>(kRmqdBins);
    int lowestTaken = kRmqdBins, highestTaken = -1; // the bins counted in `taken` this walk
};

struct KeptBuffers {
    explicit KeptBuffers(int threads) : slots(static_cast<std::size_t>(std::max(1, threads))) {}

    // Before a walk: every slot empty, its counts zero.
    void reset()
    {
        for (KeptSlot& s : slots) {
            s.held.store(0, std::memory_order_relaxed);
            for (int b = s.lowestTaken; b <= s.highestTaken; ++b)
                s.taken[static_cast<std::size_t>(b)].store(0, std::memory_order_relaxed);
            s.lowestTaken = kRmqdBins;
            s.highestTaken = -1;
        }
        next = 0;
    }
    std::size_t held() const
    {
        std::size_t n = 0;
        for (const KeptSlot& s : slots)
            n += s.held.load(std::memory_order_relaxed);
        return n;
    }
    // roundCut over the slots' counts, and the candidates counted up to that bin. A count taken
    // in this walk is no more than its keeper holds below any cut not yet made: a keeper only
    // drops bins above a cut, and a new cut only takes effect below every earlier one.
    std::pair<int, std::int64_t> roundCut(int floorBin, std::int64_t round) const
    {
        std::int64_t n = 0;
        int bin = floorBin + 1;
        for (; bin < kRmqdBins - 1; ++bin) {
            for (const KeptSlot& s : slots)
                n += s.taken[static_cast<std::size_t>(bin)].load(std::memory_order_relaxed);
            if (n >= round)
                break;
        }
        return {bin, n};
    }

    std::vector<KeptSlot> slots;
    std::atomic<std::size_t> next{0};
};

// One thread's share of a walk over the candidates not settled yet, above the bins already
// decided (floorBin): it takes those of the lowest bins, unscored, dropping the bins above
// `round` of them (whole bins: ties are never split) once the keepers together hold twice that,
// so the merged keepers hold every candidate of the round's bins (the lowest bins up to `round`
// candidates), scored after the walk. A context whose lowest RMQD is above the bins kept is not
// walked; NaN RMQD (no answer, as in Exact) and the bins already decided are skipped. A
// candidate settled stays settled (the members only grow, the decided bins too): its bit in
// `decided` (a context's recipes from base[c] on, in ConfigSpace::forEachRecipe's order; each
// context's bits in words of their own, so threads never share a word) spares the later walks
// its RMQD bin. A recipe's bin, computed once for its quality group (`bins`), leaves it untaken
// in walks whose bins are below or above it. A block of recipes (skipsBlock) is skipped whole
// when each of its bits is set; left for a later round when its lowest bin when last walked is
// above the bins kept; when its lowest corner (FracMixTable::lowestOfBlock) is dominated: every
// recipe of the block lies above that corner, so a member that beats the corner beats each of
// them (the proof of skipsContext, on a block), and its bits are set; or, left for a later round,
// when its lowest RMQD (BlockQualityBound) is above the bins kept: so is each recipe's (float
// rounding and the bins are monotone). Every memory compared is the admitted memory's floor of
// the FracMix memory (a corner's too: the floor is non-decreasing). Cache lines of its own,
// as a slot's: a keeper is written at every recipe.
struct alignas(64) IndexRoundKeeper {
    const FracMixTable* table = nullptr;
    const AdmittedMemoryFloor* memoryFloor = nullptr;
    const DominanceGrid* grid = nullptr;
    const BlockQualityBound* qualityBound = nullptr;
    std::uint64_t* decided = nullptr;
    const std::int64_t* base = nullptr;
    // Per recipe of each quality group (from qualityBase[c] for context c, in forEachRecipe's
    // order), its RMQD bin once a walk computed it: the contexts of a group share their RMQDs,
    // and one thread walks a group's contexts (siblings), so no two threads write one entry.
    std::uint16_t* bins = nullptr;
    const std::int64_t* qualityBase = nullptr;
    std::uint64_t lastBit = 0;         // the recipe take() was last given, in `decided`
    std::vector<std::int64_t> entered; // per context, the recipes of the blocks entered so far
    // Per block of each context (from blockBase[c], in forEachRecipe's order), a bin no higher
    // than that of any recipe of it not settled: 0 before a walk reached it, then the lowest of
    // those a walk took or left, or its lowest RMQD's (BlockQualityBound) when it was left
    // whole; kBinNoAnswer once each is settled. A block, or a context, whose lowest bin is above
    // the bins kept is left whole, unwalked.
    std::uint16_t* blockLowest = nullptr;
    const std::int64_t* blockBase = nullptr;
    std::vector<std::int64_t> blocksEntered; // per context
    std::vector<std::uint16_t*> walking;     // per context, blockLowest of the block walked
    int blockSize = 0;                       // the block being walked (the same for every sibling)
    int blockCut = 0;                        // and where its first recipe's last band begins
    double shrink = 1;
    std::int64_t round = kRound;
    int floorBin = -1;
    int cutBin = kRmqdBins - 1; // the highest bin kept
    bool dropped = false;       // whether a candidate above cutBin was left for a later round
    // The lowest cut made in the walk: the keepers together hold `round` candidates up to it,
    // so the round's cut is no higher, and every keeper leaves the bins above it.
    std::atomic<int>* sharedCut = nullptr;
    KeptBuffers* buffers = nullptr;
    KeptSlot* slot = nullptr;                    // taken from `buffers` when first needed
    std::vector<TakenCandidate>* kept = nullptr; // its candidates
    std::size_t limit = 0;    // the candidates the keepers hold together before a cut: 2 x round
    std::int64_t unshown = 0; // candidates taken since the slot last showed how many it holds
    std::int64_t showEvery = 1;
    std::int64_t settled = 0; // walked and already decided (dominated or gated)
    QualityMemo quality;

    KeptSlot& mine()
    {
        if (slot == nullptr) {
            slot = &buffers->slots.at(buffers->next.fetch_add(1));
            kept = &slot->candidates;
            kept->clear();
            kept->reserve(limit);
        }
        return *slot;
    }
    double memoryFloorOf(int c, double estimate)
    {
        return mine().memory.of(*memoryFloor, c, estimate);
    }

    bool skipsContext(int c)
    {
        // A context whose lowest corner (every uniform minimum at once) is dominated has only
        // dominated recipes: each recipe lies above that corner.
        const SoftScore& low = table->lowestUniform(c);
        if (grid->dominated(low.rawTtft * shrink, low.rawTpot * shrink,
                            memoryFloorOf(c, low.memoryBytes * shrink))) {
            settled += table->space(c).recipeCount();
            return true;
        }
        if (leaves(rmqdBin(table->lowestRmqd(c))))
            return true;
        // The lowest bin of its blocks: the whole context is settled, or left for a later round.
        const std::uint16_t lowest =
            *std::min_element(blockLowest + blockBase[c], blockLowest + blockBase[c + 1]);
        if (lowest == kBinNoAnswer) {
            settled += table->space(c).recipeCount();
            return true;
        }
        return leaves(lowest);
    }

    bool skipsBlock(int c, const BandRecipe& first, int recipes)
    {
        std::int64_t& n = entered[static_cast<std::size_t>(c)];
        const std::int64_t firstBit = base[c] + n;
        blockSize = recipes;
        blockCut = first[first.size() - 1].begin;
        n += recipes;
        std::uint16_t& lowestBin =
            blockLowest[blockBase[c] + blocksEntered[static_cast<std::size_t>(c)]++];
        if (allDecided(decided, firstBit, recipes)) {
            lowestBin = kBinNoAnswer;
            settled += recipes;
            return true;
        }
        if (leaves(lowestBin))
            return true;
        const SoftScore low = table->withConversions(c, first, table->lowestOfBlock(c, first));
        if (grid->dominated(low.rawTtft * shrink, low.rawTpot * shrink,
                            memoryFloorOf(c, low.memoryBytes * shrink))) {
            markDecided(decided, firstBit, recipes);
            lowestBin = kBinNoAnswer;
            settled += recipes;
            return true;
        }
        if (const int bound = rmqdBin(qualityBound->lowest(c, first)); leaves(bound)) {
            lowestBin = static_cast<std::uint16_t>(std::max<int>(lowestBin, bound));
            return true;
        }
        lowestBin = kBinNoAnswer; // taken anew as the block is walked
        walking[static_cast<std::size_t>(c)] = &lowestBin;
        return false;
    }

    // Takes r for context c unless it is settled already, or by its RMQD bin (below the rounds
    // decided, or no answer) or left for a later round (above the bins kept). The bin is
    // computed once per recipe of a quality group, kept across walks.
    void take(int c, const BandRecipe& r)
    {
        // Within a block only the last band's begin moves; a block's recipes (of each walked
        // sibling) are handed over before the next block is entered.
        const std::int64_t i =
            entered[static_cast<std::size_t>(c)] - blockSize + r[r.size() - 1].begin - blockCut;
        lastBit = static_cast<std::uint64_t>(base[c] + i);
        if ((decided[lastBit / 64] & std::uint64_t{1} << (lastBit % 64)) != 0) {
            ++settled;
            return;
        }
        std::uint16_t& bin = bins[static_cast<std::size_t>(qualityBase[c] + i)];
        if (bin == kBinUnknown) {
            const double rmqd = quality.best(*table, c, r).second;
            bin = std::isnan(rmqd) ? kBinNoAnswer : static_cast<std::uint16_t>(rmqdBin(rmqd));
        }
        if (bin == kBinNoAnswer || bin <= floorBin) {
            settle();
            return;
        }
        std::uint16_t& lowestBin = *walking[static_cast<std::size_t>(c)];
        lowestBin = std::min(lowestBin, bin);
        if (leaves(bin))
            return;
        mine();
        kept->push_back({packRecipe(r), c, bin});
        std::atomic<std::int64_t>& taken = slot->taken[static_cast<std::size_t>(bin)];
        taken.store(taken.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        slot->lowestTaken = std::min<int>(slot->lowestTaken, bin);
        slot->highestTaken = std::max<int>(slot->highestTaken, bin);
        if (++unshown < showEvery)
            return;
        unshown = 0;
        slot->held.store(kept->size(), std::memory_order_relaxed);
        if (buffers->held() >= limit) {
            const auto [cut, below] = buffers->roundCut(floorBin, round);
            dropAbove(cut);
            // One bin alone may hold more than the round: then the keepers take twice what
            // they hold up to it before counting again.
            limit = std::max(limit, 2 * static_cast<std::size_t>(below));
        }
    }

    // The recipe take() was last given is decided.
    void settle()
    {
        decided[lastBit / 64] |= std::uint64_t{1} << (lastBit % 64);
        ++settled;
    }

    // Whether a bin is above the cut, the shared one included: then it is left for a later
    // round.
    bool leaves(int bin)
    {
        if (bin <= cutBin) {
            const int shared = sharedCut->load(std::memory_order_relaxed);
            if (bin <= shared)
                return false;
            dropAbove(shared);
        }
        dropped = true;
        return true;
    }

    void dropAbove(int bin)
    {
        if (bin >= cutBin)
            return;
        cutBin = bin;
        dropped = true;
        for (int shared = sharedCut->load(std::memory_order_relaxed);
             bin < shared &&
             !sharedCut->compare_exchange_weak(shared, bin, std::memory_order_relaxed);)
            ;
        if (kept == nullptr)
            return;
        std::erase_if(*kept, [&](const TakenCandidate& k) { return k.bin > bin; });
        slot->held.store(kept->size(), std::memory_order_relaxed);
    }
};

} // namespace

bool BudgetIndex::applies(const Engine& e, const Request& q)
{
    return e.fracMixIsLowerBound(q) && e.calibration(q.stack).monotone();
}

std::optional<BudgetIndex> BudgetIndex::build(const Engine& e, const Request& q,
                                              const SearchOptions& o, const ProgressFn& progress,
                                              const std::atomic<bool>& stop, std::int64_t roundSize)
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
    for (int c = 0; c < static_cast<int>(table.contexts().size()); ++c)
        if (table.space(c).numLayers() > kMaxIndexedLayers)
            throw std::length_error("no budget index for a model of more than " +
                                    std::to_string(kMaxIndexedLayers) +
                                    " layers; budgets are searched");
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
                       table.lowestUniform().rawTpot, table.highestUniform().rawTpot);
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
    const auto consider = [&](double rmqd, const Config& cfg, const Bound& bound,
                              const GateResult& gated) {
        if (coarse(rmqd) != pendingRmqd) {
            flush();
            pendingRmqd = coarse(rmqd);
        }
        if (!gated.admitted() || // not exportable (larger than the device: never gated)
            boundDominated(rmqd, cfg, bound) || fullDominated(rmqd, cfg, gated.prediction))
            return;
        pending.push_back(index.members_.size());
        index.members_.push_back({cfg, rmqd, gated.prediction});
    };
    // The candidates of a round are decided in order, a chunk at a time. Each is tested
    // against the members known at the chunk's start: first by its bounds (FracMix latencies,
    // the admitted memory's floor), then, on the run's threads (helpers kept for the whole
    // build: a chunk is too short to start threads for), with the gate's memory (exact,
    // cheaper than the gate) and, not dominated, full-gated ahead (a few turn out dominated by
    // members of the same chunk: gated for nothing, never wrongly kept); then each gated one is
    // decided in order. The members are only read while the threads run, so which gates are
    // computed does not depend on the threads. A candidate settled at the chunk's start stays
    // settled: the members only grow.
    const int threads = searchThreads(o);
    const EngineWithoutRmqd withoutRmqd(e);
    struct Ahead {
        std::size_t at = 0; // in the round
        Config config;
        Bound bound;
        std::optional<GateResult> gate; // empty: settled before the gate
    };
    WorkShare share(threads);
    const auto decide = [&](const std::vector<IndexCandidate>& ready) {
        std::vector<Ahead> ahead;
        const std::function<void(std::size_t)> gateAhead = [&](std::size_t k) {
            Ahead& a = ahead[k];
            const std::optional<double> memory = admittedMemoryBytes(e, a.config, index.workload_);
            if (!memory)
                return;
            a.bound.memory = *memory;
            if (!boundDominated(ready[a.at].rmqd, a.config, a.bound))
                a.gate = fullGate(withoutRmqd, a.config, index.workload_);
        };
        constexpr std::size_t kChunk = 128;
        for (std::size_t begin = 0; begin < ready.size(); begin += kChunk) {
            const std::size_t end = std::min(ready.size(), begin + kChunk);
            ahead.clear();
            for (std::size_t i = begin; i < end; ++i) {
                const IndexCandidate& s = ready[i];
                Ahead a{i,
                        table.config(s.context, unpackRecipe(s.recipe), s.algorithm),
                        {static_cast<double>(s.ttft) * shrink, static_cast<double>(s.tpot) * shrink,
                         s.memory},
                        std::nullopt};
                if (!boundDominated(s.rmqd, a.config, a.bound))
                    ahead.push_back(std::move(a));
            }
            share.run(ahead.size(), gateAhead);
            if (stop.load(std::memory_order_relaxed))
                return false;
            for (const Ahead& a : ahead)
                if (a.gate) {
                    ++index.stats_.fullGates;
                    consider(ready[a.at].rmqd, a.config, a.bound, *a.gate);
                }
        }
        return true;
    };

    // Each walk keeps the lowest bins not decided yet, up to `round` candidates (or one bin),
    // and decides them; the first also counts the space.
    const std::int64_t round = roundSize > 0 ? roundSize : kRound;
    const auto contexts = static_cast<int>(table.contexts().size());
    std::vector<std::int64_t> base(static_cast<std::size_t>(contexts) + 1, 0);
    for (int c = 0; c < contexts; ++c)
        base[static_cast<std::size_t>(c) + 1] =
            base[static_cast<std::size_t>(c)] + (table.space(c).recipeCount() + 63) / 64 * 64;
    std::vector<std::uint64_t> decided(static_cast<std::size_t>(base.back() / 64), 0);
    // Where each context's quality group's recipes begin in `recipeBins`.
    std::vector<std::int64_t> qualityBase(static_cast<std::size_t>(contexts), 0);
    std::vector<std::int64_t> groupBase; // by FracMixTable::qualityGroup, -1 until seen
    std::int64_t binCount = 0;
    for (int c = 0; c < contexts; ++c) {
        const auto group = static_cast<std::size_t>(table.qualityGroup(c));
        if (group >= groupBase.size())
            groupBase.resize(group + 1, -1);
        if (groupBase[group] < 0) {
            groupBase[group] = binCount;
            binCount += table.space(c).recipeCount();
        }
        qualityBase[static_cast<std::size_t>(c)] = groupBase[group];
    }
    std::vector<std::uint16_t> recipeBins(static_cast<std::size_t>(binCount), kBinUnknown);
    std::vector<std::int64_t> blockBase(static_cast<std::size_t>(contexts) + 1, 0);
    for (int c = 0; c < contexts; ++c) {
        std::int64_t blocks = 0;
        table.space(c).forEachRecipe([](const BandRecipe&) {},
                                     [&](const BandRecipe&, int) {
                                         ++blocks;
                                         return false; // counted, not walked
                                     });
        blockBase[static_cast<std::size_t>(c) + 1] =
            blockBase[static_cast<std::size_t>(c)] + blocks;
    }
    std::vector<std::uint16_t> blockLowest(static_cast<std::size_t>(blockBase.back()), 0);
    const double candidates = static_cast<double>(std::max<std::int64_t>(table.recipeCount(), 1));
    std::vector<IndexCandidate> byBin, inBin; // a round's candidates, one bin's; capacity kept
    const BlockQualityBound qualityBound(table);
    const AdmittedMemoryFloor memoryFloor(e, table);
    KeptBuffers buffers(threads);
    for (int floorBin = -1;;) {
        IndexRoundKeeper prototype;
        prototype.table = &table;
        prototype.memoryFloor = &memoryFloor;
        prototype.buffers = &buffers;
        buffers.reset();
        prototype.grid = &grid;
        prototype.qualityBound = &qualityBound;
        prototype.decided = decided.data();
        prototype.base = base.data();
        prototype.bins = recipeBins.data();
        prototype.qualityBase = qualityBase.data();
        prototype.entered.assign(static_cast<std::size_t>(contexts), 0);
        prototype.blockLowest = blockLowest.data();
        prototype.blockBase = blockBase.data();
        prototype.blocksEntered.assign(static_cast<std::size_t>(contexts), 0);
        prototype.walking.assign(static_cast<std::size_t>(contexts), nullptr);
        prototype.shrink = shrink;
        prototype.round = round;
        prototype.limit = 2 * static_cast<std::size_t>(round);
        prototype.showEvery = std::clamp<std::int64_t>(round / 32, 1, 1024);
        prototype.floorBin = floorBin;
        std::atomic<int> sharedCut{kRmqdBins - 1};
        prototype.sharedCut = &sharedCut;
        std::vector<IndexRoundKeeper> keepers =
            run.forEachScreenedRecipeInParallel(nullptr, 0.0, prototype, index.stats_.walks == 0);
        ++index.stats_.walks;
        if (run.cancelled())
            return std::nullopt;
        // A keeper dropped only bins above a cut below which the keepers held `round`
        // candidates, so the merged ones are complete up to the round's cut, which does not
        // depend on the threads.
        std::int64_t settled = 0;
        bool more = false;
        std::vector<std::int64_t> counts; // bin floorBin + 1 + k at k
        for (const IndexRoundKeeper& k : keepers) {
            settled += k.settled;
            more = more || k.dropped;
            if (k.kept == nullptr)
                continue;
            for (const TakenCandidate& c : *k.kept) {
                const auto at = static_cast<std::size_t>(c.bin - floorBin - 1);
                if (at >= counts.size())
                    counts.resize(at + 1, 0);
                ++counts[at];
            }
        }
        const int cutBin = roundCut(counts, floorBin, round);
        // The round's candidates, scored on the run's threads (a share each, with its slot's
        // memory memo): those a member dominates are dropped (they are settled with the round's
        // bins), the others kept with their bounds.
        std::vector<const TakenCandidate*> taken;
        for (IndexRoundKeeper& k : keepers) {
            if (k.kept == nullptr)
                continue;
            for (const TakenCandidate& c : *k.kept) {
                more = more || c.bin > cutBin;
                if (c.bin <= cutBin)
                    taken.push_back(&c);
            }
        }
        const auto shares = buffers.slots.size();
        std::vector<std::vector<IndexCandidate>> scored(shares);
        share.run(shares, [&](std::size_t k) {
            QualityMemo quality;
            AdmittedMemoryMemo& memory = buffers.slots[k].memory;
            for (std::size_t i = taken.size() * k / shares, end = taken.size() * (k + 1) / shares;
                 i < end; ++i) {
                const TakenCandidate& t = *taken[i];
                const BandRecipe r = unpackRecipe(t.recipe);
                const SoftScore sc = table.withConversions(t.context, r, table.soft(t.context, r));
                if (sc.memoryBytes > table.memoryScreen())
                    continue;
                const double floor = memory.of(memoryFloor, t.context, sc.memoryBytes * shrink);
                if (grid.dominated(sc.rawTtft * shrink, sc.rawTpot * shrink, floor))
                    continue;
                const auto [algo, rmqd] = quality.best(table, t.context, r);
                scored[k].push_back({rmqd, t.recipe, t.context, algo, floatBelow(sc.rawTtft),
                                     floatBelow(sc.rawTpot), floor});
            }
        });
        // By bin (a counting sort), bin floorBin + 1 + k from starts[k] to starts[k + 1].
        const auto bins = static_cast<std::size_t>(cutBin - floorBin);
        std::vector<std::size_t> starts(bins + 1, 0);
        for (const std::vector<IndexCandidate>& part : scored)
            for (const IndexCandidate& c : part)
                ++starts[static_cast<std::size_t>(rmqdBin(c.rmqd) - floorBin)];
        for (std::size_t k = 0; k < bins; ++k)
            starts[k + 1] += starts[k];
        byBin.resize(starts[bins]);
        std::vector<std::size_t> next(starts.begin(), starts.end() - 1);
        for (const std::vector<IndexCandidate>& part : scored)
            for (const IndexCandidate& c : part)
                byBin[next[static_cast<std::size_t>(rmqdBin(c.rmqd) - floorBin - 1)]++] = c;
        keepers.clear();
        if (progress)
            progress(static_cast<double>(settled) / candidates);
        // Bin by bin in increasing RMQD: the members of the bins before dominate most of a
        // bin's candidates, dropped before sorting the rest.
        for (std::size_t k = 0; k < bins; ++k) {
            const std::size_t first = starts[k], last = starts[k + 1];
            if (first == last)
                continue;
            flush(); // the bins before are lower in RMQD
            inBin.clear();
            for (std::size_t i = first; i < last; ++i) {
                const IndexCandidate& c = byBin[i];
                if (!grid.dominated(static_cast<double>(c.ttft) * shrink,
                                    static_cast<double>(c.tpot) * shrink, c.memory))
                    inBin.push_back(c);
            }
            std::sort(inBin.begin(), inBin.end(), walkOrder);
            if (!decide(inBin))
                return std::nullopt;
        }
        if (!more)
            break;
        floorBin = cutBin;
    }
    // The surrogate's RMQD of each member, on the run's threads: predicted as each was kept, it
    // was a fifth of the decide step's serial part.
    share.run(index.members_.size(), [&](std::size_t m) {
        Member& f = index.members_[m];
        f.prediction.rmqd = e.rmqd(f.config);
    });
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
