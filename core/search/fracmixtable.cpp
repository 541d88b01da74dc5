#include "core/search/fracmixtable.h"

#include "core/latency/opmodel.h"
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

SoftScore sumOf(const SoftScore& a, const SoftScore& b)
{
    return {a.rawTtft + b.rawTtft, a.rawTpot + b.rawTpot, a.memoryBytes + b.memoryBytes};
}

// `c` on layers [0, upto), `base` on the others.
BandRecipe kindProbe(int layers, const FormatScope& c, const FormatScope& base, int upto)
{
    BandRecipe r;
    if (upto > 0)
        r.push({0, upto, c.format, c.scope});
    if (upto < layers)
        r.push({upto, layers, base.format, base.scope});
    return r;
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
            const auto first = static_cast<int>(contexts_.size());
            for (int b : batches) {
                for (int tp : tps) {
                    contexts_.push_back({m, b, kv, tp});
                    spaceOfContext_.push_back(static_cast<int>(spaces_.size() - 1));
                    tabulate(e, cs, contexts_.back(), quality);
                    tables_.back().lowestRmqd = lowestRmqd;
                }
            }
            if (static_cast<int>(contexts_.size()) > first)
                siblingGroups_.emplace_back(first, static_cast<int>(contexts_.size()));
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
    t.perDense = 1.0 / t.layers;
    const ModelArch& arch = e.workspace().models[static_cast<std::size_t>(context.model)];
    if (const int moeLayers = arch.moeLayers(); moeLayers > 0 && moeLayers < t.layers) {
        t.split = true;
        t.moeBefore.assign(static_cast<std::size_t>(t.layers) + 1, 0);
        for (int l = 0; l < t.layers; ++l)
            t.moeBefore[static_cast<std::size_t>(l) + 1] =
                t.moeBefore[static_cast<std::size_t>(l)] + (arch.isMoeLayer(l) ? 1 : 0);
        t.perDense = 1.0 / (t.layers - moeLayers);
        t.perMoe = 1.0 / moeLayers;
    }
    Config cfg;
    cfg.model = context.model;
    cfg.batch = context.batch;
    cfg.kv = context.kv;
    cfg.tp = context.tp;
    t.running = e.runningRule(cfg, request_);
    t.conversion = e.conversionLatency(cfg, request_);
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
    if (t.split)
        splitByKind(
            cs, t,
            [&](const BandRecipe& r) {
                Config probe = cfg;
                probe.recipe = r;
                Uniform u;
                u.memory = e.memoryBytes(probe, request_);
                if (!t.running) {
                    const LatencyMs raw = e.rawLatency(probe, request_);
                    u.ttft = raw.ttft;
                    u.tpot = raw.tpot;
                    ++uniformEstimates_;
                }
                return u;
            },
            t.uniform, t.moe);
    if (t.running)
        tabulateRunning(e, cs, cfg, t);
    t.lowest = componentwise(t.uniform, t.atRunning, cs.bandChoices(), minOf);
    SoftScore high = componentwise(t.uniform, t.atRunning, cs.bandChoices(), maxOf);
    if (t.split) { // a split score mixes each part's estimates: within the sums of their bounds
        t.lowest = sumOf(t.lowest, componentwise(t.moe, t.moeAtRunning, cs.bandChoices(), minOf));
        high = sumOf(high, componentwise(t.moe, t.moeAtRunning, cs.bandChoices(), maxOf));
    }
    const bool firstContext = tables_.empty();
    lowest_ = firstContext ? t.lowest : minOf(lowest_, t.lowest);
    highest_ = firstContext ? high : maxOf(highest_, high);
    tables_.push_back(t);
}

