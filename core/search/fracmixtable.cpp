#include "core/search/fracmixtable.h"

#include "core/model/defaults.h"
#include "core/model/tensorparallel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>

namespace acsel
{

std::vector<int> searchModels(const Workspace& ws, const SearchOptions& o)
{
    if (!o.models.empty())
        return o.models;
    std::vector<int> all(ws.models.size());
    for (std::size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<int>(i);
    return all;
}

std::vector<int> searchBatches(const Request& q, const SearchOptions& o)
{
    std::vector<int> candidates = o.batches;
    if (candidates.empty())
        candidates.assign(kDefaultBatches.begin(), kDefaultBatches.end());
    std::vector<int> out;
    for (int b : candidates)
        if (b >= q.concurrency && std::find(out.begin(), out.end(), b) == out.end())
            out.push_back(b);
    if (out.empty())
        out.push_back(q.concurrency); // every listed batch is below the concurrency
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<KvFormat> searchKvFormats(const Stack& s, const SearchOptions& o)
{
    std::vector<KvFormat> out;
    const std::vector<KvFormat> wanted =
        o.kvFormats.empty() ? std::vector<KvFormat>{KvFormat::Bf16, KvFormat::Fp8} : o.kvFormats;
    for (KvFormat k : wanted)
        if (k == KvFormat::Bf16 || s.kvFp8)
            out.push_back(k);
    return out;
}

std::vector<int> searchTps(const Engine& e, const ModelArch& arch, const Request& q,
                           const SearchOptions& o)
{
    return tpDegrees(arch, q.gpus, [&](int tp) {
        return (o.tps.empty() || std::find(o.tps.begin(), o.tps.end(), tp) != o.tps.end()) &&
               e.supportsTp(q, tp);
    });
}

std::vector<Format> searchFormats(const Stack& s, const SearchOptions& o)
{
    std::vector<Format> out;
    for (Format f : s.formats)
        if (o.formats.empty() ||
            std::find(o.formats.begin(), o.formats.end(), f) != o.formats.end())
            out.push_back(f);
    if (std::find(out.begin(), out.end(), Format::Bf16) == out.end() && s.hasFormat(Format::Bf16))
        out.push_back(Format::Bf16); // the unquantized band is always a choice
    return out;
}

int searchThreads(const SearchOptions& o)
{
    return o.threads > 0 ? o.threads
                         : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

namespace
{

SoftScore minOf(const SoftScore& a, const SoftScore& b)
{
    return {std::min(a.rawTtft, b.rawTtft), std::min(a.rawTpot, b.rawTpot),
            std::min(a.memoryBytes, b.memoryBytes)};
}
SoftScore maxOf(const SoftScore& a, const SoftScore& b)
{
    return {std::max(a.rawTtft, b.rawTtft), std::max(a.rawTpot, b.rawTpot),
            std::max(a.memoryBytes, b.memoryBytes)};
}

// `pick` (minOf, maxOf) over the uniform estimates of a context's band choices: their memory,
// and their latency at their own running count or (atRunning) at every count tabulated.
template <class Uniforms, class Running, class Pick>
SoftScore componentwise(const Uniforms& uniform, const Running& atRunning,
                        const std::vector<FormatScope>& choices, Pick pick)
{
    std::optional<SoftScore> out;
    auto take = [&](const SoftScore& s) { out = out ? pick(*out, s) : s; };
    for (const FormatScope& c : choices) {
        const auto slot = static_cast<std::size_t>(choiceSlot(c.format, c.scope));
        const auto& u = uniform[slot];
        if (atRunning.empty())
            take({u.ttft, u.tpot, u.memory});
        for (const auto& at : atRunning)
            take({at[slot].ttft, at[slot].tpot, u.memory});
    }
    return out.value_or(SoftScore{});
}

// Relative slack on a memory total when reading its running count: the mix and the engine's
// own total differ in the last bits, so a total at a slot boundary reads both counts.
constexpr double kRunningSlack = 1e-9;

} // namespace

FracMixTable::FracMixTable(const Engine& e, const Request& q, const SearchOptions& o) : request_(q)
{
    const Workspace& ws = e.workspace();
    const auto stackIndex = ws.findStack(q.stack);
    if (!stackIndex)
        throw std::invalid_argument("unknown stack '" + q.stack + "'");
    stack_ = &ws.stacks[static_cast<std::size_t>(*stackIndex)];
    calibration_ = e.calibration(q.stack);
    memoryBudget_ = memoryBudgetBytes(q, ws.platformOf(*stack_));
    deviceCapacity_ = ws.platformOf(*stack_).memCapacityBytes;

    SpaceOptions space;
    space.formats = searchFormats(*stack_, o);
    space.scopes = o.scopes;
    space.maxBands = o.maxBands;
    const std::vector<int> models = searchModels(ws, o);
    const std::vector<int> batches = searchBatches(q, o);
    const std::vector<KvFormat> kvs = searchKvFormats(*stack_, o);

    for (int m : models) {
        const ModelArch& arch = ws.models[static_cast<std::size_t>(m)];
        spaces_.emplace_back(arch.layers, space);
        const ConfigSpace& cs = spaces_.back();
        const std::vector<int> tps = searchTps(e, arch, q, o);
        for (KvFormat kv : kvs) {
            std::array<int, kAlgorithmCount> quality{};
            for (Algorithm a : kAllAlgorithms) {
                quality[static_cast<std::size_t>(a)] = static_cast<int>(qualityTerms_.size());
                qualityTerms_.push_back(e.qualityTerms(m, a, false, kv));
            }
            const double lowestRmqd = lowestRmqdOf(cs, quality);
            for (int b : batches) {
                const auto first = static_cast<int>(contexts_.size());
                for (int tp : tps) {
                    contexts_.push_back({m, b, kv, tp});
                    spaceOfContext_.push_back(static_cast<int>(spaces_.size() - 1));
                    tabulate(e, cs, contexts_.back(), quality);
                    tables_.back().lowestRmqd = lowestRmqd;
                }
                if (static_cast<int>(contexts_.size()) > first)
                    siblingGroups_.emplace_back(first, static_cast<int>(contexts_.size()));
            }
        }
    }
    // The walks take the groups of the lowest RMQD first: a keeper of the lowest RMQDs then
    // fills with them early and can skip the contexts that cannot beat what it holds.
    std::stable_sort(siblingGroups_.begin(), siblingGroups_.end(), [&](auto a, auto b) {
        return tables_[static_cast<std::size_t>(a.first)].lowestRmqd <
               tables_[static_cast<std::size_t>(b.first)].lowestRmqd;
    });
}

double FracMixTable::lowestRmqdOf(const ConfigSpace& cs,
                                  const std::array<int, kAlgorithmCount>& quality) const
{
    // Every recipe gives each layer one band choice, and its log RMQD is the constant plus
    // per-layer terms: the constant plus each layer's smallest term, under the best
    // algorithm, is below all of them. Taken a little lower so that summing per layer rather
    // than per band cannot round it above a recipe's own value.
    double lowestLog = std::numeric_limits<double>::infinity();
    for (int q : quality) {
        const SurrogateTerms& t = qualityTerms_[static_cast<std::size_t>(q)];
        double sum = t.constant;
        for (int l = 0; l < cs.numLayers(); ++l) {
            double smallest = std::numeric_limits<double>::infinity();
            for (const FormatScope& c : cs.bandChoices())
                smallest = std::min(smallest, t.rangeSum(c.format, c.scope, l, l + 1));
            sum += smallest;
        }
        lowestLog = std::min(lowestLog, sum);
    }
    return std::exp(lowestLog - 1e-9);
}

void FracMixTable::tabulate(const Engine& e, const ConfigSpace& cs, const SearchContext& context,
                            const std::array<int, kAlgorithmCount>& quality)
{
    ContextTable t;
    t.layers = cs.numLayers();
    t.quality = quality;
    Config cfg;
    cfg.model = context.model;
    cfg.batch = context.batch;
    cfg.kv = context.kv;
    cfg.tp = context.tp;
    t.running = e.runningRule(cfg, request_);
    for (const FormatScope& c : cs.bandChoices()) {
        cfg.recipe = BandRecipe::uniform(t.layers, c.format, c.scope);
        auto& u = t.uniform[static_cast<std::size_t>(choiceSlot(c.format, c.scope))];
        u.memory = e.memoryBytes(cfg, request_);
        if (t.running)
            continue;
        const LatencyMs raw = e.rawLatency(cfg, request_);
        u.ttft = raw.ttft;
        u.tpot = raw.tpot;
        ++uniformEstimates_;
    }
    if (t.running)
        tabulateRunning(e, cs, cfg, t);
    t.lowest = componentwise(t.uniform, t.atRunning, cs.bandChoices(), minOf);
    const SoftScore high = componentwise(t.uniform, t.atRunning, cs.bandChoices(), maxOf);
    const bool firstContext = tables_.empty();
    lowest_ = firstContext ? t.lowest : minOf(lowest_, t.lowest);
    highest_ = firstContext ? high : maxOf(highest_, high);
    tables_.push_back(t);
}

void FracMixTable::tabulateRunning(const Engine& e, const ConfigSpace& cs, const Config& sample,
                                   ContextTable& t)
{
    // A recipe's memory total lies within its context's uniform totals (it mixes them), and
    // its running count falls as the total grows: tabulate every count in between. Below
    // one slot a recipe cannot hold a request and fails the memory budget; it reads count 1.
    double lowest = 0, highest = 0;
    bool first = true;
    for (const FormatScope& c : cs.bandChoices()) {
        const double m = t.uniform[static_cast<std::size_t>(choiceSlot(c.format, c.scope))].memory;
        lowest = first ? m : std::min(lowest, m);
        highest = first ? m : std::max(highest, m);
        first = false;
    }
    const RunningRule& rule = *t.running;
    const auto clampCount = [&](int n) { return std::clamp(n, 1, rule.limit); };
    t.firstRunning = clampCount(rule.slotsAt(highest * (1 + kRunningSlack)));
    const int last = clampCount(rule.slotsAt(lowest * (1 - kRunningSlack)));
    Config cfg = sample;
    for (int n = t.firstRunning; n <= last; ++n) {
        RunningLatency& at = t.atRunning.emplace_back();
        for (const FormatScope& c : cs.bandChoices()) {
            cfg.recipe = BandRecipe::uniform(t.layers, c.format, c.scope);
            at[static_cast<std::size_t>(choiceSlot(c.format, c.scope))] =
                e.rawLatencyAt(cfg, request_, n);
            ++uniformEstimates_;
        }
    }
}

void FracMixTable::mixAtRunning(const ContextTable& t, const BandRecipe& r, SoftScore& s) const
{
    const RunningRule& rule = *t.running;
    const auto last = static_cast<int>(t.atRunning.size()) - 1;
    const auto row = [&](double total) {
        return static_cast<std::size_t>(
            std::clamp(rule.runningAt(total) - t.firstRunning, 0, last));
    };
    const std::size_t lo = row(s.memoryBytes * (1 + kRunningSlack));
    const std::size_t hi = row(s.memoryBytes * (1 - kRunningSlack));
    const double invLayers = 1.0 / t.layers;
    double ttft = 0, tpot = 0, ttftHi = 0, tpotHi = 0;
    for (const Band& b : r) {
        const auto slot = static_cast<std::size_t>(choiceSlot(b.format, b.scope));
        const double share = b.layers() * invLayers;
        ttft += share * t.atRunning[lo][slot].ttft;
        tpot += share * t.atRunning[lo][slot].tpot;
        if (hi != lo) {
            ttftHi += share * t.atRunning[hi][slot].ttft;
            tpotHi += share * t.atRunning[hi][slot].tpot;
        }
    }
    // At a slot boundary, the lower of the two counts' mixes: a bound for either.
    s.rawTtft = hi != lo ? std::min(ttft, ttftHi) : ttft;
    s.rawTpot = hi != lo ? std::min(tpot, tpotHi) : tpot;
}

const ConfigSpace& FracMixTable::space(int context) const
{
    return spaces_[static_cast<std::size_t>(spaceOfContext_[static_cast<std::size_t>(context)])];
}

std::int64_t FracMixTable::recipeCount() const
{
    std::int64_t n = 0;
    for (int c : spaceOfContext_)
        n += spaces_[static_cast<std::size_t>(c)].recipeCount();
    return n;
}

SoftScore FracMixTable::soft(int context, const BandRecipe& r) const
{
    const ContextTable& t = tables_[static_cast<std::size_t>(context)];
    SoftScore s;
    const double invLayers = 1.0 / t.layers;
    for (const Band& b : r) {
        const Uniform& u = t.uniform[static_cast<std::size_t>(choiceSlot(b.format, b.scope))];
        const double share = b.layers() * invLayers;
        s.rawTtft += share * u.ttft;
        s.rawTpot += share * u.tpot;
        s.memoryBytes += share * u.memory;
    }
    if (t.running)
        mixAtRunning(t, r, s);
    return s;
}

namespace
{

double rawLimit(double limitMs, double gamma, double delta)
{
    // FMC^-1(limit), widened so that rounding cannot prune a candidate the gate admits: the
    // gate's exp(delta) * pow(raw, gamma) and this inverse are each within a few ulp (relative
    // 1e-15) of exact, and an error e on the calibrated side moves the raw limit by e / gamma.
    // 1e-9 / min(1, gamma) covers both by orders of magnitude; the candidates it lets through
    // are only full-gated, so the answer stays exact.
    const double slack = 1e-9 / std::min(1.0, gamma);
    return std::exp((std::log(limitMs) - delta) / gamma) * (1 + slack);
}

} // namespace

LatencyScreen::LatencyScreen(const Calibration& c, double ttftLimitMs, double tpotLimitMs)
    : calibration_(c), monotone_(c.monotone()), ttft_(ttftLimitMs), tpot_(tpotLimitMs)
{
    if (!monotone_)
        return;
    if (c.identity()) {
        // calibrated == raw bit for bit (exp(0) * pow(x, 1) == x): compare with the budget
        // itself (exp(log(budget)) can land an ulp below it and prune a candidate at the
        // budget), widened only by FracMix's own rounding.
        rawTtft_ = ttftLimitMs * (1 + kSoftRounding);
        rawTpot_ = tpotLimitMs * (1 + kSoftRounding);
        return;
    }
    rawTtft_ = rawLimit(ttftLimitMs, c.gammaTtft, c.deltaTtft);
    rawTpot_ = rawLimit(tpotLimitMs, c.gammaTpot, c.deltaTpot);
}

double FracMixTable::qualityLog(int context, Algorithm a, const BandRecipe& r) const
{
    const ContextTable& t = tables_[static_cast<std::size_t>(context)];
    return predictRecipeLog(
        qualityTerms_[static_cast<std::size_t>(t.quality[static_cast<std::size_t>(a)])], r);
}

double FracMixTable::quality(int context, Algorithm a, const BandRecipe& r) const
{
    return std::exp(qualityLog(context, a, r));
}

std::pair<Algorithm, double> FracMixTable::bestQuality(int context, const BandRecipe& r) const
{
    bool anyQuantized = false;
    for (const Band& b : r)
        anyQuantized = anyQuantized || b.format != Format::Bf16;
    // Nothing quantized: nothing to calibrate, the plain algorithm only.
    const std::uint8_t mask = anyQuantized ? ConfigSpace::fittingMask(r) : std::uint8_t{1};
    // Compared in log space; one exp for the winner.
    Algorithm best = Algorithm::Max;
    double bestLog = 0;
    bool found = false;
    for (Algorithm a : kAllAlgorithms) {
        if (((static_cast<unsigned>(mask) >> static_cast<unsigned>(a)) & 1u) == 0)
            continue;
        const double v = qualityLog(context, a, r);
        if (!found || v < bestLog) {
            best = a;
            bestLog = v;
        }
        found = true;
    }
    return {best, std::exp(bestLog)};
}

Config FracMixTable::config(int context, const BandRecipe& r, Algorithm a) const
{
    const SearchContext& c = contexts_[static_cast<std::size_t>(context)];
    Config cfg;
    cfg.model = c.model;
    cfg.batch = c.batch;
    cfg.kv = c.kv;
    cfg.tp = c.tp;
    cfg.recipe = r;
    cfg.algorithm = a;
    return cfg;
}

} // namespace acsel
