#include "core/eval/simulatedcampaign.h"

#include <cmath>

namespace acsel
{
namespace
{

std::uint64_t mix(std::uint64_t h, std::uint64_t v)
{
    // splitmix64 step over the running hash
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h += 0x9e3779b97f4a7c15ULL;
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
    return h ^ (h >> 31);
}

// Standard normal from two uniform draws of the hash (Box-Muller).
double normalFromKey(std::uint64_t key, std::uint64_t stream)
{
    const std::uint64_t a = mix(key, stream * 2 + 1), b = mix(key, stream * 2 + 2);
    const double u1 = (static_cast<double>(a >> 11) + 0.5) / 9007199254740992.0;
    const double u2 = (static_cast<double>(b >> 11) + 0.5) / 9007199254740992.0;
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
}

} // namespace

std::uint64_t measurementKey(const Config& c, const Request& q, std::uint64_t seed)
{
    std::uint64_t h = mix(seed, static_cast<std::uint64_t>(c.model));
    h = mix(h, static_cast<std::uint64_t>(c.batch));
    h = mix(h, static_cast<std::uint64_t>(c.algorithm));
    h = mix(h, static_cast<std::uint64_t>(c.kv) * 2 + (c.lmHeadQuantized ? 1 : 0));
    for (const Band& b : c.recipe) {
        h = mix(h, static_cast<std::uint64_t>(b.begin));
        h = mix(h, static_cast<std::uint64_t>(b.end));
        h = mix(h, static_cast<std::uint64_t>(b.format) * 8 + static_cast<std::uint64_t>(b.scope));
    }
    if (c.tp > 1) // a one-GPU configuration keeps the key (and draw) it always had
        h = mix(h, static_cast<std::uint64_t>(c.tp) << 32);
    h = mix(h, static_cast<std::uint64_t>(q.isl));
    h = mix(h, static_cast<std::uint64_t>(q.osl));
    for (char ch : q.stack)
        h = mix(h, static_cast<std::uint64_t>(static_cast<unsigned char>(ch)));
    return h;
}

int bandBoundaries(const BandRecipe& r)
{
    return r.size() - 1;
}

int formatSwitches(const BandRecipe& r)
{
    int n = 0;
    for (int i = 1; i < r.size(); ++i)
        n += r[i].format != r[i - 1].format ? 1 : 0;
    return n;
}

SimulatedCampaign::SimulatedCampaign(const Engine& e, RmqdFn measuredRmqd, std::uint64_t seed)
    : engine_(e), measuredRmqd_(std::move(measuredRmqd)), seed_(seed)
{
}

void SimulatedCampaign::setTruth(const std::string& stackId, StackTruth truth)
{
    for (auto& [id, t] : truths_)
        if (id == stackId) {
            t = std::move(truth);
            return;
        }
    truths_.emplace_back(stackId, std::move(truth));
}

const StackTruth& SimulatedCampaign::truth(const std::string& stackId) const
{
    for (const auto& [id, t] : truths_)
        if (id == stackId)
            return t;
    return defaults_;
}

Measurement SimulatedCampaign::measure(const Config& c, const Request& q) const
{
    const StackTruth& t = truth(q.stack);
    const LatencyMs raw = engine_.rawLatency(c, q);
    const std::uint64_t key = measurementKey(c, q, seed_);
    const auto own = t.byTp.find(c.tp);
    const bool degree = own != t.byTp.end();
    const ResidualModel* ttft = degree ? &own->second.ttft : t.ttft ? &*t.ttft : nullptr;
    const ResidualModel* tpot = degree ? &own->second.tpot : t.tpot ? &*t.tpot : nullptr;
    const auto scale = [&](const ResidualModel* m, double estimateMs, std::uint64_t stream) {
        if (!m)
            return 1.0;
        WorkloadPoint w = workloadOf(c, q);
        w.estimateMs = estimateMs;
        return std::exp(m->mean(w) + m->sigma() * normalFromKey(key, stream));
    };
    // TTFT is one prefill step, TPOT one decode step: each pays the band effects once.
    const double perStep = bandBoundaries(c.recipe) * t.band.boundaryCostMs +
                           formatSwitches(c.recipe) * t.band.formatSwitchCostMs;
    Measurement m;
    m.latency.ttft = raw.ttft * scale(ttft, raw.ttft, 0) + perStep;
    m.latency.tpot = raw.tpot * scale(tpot, raw.tpot, 1) + perStep;
    m.memoryBytes = engine_.memoryBytes(c, q) +
                    t.memory.overheadBytes * std::exp(t.memory.sigma * normalFromKey(key, 2));
    m.rmqd = measuredRmqd_(c);
    return m;
}

} // namespace acsel
