#include "core/search/nearestmiss.h"

#include "core/model/units.h"
#include "core/search/exactsearch.h"
#include "core/search/screeningrun.h"
#include "core/search/tierule.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace acsel
{

std::string_view toString(BudgetKind b)
{
    switch (b) {
    case BudgetKind::Ttft:
        return "TTFT";
    case BudgetKind::Tpot:
        return "TPOT";
    case BudgetKind::Memory:
        break;
    }
    return "memory";
}

std::string_view unitOf(BudgetKind b)
{
    return b == BudgetKind::Memory ? "GiB" : "ms";
}

double budgetOf(const Request& q, BudgetKind b)
{
    switch (b) {
    case BudgetKind::Ttft:
        return q.ttftBudgetMs;
    case BudgetKind::Tpot:
        return q.tpotBudgetMs;
    case BudgetKind::Memory:
        break;
    }
    return q.memBudgetGiB;
}

Request withBudget(Request q, BudgetKind b, double value)
{
    switch (b) {
    case BudgetKind::Ttft:
        q.ttftBudgetMs = value;
        break;
    case BudgetKind::Tpot:
        q.tpotBudgetMs = value;
        break;
    case BudgetKind::Memory:
        q.memBudgetGiB = value;
        break;
    }
    return q;
}

double metricOf(const Prediction& p, BudgetKind b)
{
    switch (b) {
    case BudgetKind::Ttft:
        return p.ttftMs;
    case BudgetKind::Tpot:
        return p.tpotMs;
    case BudgetKind::Memory:
        break;
    }
    return p.admittedMemoryBytes();
}

namespace
{

constexpr std::size_t kFirstRound = 1024;
constexpr std::size_t kGrowth = 4;

// A screened candidate keyed by a lower bound of its metric; (bound, context, recipe) orders
// the candidates totally, so a round resumes exactly after the last one the previous took.
struct Bounded {
    double bound = 0;
    std::int32_t context = 0;
    BandRecipe recipe;
};

bool boundedPrecedes(const Bounded& a, const Bounded& b)
{
    if (a.bound != b.bound || a.context != b.context)
        return std::tie(a.bound, a.context) < std::tie(b.bound, b.context);
    return recipePrecedes(a.recipe, b.recipe);
}

// The metric's lower bound from a FracMix score: memory is exact there (less its rounding);
// calibrated FracMix latency bounds the gate's when `latencyBounds`, else nothing does.
class MetricBound
{
public:
    MetricBound(const FracMixTable& t, BudgetKind b, bool latencyBounds)
        : table_(&t), budget_(b), latencyBounds_(latencyBounds)
    {
    }
    double operator()(const SoftScore& s) const
    {
        constexpr double shrink = 1 - kSoftRounding;
        if (budget_ == BudgetKind::Memory)
            return s.memoryBytes * shrink;
        if (!latencyBounds_)
            return -std::numeric_limits<double>::infinity();
        const LatencyMs cal = table_->calibrated({s.rawTtft * shrink, s.rawTpot * shrink, 0});
        return budget_ == BudgetKind::Ttft ? cal.ttft : cal.tpot;
    }

private:
    const FracMixTable* table_;
    BudgetKind budget_;
    bool latencyBounds_;
};

// One thread's share of a round: the `size` lowest candidates after `after` whose bound can
// still beat `best`, in a max-heap, and how many qualified.
struct MissRoundKeeper {
    MetricBound bound;
    const FracMixTable* table = nullptr;
    const std::optional<Bounded>* after = nullptr;
    const std::optional<double>* best = nullptr;
    std::size_t size = 0;
    std::vector<Bounded> heap;
    std::size_t qualified = 0;

    bool skipsContext(int c) const
    {
        return best->has_value() && bound(table->lowestUniform(c)) >= **best;
    }
    void operator()(int c, const BandRecipe& r, const SoftScore& s)
    {
        const Bounded k{bound(s), c, r};
        if ((best->has_value() && k.bound >= **best) ||
            (after->has_value() && !boundedPrecedes(**after, k)))
            return;
        ++qualified;
        if (heap.size() < size) {
            heap.push_back(k);
            std::push_heap(heap.begin(), heap.end(), boundedPrecedes);
        } else if (boundedPrecedes(k, heap.front())) {
            std::pop_heap(heap.begin(), heap.end(), boundedPrecedes);
            heap.back() = k;
            std::push_heap(heap.begin(), heap.end(), boundedPrecedes);
        }
    }
};

// The smallest multiple of 0.1 (ms, or GiB) that, given as b's budget of `asked` and gated
// with the margin, admits a configuration whose metric is `lowest`.
double suggestedBudget(const Request& asked, BudgetKind b, double lowest,
                       const BudgetMargin& margin, const Platform& gpu)
{
    const auto admits = [&](double value) {
        const Request q = margin.apply(withBudget(asked, b, value), gpu);
        return b == BudgetKind::Memory ? memoryBudgetBytes(q, gpu) >= lowest
                                       : budgetOf(q, b) >= lowest;
    };
    const double unit = b == BudgetKind::Memory ? kGiB : 1.0;
    const double guess = lowest / unit / (1 - margin.percent / 100);
    auto tenths = static_cast<std::int64_t>(std::floor(guess * 10)) - 1;
    while (!admits(static_cast<double>(tenths) / 10))
        ++tenths;
    return static_cast<double>(tenths) / 10;
}

} // namespace

std::optional<double> lowestAdmitted(const Engine& e, const Request& q, BudgetKind b,
                                     const SearchOptions& o, const std::atomic<bool>& stop,
                                     bool* stopped, std::size_t firstRound)
{
    ScreeningRun run("nearest miss", e, q, o, {}, stop);
    const FracMixTable& table = run.table();
    // As in ExactSearch: the latency screen of the budgets kept is sound only where FracMix
    // bounds the estimate; memory screens exactly either way.
    const bool latencyBounds = e.fracMixIsLowerBound(q) && table.calibration().monotone();
    const LatencyScreen screen(table.calibration(), q.ttftBudgetMs, q.tpotBudgetMs);
    std::optional<double> best;
    std::optional<Bounded> after;
    const MetricBound bound(table, b, latencyBounds);
    for (std::size_t size = firstRound > 0 ? firstRound : kFirstRound;; size *= kGrowth) {
        // The first walk counts the space; later ones walk the same space again.
        std::vector<MissRoundKeeper> keepers = run.forEachScreenedRecipeInParallel(
            latencyBounds ? &screen : nullptr, 0.0,
            MissRoundKeeper{bound, &table, &after, &best, size, {}, 0}, !after.has_value());
        if (run.cancelled())
            break;
        std::vector<Bounded> round;
        std::size_t qualified = 0;
        for (MissRoundKeeper& k : keepers) {
            qualified += k.qualified;
            round.insert(round.end(), k.heap.begin(), k.heap.end());
        }
        std::sort(round.begin(), round.end(), boundedPrecedes);
        if (round.size() > size)
            round.resize(size);
        for (const Bounded& c : round) {
            if (best && c.bound >= *best)
                return best; // every later candidate is bounded at least as high
            const Config cfg =
                table.config(c.context, c.recipe, table.bestQuality(c.context, c.recipe).first);
            const GateResult g = fullGate(e, cfg, q);
            if (g.admitted())
                best =
                    std::min(best.value_or(metricOf(g.prediction, b)), metricOf(g.prediction, b));
            if (stop.load(std::memory_order_relaxed))
                break;
        }
        if (stop.load(std::memory_order_relaxed))
            break;
        if (qualified <= size)
            return best; // the round held every candidate left
        after = round.back();
    }
    if (stopped)
        *stopped = true;
    return std::nullopt;
}

NearestMiss nearestMiss(const Engine& e, const Request& asked, const BudgetMargin& margin,
                        const SearchOptions& o, const std::atomic<bool>& stop)
{
    const Workspace& ws = e.workspace();
    const auto stack = ws.findStack(asked.stack);
    if (!stack)
        throw std::invalid_argument("unknown stack '" + asked.stack + "'");
    const Platform& gpu = ws.platformOf(ws.stacks[static_cast<std::size_t>(*stack)]);
    NearestMiss out;
    for (std::size_t i = 0; i < kBudgetKinds.size(); ++i) {
        const BudgetKind b = kBudgetKinds[i];
        BudgetMiss& m = out.budgets[i];
        m.budget = b;
        // Lifted: the gate caps memory at the device (less the margin).
        const Request lifted =
            margin.apply(withBudget(asked, b, std::numeric_limits<double>::infinity()), gpu);
        m.lowest = lowestAdmitted(e, lifted, b, o, stop, &out.stopped);
        if (out.stopped)
            return out;
        if (!m.lowest)
            continue;
        m.suggested = suggestedBudget(asked, b, *m.lowest, margin, gpu);
        m.answer =
            ExactSearch().run(e, margin.apply(withBudget(asked, b, m.suggested), gpu), o, {}, stop);
        if (m.answer.cancelled) {
            out.stopped = true;
            return out;
        }
    }
    return out;
}

} // namespace acsel
