#include "core/latency/utilisationfit.h"

#include "core/latency/solopcosts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace acsel
{
namespace
{

constexpr int kMaxNodes = 16 * 12 * 12; // the largest grid (GEMM)
constexpr int kVariantSlots = 8;

int nodeIndex(OpClass op, const std::array<float, 3>& shape)
{
    const auto& axes = utilAxes(op);
    int index = 0;
    for (std::size_t a = 0; a < axes.size(); ++a) {
        const int node =
            std::clamp(static_cast<int>(std::lround(std::log2(shape[a]))), axes[a].lo, axes[a].hi);
        index = index * axes[a].size() + (node - axes[a].lo);
    }
    return index;
}

std::string variantName(OpClass op, int variant)
{
    switch (op) {
    case OpClass::Gemm:
        return std::string(toString(static_cast<Format>(variant)));
    case OpClass::AllReduce:
        return std::string(toString(static_cast<Interconnect>(variant)));
    default:
        return std::string(toString(static_cast<KvFormat>(variant)));
    }
}

// Predicts samples with resolved grids cached per (op, backend, variant).
class Predictor
{
public:
    Predictor(const UtilisationModel& m, const UtilisationSamples& s) : m_(m), s_(s) {}
    double predictMs(const UtilSample& x)
    {
        const auto key = std::make_tuple(x.op, x.backend, x.variant);
        auto it = grids_.find(key);
        if (it == grids_.end()) {
            const std::string variant = variantName(x.op, x.variant);
            const std::string fallback = x.op == OpClass::AllReduce ? variant : "bf16";
            it = grids_
                     .emplace(key, ResolvedUtilGrid(m_, x.op, s_.backends()[x.backend], variant,
                                                    fallback))
                     .first;
        }
        if (!it->second.valid()) // an interconnect no other GPU has (leave-one-GPU-out)
            return std::numeric_limits<double>::quiet_NaN();
        const double u = it->second.logUtilisation(static_cast<double>(x.shape[0]),
                                                   static_cast<double>(x.shape[1]),
                                                   static_cast<double>(x.shape[2]));
        return (x.roofMs + m_.solConstantMs) * std::exp(-u);
    }

private:
    const UtilisationModel& m_;
    const UtilisationSamples& s_;
    std::map<std::tuple<OpClass, std::uint8_t, std::uint8_t>, ResolvedUtilGrid> grids_;
};

} // namespace

std::array<double, 2> medianAndP90(std::vector<double>& v)
{
    if (v.empty())
        return {0, 0};
    auto at = [&](double q) {
        const auto k = static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5);
        std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
        return v[k];
    };
    return {at(0.5), at(0.9)};
}

std::uint16_t UtilisationSamples::systemIndex(const std::string& s)
{
    const auto it = std::find(systems_.begin(), systems_.end(), s);
    if (it != systems_.end())
        return static_cast<std::uint16_t>(it - systems_.begin());
    systems_.push_back(s);
    return static_cast<std::uint16_t>(systems_.size() - 1);
}

std::uint8_t UtilisationSamples::backendIndex(const std::string& b)
{
    const auto it = std::find(backends_.begin(), backends_.end(), b);
    if (it != backends_.end())
        return static_cast<std::uint8_t>(it - backends_.begin());
    backends_.push_back(b);
    return static_cast<std::uint8_t>(backends_.size() - 1);
}

void UtilisationSamples::addStack(const std::string& system, const std::string& backend,
                                  const Platform& spec, const AicTable<GemmRow>& gemm,
                                  const AicTable<AttentionRow>& context,
                                  const AicTable<AttentionRow>& generation)
{
    const std::uint16_t sys = systemIndex(system);
    const std::uint8_t be = backendIndex(backend);
    stacks_.push_back(system + "/" + backend);
    samples_.reserve(samples_.size() + gemm.rows.size() + context.rows.size() +
                     generation.rows.size());
    for (const GemmRow& r : gemm.rows) {
        if (spec.peakFlops(facts(r.format).compute) <= 0)
            continue; // the spec sheet has no such tensor-core type (emulated kernels)
        samples_.push_back(
            {{static_cast<float>(r.m), static_cast<float>(r.n), static_cast<float>(r.k)},
             solGemmRoofMs(spec, r.format, r.m, r.n, r.k),
             r.ms,
             OpClass::Gemm,
             static_cast<std::uint8_t>(r.format),
             be,
             sys});
    }
    for (const AttentionRow& r : context.rows) {
        if (r.attnDtype != KvFormat::Bf16)
            continue;
        samples_.push_back({{static_cast<float>(r.batch), static_cast<float>(r.seq), 1.0f},
                            solContextAttentionRoofMs(spec, r.batch, r.seq, r.heads, r.kvHeads,
                                                      r.headDim, r.kvDtype),
                            r.ms,
                            OpClass::ContextAttention,
                            static_cast<std::uint8_t>(r.kvDtype),
                            be,
                            sys});
    }
    for (const AttentionRow& r : generation.rows)
        samples_.push_back({{static_cast<float>(r.batch), static_cast<float>(r.seq), 1.0f},
                            solGenerationAttentionRoofMs(spec, r.batch, r.seq, r.heads, r.kvHeads,
                                                         r.headDim, r.kvDtype),
                            r.ms,
                            OpClass::GenerationAttention,
                            static_cast<std::uint8_t>(r.kvDtype),
                            be,
                            sys});
}