void FracMixTable::tabulateRunning(const Engine& e, const ConfigSpace& cs, const Config& sample,
                                   ContextTable& t)
{
    // A recipe's memory total lies within its context's uniform totals (it mixes them; split:
    // within the sums of the parts' bounds), and its running count falls as the total grows:
    // tabulate every count in between. Below one slot a recipe cannot hold a request and fails
    // the memory budget; it reads count 1.
    const std::vector<RunningLatency> none;
    double lowest = componentwise(t.uniform, none, cs.bandChoices(), minOf).memoryBytes;
    double highest = componentwise(t.uniform, none, cs.bandChoices(), maxOf).memoryBytes;
    if (t.split) {
        lowest += componentwise(t.moe, none, cs.bandChoices(), minOf).memoryBytes;
        highest += componentwise(t.moe, none, cs.bandChoices(), maxOf).memoryBytes;
    }
    const RunningRule& rule = *t.running;
    const auto clampCount = [&](int n) { return std::clamp(n, 1, rule.limit); };
    t.firstRunning = clampCount(rule.slotsAt(highest * (1 + kRunningSlack)));
    const int last = clampCount(rule.slotsAt(lowest * (1 - kRunningSlack)));
    Config cfg = sample;
    for (int n = t.firstRunning; n <= last; ++n) {
        std::array<Uniform, kChoiceSlots> whole{}, moe{};
        for (const FormatScope& c : cs.bandChoices()) {
            cfg.recipe = BandRecipe::uniform(t.layers, c.format, c.scope);
            const LatencyMs raw = e.rawLatencyAt(cfg, request_, n);
            whole[static_cast<std::size_t>(choiceSlot(c.format, c.scope))] = {raw.ttft, raw.tpot,
                                                                              0.0};
            ++uniformEstimates_;
        }
        if (t.split)
            splitByKind(
                cs, t,
                [&](const BandRecipe& r) {
                    cfg.recipe = r;
                    const LatencyMs raw = e.rawLatencyAt(cfg, request_, n);
                    ++uniformEstimates_;
                    return Uniform{raw.ttft, raw.tpot, 0.0};
                },
                whole, moe);
        RunningLatency& at = t.atRunning.emplace_back();
        RunningLatency& atMoe = t.moeAtRunning.emplace_back();
        for (std::size_t i = 0; i < at.size(); ++i) {
            at[i] = {whole[i].ttft, whole[i].tpot};
            atMoe[i] = {moe[i].ttft, moe[i].tpot};
        }
    }
}

