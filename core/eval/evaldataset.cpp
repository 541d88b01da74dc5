#include "core/eval/evaldataset.h"

#include "core/eval/evaluator.h"
#include "core/model/configspace.h"
#include "core/model/tensorparallel.h"
#include "core/search/gate.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace acsel
{
namespace
{

// `count` random 3-band recipes of one model, each band a different (format, scope).
std::vector<BandRecipe> bandRecipes(const ConfigSpace& space, int count, std::uint64_t seed)
{
    std::vector<BandRecipe> out;
    const int L = space.numLayers();
    const auto& choices = space.bandChoices();
    if (L < 3 || choices.size() < 2)
        return out;
    std::mt19937_64 rng(seed);
    auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    int attempts = 0;
    while (static_cast<int>(out.size()) < count && ++attempts < 100 * count) {
        int a = draw(1, L - 1), b = draw(1, L - 1);
        if (a == b)
            continue;
        if (a > b)
            std::swap(a, b);
        const int n = static_cast<int>(choices.size()) - 1;
        const int p0 = draw(0, n);
        int p1 = draw(0, n), p2 = draw(0, n);
        if (p1 == p0 || p2 == p1)
            continue;
        const FormatScope c0 = choices[static_cast<std::size_t>(p0)],
                          c1 = choices[static_cast<std::size_t>(p1)],
                          c2 = choices[static_cast<std::size_t>(p2)];
        const BandRecipe r = BandRecipe::fromCuts(
            L, {a, b}, {{c0.format, c0.scope}, {c1.format, c1.scope}, {c2.format, c2.scope}});
        if (ConfigSpace::hasFittingAlgorithm(r))
            out.push_back(r);
    }
    return out;
}

} // namespace

std::uint64_t stackModelSeed(const std::string& stack, int model)
{
    std::uint64_t h = 1469598103934665603ULL;
    for (char c : stack)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15;
    return h ^ (static_cast<std::uint64_t>(static_cast<unsigned>(model)) * kGolden);
}

std::vector<BandRecipe> campaignRecipes(const ConfigSpace& space, int bandRecipeCount,
                                        std::uint64_t seed)
{
    std::vector<BandRecipe> recipes;
    for (const FormatScope& c : space.bandChoices())
        recipes.push_back(BandRecipe::uniform(space.numLayers(), c.format, c.scope));
    const auto bands = bandRecipes(space, bandRecipeCount, seed);
    recipes.insert(recipes.end(), bands.begin(), bands.end());
    return recipes;
}

double RunningMoments::mean() const
{
    return n > 0 ? sum / n : std::nan("");
}

double RunningMoments::sd() const
{
    if (n == 0)
        return std::nan("");
    const double m = sum / n;
    return std::sqrt(std::max(0.0, sumSquares / n - m * m));
}

DatasetBest bestInEvaluationData(const Engine& e, const SimulatedCampaign& campaign,
                                 const EvalSetup& setup, const Request& q, double tolerance,
                                 const Calibration* fmc,
                                 const std::function<bool(const Config&)>& inTraining)
{
    const Workspace& ws = e.workspace();
    const Stack& stack = ws.stacks[static_cast<std::size_t>(*ws.findStack(q.stack))];
    const double memBudget = memoryBudgetBytes(q, ws.platformOf(stack));
    SpaceOptions so;
    so.formats = stack.formats;
    DatasetBest best;
    std::vector<int> models = setup.models;
    if (models.empty())
        for (std::size_t i = 0; i < ws.models.size(); ++i)
            models.push_back(static_cast<int>(i));
    std::vector<KvFormat> kvs{KvFormat::Bf16};
    if (stack.kvFp8)
        kvs.push_back(KvFormat::Fp8);
    for (int m : models) {
        const ModelArch& arch = ws.models[static_cast<std::size_t>(m)];
        const ConfigSpace space(arch.layers, so);
        const std::vector<BandRecipe> recipes =
            campaignRecipes(space, setup.bandConfigsPerModel, stackModelSeed(q.stack, m));
        const std::vector<int> degrees =
            tpDegrees(arch, q.gpus, [&](int tp) { return e.supportsTp(q, tp); });
        for (int tp : degrees)
            for (int b : setup.gridOf(q.stack).batches) {
                if (b < q.concurrency)
                    continue;
                for (KvFormat kv : kvs)
                    for (const BandRecipe& r : recipes)
                        for (Algorithm a : ConfigSpace::fittingAlgorithms(r)) {
                            Config c;
                            c.model = m;
                            c.batch = b;
                            c.tp = tp;
                            c.kv = kv;
                            c.recipe = r;
                            c.algorithm = a;
                            if (inTraining && inTraining(c)) {
                                ++best.leftOut;
                                continue;
                            }
                            const Measurement meas = campaign.measure(c, q);
                            ++best.configurations;
                            if (fmc) {
                                const LatencyMs p = fmc->apply(e.rawLatency(c, q));
                                best.residual[0].add(std::log(meas.latency.ttft / p.ttft));
                                best.residual[1].add(std::log(meas.latency.tpot / p.tpot));
                            }
                            if (!feasibleAt(meas, q, tolerance, memBudget))
                                continue;
                            if (!best.bestRmqd || meas.rmqd < *best.bestRmqd)
                                best.bestRmqd = meas.rmqd;
                            if (r.isUniform() &&
                                (!best.bestUniformRmqd || meas.rmqd < *best.bestUniformRmqd))
                                best.bestUniformRmqd = meas.rmqd;
                        }
            }
    }
    return best;
}

} // namespace acsel