void UtilisationSamples::addCollectives(const std::string& system, const Platform& spec,
                                        const AicTable<CommRow>& nccl)
{
    if (spec.interconnect == Interconnect::None)
        return;
    const std::uint16_t sys = systemIndex(system);
    const std::uint8_t be = backendIndex("nccl");
    for (const CommRow& r : nccl.rows)
        samples_.push_back({{static_cast<float>(r.gpus), static_cast<float>(r.elements), 1.0f},
                            solAllReduceRoofMs(spec, r.gpus, r.elements),
                            r.ms,
                            OpClass::AllReduce,
                            static_cast<std::uint8_t>(spec.interconnect),
                            be,
                            sys});
}

UtilisationModel fitUtilisation(const UtilisationSamples& s, double solConstantMs,
                                int excludeSystem)
{
    const int slots = static_cast<int>(s.backends().size()) + 1; // last slot: pooled
    auto cellId = [&](OpClass op, int slot, int variant, int node) {
        const int key = (static_cast<int>(op) * slots + slot) * kVariantSlots + variant;
        return static_cast<std::int64_t>(key) * kMaxNodes + node;
    };
    std::vector<std::pair<std::int64_t, double>> cells;
    cells.reserve(2 * s.samples().size());
    for (const UtilSample& x : s.samples()) {
        if (x.system == excludeSystem)
            continue;
        const int node = nodeIndex(x.op, x.shape);
        const double logU = std::log((x.roofMs + solConstantMs) / x.measuredMs);
        if (x.op != OpClass::AllReduce)
            cells.emplace_back(cellId(x.op, x.backend, x.variant, node), logU);
        cells.emplace_back(cellId(x.op, slots - 1, x.variant, node), logU);
    }
    std::sort(cells.begin(), cells.end());

    UtilisationModel m;
    m.solConstantMs = solConstantMs;
    std::vector<double> run;
    std::int64_t lastKey = -1; // cells are sorted by key: one grid per run of keys
    for (std::size_t i = 0; i < cells.size();) {
        std::size_t j = i;
        run.clear();
        while (j < cells.size() && cells[j].first == cells[i].first)
            run.push_back(cells[j++].second);
        const std::int64_t key = cells[i].first / kMaxNodes;
        const int node = static_cast<int>(cells[i].first % kMaxNodes);
        const auto op = static_cast<OpClass>(key / kVariantSlots / slots);
        const int slot = static_cast<int>((key / kVariantSlots) % slots);
        const int variant = static_cast<int>(key % kVariantSlots);
        const std::string backend =
            slot == slots - 1 ? kAllBackends : s.backends()[static_cast<std::size_t>(slot)];
        const std::string name = variantName(op, variant);
        if (key != lastKey)
            m.grids.push_back({op, backend, name, 0,
                               std::vector<double>(static_cast<std::size_t>(utilNodeCount(op)),
                                                   std::numeric_limits<double>::quiet_NaN())});
        lastKey = key;
        UtilGrid& g = m.grids.back();
        g.samples += static_cast<int>(run.size());
        const int needed = backend == kAllBackends ? 1 : kMinBackendNodeSamples;
        if (static_cast<int>(run.size()) >= needed)
            g.logU[static_cast<std::size_t>(node)] = medianAndP90(run)[0];
        i = j;
    }
    // A backend node close to the pooled one adds nothing: drop it (keeps the file small).
    for (UtilGrid& g : m.grids) {
        if (g.backend == kAllBackends)
            continue;
        const UtilGrid* pooled = m.find(g.op, kAllBackends, g.variant);
        for (std::size_t i = 0; i < g.logU.size(); ++i)
            if (std::abs(g.logU[i] - pooled->logU[i]) <= kBackendNodeTolerance)
                g.logU[i] = std::numeric_limits<double>::quiet_NaN();
    }
    for (const std::string& stack : s.stacks())
        if (excludeSystem < 0 ||
            stack.rfind(s.systems()[static_cast<std::size_t>(excludeSystem)] + "/", 0) != 0)
            m.fittedStacks.push_back(stack);
    return m;
}

std::vector<ApeSummary> evaluateUtilisation(const UtilisationModel& m, const UtilisationSamples& s,
                                            int onlySystem, bool perStack)
{
    Predictor predict(m, s);
    // (scope, op, variant) -> errors; variant -1 = all of the op class.
    std::map<std::tuple<std::string, OpClass, int>, std::vector<double>> groups;
    for (const UtilSample& x : s.samples()) {
        if (onlySystem >= 0 && x.system != onlySystem)
            continue;
        const double predicted = predict.predictMs(x);
        if (std::isnan(predicted))
            continue;
        const double ape = std::abs(predicted - x.measuredMs) / x.measuredMs;
        const std::string& system = s.systems()[x.system];
        groups[{system, x.op, -1}].push_back(ape);
        groups[{system, x.op, x.variant}].push_back(ape);
        if (perStack)
            groups[{system + "/" + s.backends()[x.backend], x.op, -1}].push_back(ape);
    }
    std::vector<ApeSummary> out;
    for (auto& [key, errors] : groups) {
        const auto [median, p90] = medianAndP90(errors);
        const auto& [scope, op, variant] = key;
        out.push_back({scope, op, variant < 0 ? "" : variantName(op, variant),
                       static_cast<int>(errors.size()), median, p90});
    }
    return out;
}

std::vector<ApeSummary> leaveOneGpuOut(const UtilisationSamples& s, double solConstantMs)
{
    std::vector<ApeSummary> out;
    for (std::size_t g = 0; g < s.systems().size(); ++g) {
        const UtilisationModel m = fitUtilisation(s, solConstantMs, static_cast<int>(g));
        for (ApeSummary& a : evaluateUtilisation(m, s, static_cast<int>(g), false))
            out.push_back(std::move(a));
    }
    return out;
}

} // namespace acsel
