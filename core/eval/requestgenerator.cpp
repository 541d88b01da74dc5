#include "core/eval/requestgenerator.h"

#include "core/model/configspace.h"

#include <random>
#include <stdexcept>

namespace acsel
{

Format anchorFormat(const Stack& s, const Platform& p)
{
    // The paper's Appendix B: int8 on Ampere/Ada (sm < 90), fp8 on Hopper/Blackwell.
    const Format first = p.smVersion >= 90 ? Format::Fp8 : Format::Int8;
    const Format second = first == Format::Fp8 ? Format::Int8 : Format::Fp8;
    if (s.hasFormat(first))
        return first;
    if (s.hasFormat(second))
        return second;
    return Format::Bf16;
}

std::vector<EvalRequest> generateRequests(const Engine& e, const SimulatedCampaign& campaign,
                                          const EvalSetup& setup, int count, std::uint64_t seed)
{
    const Workspace& ws = e.workspace();
    if (setup.stacks.empty())
        throw std::invalid_argument("evaluation: no stacks to evaluate");
    std::mt19937_64 rng(seed);
    auto pick = [&](const auto& v) {
        return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
    };
    auto uniform = [&](double lo, double hi) {
        return std::uniform_real_distribution<double>(lo, hi)(rng);
    };
    std::vector<int> models = setup.models;
    if (models.empty())
        for (std::size_t i = 0; i < ws.models.size(); ++i)
            models.push_back(static_cast<int>(i));

    std::vector<EvalRequest> out;
    int attempts = 0;
    while (static_cast<int>(out.size()) < count) {
        if (++attempts > 1000 * count)
            throw std::runtime_error("evaluation: no anchor fits the devices of the chosen stacks");
        EvalRequest r;
        r.request.stack = pick(setup.stacks);
        const auto stackIndex = ws.findStack(r.request.stack);
        if (!stackIndex)
            throw std::invalid_argument("evaluation: unknown stack '" + r.request.stack + "'");
        const Stack& stack = ws.stacks[static_cast<std::size_t>(*stackIndex)];
        const WorkloadGrid& grid = setup.gridOf(r.request.stack);
        r.request.isl = pick(grid.isls);
        r.request.osl = pick(grid.osls);
        r.anchor.model = pick(models);
        r.anchor.batch = pick(grid.batches);
        const Format f = anchorFormat(stack, ws.platformOf(stack));
        r.anchor.recipe =
            BandRecipe::uniform(ws.models[static_cast<std::size_t>(r.anchor.model)].layers, f);
        r.anchor.algorithm = f == Format::Int8 ? Algorithm::SmoothQuant : Algorithm::Max;
        r.request.concurrency = r.anchor.batch;
        r.request.ttftBudgetMs = r.request.tpotBudgetMs = 1e300; // measured below
        const Measurement m = campaign.measure(r.anchor, r.request);
        const double capacity = ws.platformOf(stack).memCapacityBytes;
        if (m.memoryBytes > capacity)
            continue; // the anchor must run on the device
        r.request.ttftBudgetMs = m.latency.ttft * uniform(setup.tightenMin, setup.tightenMax);
        r.request.tpotBudgetMs = m.latency.tpot * uniform(setup.tightenMin, setup.tightenMax);
        const double memory =
            std::min(capacity, m.memoryBytes * uniform(setup.memorySlackMin, setup.memorySlackMax));
        r.request.memBudgetGiB = memory / (1024.0 * 1024.0 * 1024.0);
        out.push_back(r);
    }
    return out;
}

} // namespace acsel
