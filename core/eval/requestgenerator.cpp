#include "core/eval/requestgenerator.h"

#include "core/model/tensorparallel.h"

#include <algorithm>
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

std::pair<Format, Format> headroomFormats(const Stack& s, const Platform& p)
{
    const Format anchor = anchorFormat(s, p);
    // kAllFormats runs low bits first, so the first format with fewer bits is the fewest-bit one.
    for (Format f : kAllFormats)
        if (s.hasFormat(f) && facts(f).bits < facts(anchor).bits)
            return {f, anchor};
    return {anchor, Format::Bf16};
}

namespace
{

Config uniformConfig(int model, int layers, int batch, int tp, Format f)
{
    Config c;
    c.model = model;
    c.batch = batch;
    c.tp = tp;
    c.recipe = BandRecipe::uniform(layers, f);
    c.algorithm = uniformAlgorithm(f);
    return c;
}

} // namespace

std::vector<int> anchorModels(const Workspace& ws, const std::vector<int>& models)
{
    std::vector<int> out;
    for (int m : models) {
        const ModelArch& arch = ws.models[static_cast<std::size_t>(m)];
        const auto same = std::find_if(out.begin(), out.end(), [&](int o) {
            return ws.models[static_cast<std::size_t>(o)].family == arch.family;
        });
        if (same == out.end())
            out.push_back(m);
        else if (arch.paramCount() > ws.models[static_cast<std::size_t>(*same)].paramCount())
            *same = m;
    }
    return out;
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
    const std::vector<int> anchors = anchorModels(ws, models);

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
        const Platform& platform = ws.platformOf(stack);
        const WorkloadGrid& grid = setup.gridOf(r.request.stack);
        r.request.isl = pick(grid.isls);
        r.request.osl = pick(grid.osls);
        const int model = pick(anchors);
        const int batch = pick(grid.batches);
        const ModelArch& arch = ws.models[static_cast<std::size_t>(model)];
        // One GPU count drawn only where the grid has several, so that a one-GPU evaluation
        // draws what it always drew.
        r.request.gpus = grid.gpus.size() > 1 ? pick(grid.gpus) : grid.gpus.front();
        if (!tpProblem(arch, r.request.gpus).empty() || !e.supportsTp(r.request, r.request.gpus))
            continue;
        const auto [fasterFormat, slowerFormat] = headroomFormats(stack, platform);
        r.faster = uniformConfig(model, arch.layers, batch, r.request.gpus, fasterFormat);
        r.slower = uniformConfig(model, arch.layers, batch, r.request.gpus, slowerFormat);
        r.request.concurrency = batch;
        r.request.ttftBudgetMs = r.request.tpotBudgetMs = 1e300; // set below
        const Measurement fast = campaign.measure(r.faster, r.request);
        const Measurement slow = campaign.measure(r.slower, r.request);
        const double capacity = platform.memCapacityBytes;
        if (fast.memoryBytes > capacity)
            continue; // the faster point must run on the device
        // TPOT in the headroom: the paper's Figure 3 places band recipes between uniform
        // points at intermediate TPOT budgets. TTFT admits both uniform points: its prediction
        // error after FMC (a factor 1.7-2 in this campaign, docs/EVALUATION.md) is wider than
        // the gap between them, so a TTFT budget inside it would decide by noise whether the
        // anchor has any admitted recipe.
        const double fasterTpot = fast.latency.tpot, slowerTpot = slow.latency.tpot;
        r.request.tpotBudgetMs = fasterTpot < slowerTpot
                                     ? fasterTpot + uniform(setup.headroomMin, setup.headroomMax) *
                                                        (slowerTpot - fasterTpot)
                                     : fasterTpot * uniform(1.0, 1.0 + setup.looseSlack);
        r.request.ttftBudgetMs =
            std::max(fast.latency.ttft, slow.latency.ttft) * uniform(1.0, 1.0 + setup.looseSlack);
        const double memory = std::min(
            capacity, std::max(fast.memoryBytes, slow.memoryBytes * uniform(setup.memorySlackMin,
                                                                            setup.memorySlackMax)));
        r.request.memBudgetGiB = memory / (1024.0 * 1024.0 * 1024.0);
        out.push_back(r);
    }
    return out;
}

} // namespace acsel