// Soundness of the split (a model of L layers, M of them MoE layers, 0 < M < L). The engine's
// estimate is additive over layers up to conversions (Engine::rawLatency; in continuous
// batching at a fixed running count):
//   T(r) = K + sum over layers l of cost(kind_l, c_l) + conv(r),
// a layer's cost set by its choice c_l and its kind (dense or MoE), K by neither, conv(r) >= 0
// a sum of one cost per band boundary set by the two formats meeting there. U_c = T(uniform c).
// Take a base choice B and a probe layer p, 0 < p < L - 1. The two-band recipes
// P1 = (c on [0, p], B after) and P2 = (c on [0, p), B after) each have one boundary, between
// c and B, so T(P1) - T(P2) = cost(kind_p, c) - cost(kind_p, B). With N the layers of p's kind
// and a = (N / L) U_B - N cost(kind_p, B), the part of p's kind is
//   A_c = (N / L) U_B + N (T(P1) - T(P2)) = N cost(kind_p, c) + a,
// and the other kind's part is
//   O_c = U_c - A_c = (L - N) cost(other kind, c) + K - a.
// A band of n_b layers, k_b of them of p's kind, takes k_b / N of A_c and (n_b - k_b) / (L - N)
// of O_c; over the bands each kind's shares sum to 1, so the mix is
//   a + (K - a) + sum over layers l of cost(kind_l, c_l) = T(r) - conv(r) <= T(r).
// Memory has no conversions: the same split gives it exactly. A model of fewer than 3 layers
// has no such p: its probe is p = 0 (P2 = uniform B), exact for memory, and its latency parts
// are 0 (there T(P1) - T(P2) carries a conversion): a bound that prunes nothing.
void FracMixTable::splitByKind(const ConfigSpace& cs, const ContextTable& t,
                               const std::function<Uniform(const BandRecipe&)>& estimate,
                               std::array<Uniform, kChoiceSlots>& whole,
                               std::array<Uniform, kChoiceSlots>& moe)
{
    const int layers = t.layers;
    const int moeLayers = t.moeBefore.back();
    const bool interior = layers >= 3;
    const int probe = interior ? 1 : 0;
    const bool probeMoe = t.moeBefore[static_cast<std::size_t>(probe) + 1] >
                          t.moeBefore[static_cast<std::size_t>(probe)];
    const double ofKind = probeMoe ? moeLayers : layers - moeLayers;
    const FormatScope base = cs.bandChoices().front();
    const Uniform b = whole[static_cast<std::size_t>(choiceSlot(base.format, base.scope))];
    for (const FormatScope& c : cs.bandChoices()) {
        const auto slot = static_cast<std::size_t>(choiceSlot(c.format, c.scope));
        Uniform delta; // T(P1) - T(P2), 0 for the base itself
        if (!(c == base)) {
            const Uniform p1 = estimate(kindProbe(layers, c, base, probe + 1));
            const Uniform p2 = estimate(kindProbe(layers, c, base, probe));
            delta = {p1.ttft - p2.ttft, p1.tpot - p2.tpot, p1.memory - p2.memory};
        }
        const double share = ofKind / layers;
        Uniform own{share * b.ttft + ofKind * delta.ttft, share * b.tpot + ofKind * delta.tpot,
                    share * b.memory + ofKind * delta.memory};
        Uniform other{whole[slot].ttft - own.ttft, whole[slot].tpot - own.tpot,
                      whole[slot].memory - own.memory};
        if (!interior)
            own.ttft = own.tpot = other.ttft = other.tpot = 0;
        moe[slot] = probeMoe ? own : other;
        whole[slot] = probeMoe ? other : own;
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
    double ttft = 0, tpot = 0, ttftHi = 0, tpotHi = 0;
    for (const Band& b : r) {
        const auto slot = static_cast<std::size_t>(choiceSlot(b.format, b.scope));
        const BandMix w = bandMix(t, b);
        const auto mix = [&](std::size_t at, double LatencyMs::*field) {
            return w.of(t.atRunning[at][slot].*field, t.moeAtRunning[at][slot].*field);
        };
        ttft += mix(lo, &LatencyMs::ttft);
        tpot += mix(lo, &LatencyMs::tpot);
        if (hi != lo) {
            ttftHi += mix(hi, &LatencyMs::ttft);
            tpotHi += mix(hi, &LatencyMs::tpot);
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

SoftScore FracMixTable::withConversions(int context, const BandRecipe& r, SoftScore s) const
{
    if (const int n = activationConversions(r); n > 0) {
        const LatencyMs& c = tables_[static_cast<std::size_t>(context)].conversion;
        s.rawTtft += n * c.ttft;
        s.rawTpot += n * c.tpot;
    }
    return s;
}

SoftScore FracMixTable::soft(int context, const BandRecipe& r) const
{
    const ContextTable& t = tables_[static_cast<std::size_t>(context)];
    SoftScore s;
    for (const Band& b : r) {
        const auto slot = static_cast<std::size_t>(choiceSlot(b.format, b.scope));
        const Uniform& u = t.uniform[slot];
        const Uniform& m = t.moe[slot];
        const BandMix w = bandMix(t, b);
        s.rawTtft += w.of(u.ttft, m.ttft);
        s.rawTpot += w.of(u.tpot, m.tpot);
        s.memoryBytes += w.of(u.memory, m.memory);
    }
    if (t.running)
        mixAtRunning(t, r, s);
    return s;
}

SoftScore FracMixTable::lowestOfBlock(int context, const BandRecipe& first) const
{
    const ContextTable& t = tables_[static_cast<std::size_t>(context)];
    if (t.running)
        return t.lowest;
    const int bands = first.size();
    if (bands < 2)
        return soft(context, first);
    SoftScore s;
    const auto add = [&](const Band& b, const Uniform& u, const Uniform& m) {
        const BandMix w = bandMix(t, b);
        s.rawTtft += w.of(u.ttft, m.ttft);
        s.rawTpot += w.of(u.tpot, m.tpot);
        s.memoryBytes += w.of(u.memory, m.memory);
    };
    const auto slotOf = [](const Band& b) {
        return static_cast<std::size_t>(choiceSlot(b.format, b.scope));
    };
    for (int i = 0; i + 2 < bands; ++i)
        add(first[i], t.uniform[slotOf(first[i])], t.moe[slotOf(first[i])]);
    const Band& b = first[bands - 2];
    const Band& c = first[bands - 1];
    const auto lower = [](const Uniform& x, const Uniform& y) {
        return Uniform{std::min(x.ttft, y.ttft), std::min(x.tpot, y.tpot),
                       std::min(x.memory, y.memory)};
    };
    add({b.begin, c.end, b.format, b.scope}, lower(t.uniform[slotOf(b)], t.uniform[slotOf(c)]),
        lower(t.moe[slotOf(b)], t.moe[slotOf(c)]));
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
