#include "core/eval/evaluator.h"

#include "core/eval/calibratedengine.h"
#include "core/eval/evaldataset.h"
#include "core/latency/fmc.h"
#include "core/model/configspace.h"
#include "core/search/stopwatch.h"

#include <cmath>
#include <map>
#include <random>

namespace acsel
{

bool feasibleAt(const Measurement& m, const Request& q, double tolerance, double memoryBudgetBytes)
{
    return m.memoryBytes <= memoryBudgetBytes &&
           m.latency.ttft <= (1 + tolerance) * q.ttftBudgetMs &&
           m.latency.tpot <= (1 + tolerance) * q.tpotBudgetMs;
}

Calibration fitCampaignCalibration(const Engine& e, const SimulatedCampaign& campaign,
                                   const EvalSetup& setup, const std::string& stack,
                                   std::uint64_t seed)
{
    const Workspace& ws = e.workspace();
    const Stack& s = ws.stacks[static_cast<std::size_t>(*ws.findStack(stack))];
    std::mt19937_64 rng(seed ^ 0x5eedf00dULL);
    auto pick = [&](const auto& v) {
        return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
    };
    std::vector<int> models = setup.models;
    if (models.empty())
        for (std::size_t i = 0; i < ws.models.size(); ++i)
            models.push_back(static_cast<int>(i));
    // A pool of uniform configurations at off-grid workloads that fit the device.
    std::vector<std::pair<Config, Request>> pool;
    std::vector<double> rawTtft;
    for (int attempt = 0; attempt < 2000 && pool.size() < 300; ++attempt) {
        Config c;
        c.model = pick(models);
        c.batch = pick(setup.batches);
        const Format f = pick(s.formats);
        c.recipe = BandRecipe::uniform(ws.models[static_cast<std::size_t>(c.model)].layers, f);
        c.algorithm = ConfigSpace::fittingAlgorithms(c.recipe).front();
        Request q;
        q.stack = stack;
        q.isl = pick(setup.profileIsls);
        q.osl = pick(setup.profileOsls);
        q.concurrency = c.batch;
        if (e.memoryBytes(c, q) > ws.platformOf(s).memCapacityBytes)
            continue;
        rawTtft.push_back(e.rawLatency(c, q).ttft);
        pool.emplace_back(c, q);
    }
    if (pool.size() < 2)
        return {};
    const std::vector<int> chosen = selectStratified(rawTtft, setup.fmcProfiles, seed);
    std::vector<double> estTtft, estTpot, measTtft, measTpot;
    for (int i : chosen) {
        const auto& [c, q] = pool[static_cast<std::size_t>(i)];
        const LatencyMs raw = e.rawLatency(c, q);
        const Measurement m = campaign.measure(c, q);
        estTtft.push_back(raw.ttft);
        estTpot.push_back(raw.tpot);
        measTtft.push_back(m.latency.ttft);
        measTpot.push_back(m.latency.tpot);
    }
    const FmcLine ttft = fitFmc(estTtft, measTtft);
    const FmcLine tpot = fitFmc(estTpot, measTpot);
    return {ttft.gamma, ttft.delta, tpot.gamma, tpot.delta};
}

namespace
{

struct Outcome {
    bool answered = false;
    bool feasible[3] = {false, false, false}; // 0, 5, 10 %
    double rmqd = 0;
    double predictedRmqd = 0;
    double seconds = 0;
};

} // namespace

EvalReport evaluate(const Engine& e, const SimulatedCampaign& campaign, const EvalOptions& options,
                    const ProgressFn& progress, const std::atomic<bool>& stop)
{
    EvalReport report;
    report.requests = options.requests;
    report.seeds = options.seeds;
    for (bool fmc : {true, false})
        for (const std::string& a : options.algorithms)
            report.rows.push_back({a, fmc, {}});
    const Workspace& ws = e.workspace();
    const double totalSteps = static_cast<double>(options.seeds.size()) * options.requests;
    double step = 0;
    double gapSum = 0;
    int gapCount = 0;

    for (std::uint64_t seed : options.seeds) {
        CalibratedEngine withFmc(e), raw(e);
        for (const std::string& s : options.setup.stacks)
            withFmc.setCalibration(s, fitCampaignCalibration(e, campaign, options.setup, s, seed));
        const std::vector<EvalRequest> requests =
            generateRequests(e, campaign, options.setup, options.requests, seed);
        // outcomes[row][request]
        std::vector<std::vector<Outcome>> outcomes(report.rows.size(),
                                                   std::vector<Outcome>(requests.size()));
        std::vector<DatasetBest> best(requests.size());
        for (std::size_t r = 0; r < requests.size(); ++r) {
            if (stop.load())
                return report;
            const Request& q = requests[r].request;
            const Stack& stack = ws.stacks[static_cast<std::size_t>(*ws.findStack(q.stack))];
            const double memBudget = memoryBudgetBytes(q, ws.platformOf(stack));
            best[r] = bestInEvaluationData(e, campaign, options.setup, q);
            for (std::size_t row = 0; row < report.rows.size(); row += options.algorithms.size()) {
                const Engine& engine =
                    report.rows[row].fmc ? static_cast<const Engine&>(withFmc) : raw;
                double bpSeconds = 0;
                // bp first: Rand and HC get its time budget.
                std::vector<std::size_t> order;
                for (std::size_t k = 0; k < options.algorithms.size(); ++k)
                    if (options.algorithms[k] == "bp")
                        order.insert(order.begin(), k);
                    else
                        order.push_back(k);
                for (std::size_t k : order) {
                    const std::string& name = options.algorithms[k];
                    SearchOptions so = options.search;
                    so.seed = seed * 1000 + r;
                    if (name == "rand" || name == "hc")
                        so.maxSeconds = std::max(bpSeconds, 1e-3);
                    const SearchResult result = makeSearcher(name)->run(engine, q, so, {}, stop);
                    Outcome& o = outcomes[row + k][r];
                    o.seconds = result.wallSeconds;
                    if (name == "bp")
                        bpSeconds = result.wallSeconds;
                    if (!result.config)
                        continue;
                    o.answered = true;
                    o.predictedRmqd = result.gate.prediction.rmqd;
                    const Measurement m = campaign.measure(*result.config, q);
                    o.rmqd = m.rmqd;
                    const double tol[3] = {0.0, 0.05, 0.10};
                    for (int t = 0; t < 3; ++t)
                        o.feasible[t] = feasibleAt(m, q, tol[t], memBudget) &&
                                        engine.exportProblem(*result.config, stack).empty();
                }
            }
            if (progress)
                progress(++step / totalSteps);
        }
        // Metrics per row for this seed.
        for (std::size_t group = 0; group < report.rows.size();
             group += options.algorithms.size()) {
            for (std::size_t k = 0; k < options.algorithms.size(); ++k) {
                const std::vector<Outcome>& os = outcomes[group + k];
                EvalMetrics m;
                double gap = 0;
                for (std::size_t r = 0; r < os.size(); ++r) {
                    const Outcome& o = os[r];
                    m.meanSeconds += o.seconds / static_cast<double>(os.size());
                    if (!o.answered)
                        continue;
                    m.answerRate += 1;
                    m.feasible0 += o.feasible[0];
                    m.feasible5 += o.feasible[1];
                    m.feasible10 += o.feasible[2];
                    if (o.feasible[2] &&
                        (!best[r].bestUniformRmqd || o.rmqd <= *best[r].bestUniformRmqd))
                        m.atLeastUniform10 += 1;
                    bool allFeasible = best[r].bestRmqd.has_value();
                    for (std::size_t j = 0; j < options.algorithms.size(); ++j)
                        allFeasible = allFeasible && outcomes[group + j][r].answered &&
                                      outcomes[group + j][r].feasible[2];
                    if (allFeasible) {
                        gap += o.rmqd - *best[r].bestRmqd;
                        ++m.gapRequests;
                    }
                }
                const double n = static_cast<double>(os.size());
                m.answerRate /= n;
                m.feasible0 /= n;
                m.feasible5 /= n;
                m.feasible10 /= n;
                m.atLeastUniform10 /= n;
                m.gap10 = m.gapRequests > 0 ? gap / m.gapRequests : std::nan("");
                report.rows[group + k].perSeed.push_back(m);
            }
        }
        // BandPareto against Exact, with FMC.
        std::size_t bp = 0, exact = 0;
        for (std::size_t k = 0; k < options.algorithms.size(); ++k) {
            if (options.algorithms[k] == "bp")
                bp = k;
            if (options.algorithms[k] == "exact")
                exact = k;
        }
        if (bp != exact)
            for (std::size_t r = 0; r < requests.size(); ++r) {
                const Outcome& b = outcomes[bp][r];
                const Outcome& x = outcomes[exact][r];
                if (!b.answered)
                    continue;
                ++report.bpAnswered;
                if (b.predictedRmqd == x.predictedRmqd) {
                    ++report.bpEqualsExact;
                } else {
                    gapSum += b.predictedRmqd - x.predictedRmqd;
                    ++gapCount;
                }
            }
    }
    report.bpMeanPredictedGap = gapCount > 0 ? gapSum / gapCount : 0.0;
    return report;
}

} // namespace acsel
