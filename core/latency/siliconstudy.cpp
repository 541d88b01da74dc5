#include "core/latency/siliconstudy.h"

#include "core/data/loaderror.h"
#include "core/latency/fmcchoice.h"
#include "core/latency/opcostsfactory.h"
#include "core/latency/roofline.h"

#include <algorithm>
#include <map>
#include <memory>
#include <stdexcept>

namespace acsel
{
namespace
{

void addDistinct(std::vector<std::string>& list, const std::string& s)
{
    if (std::find(list.begin(), list.end(), s) == list.end())
        list.push_back(s);
}

struct Split {
    std::vector<double> est, meas;
    std::vector<FmcProfileKey> keys;
    std::vector<LrFeatures> lr;
};

Split gather(const SiliconPrediction& p, const std::vector<int>& idx, LatencyMetric m,
             ServingMode mode)
{
    Split s;
    for (int i : idx) {
        const PredictedSiliconRow& r = p.rows[static_cast<std::size_t>(i)];
        s.est.push_back(r.estimate(m, mode));
        s.meas.push_back(r.measured(m));
        s.keys.push_back({sweepKey(r.row), loadKey(r.row)});
        s.lr.push_back(m == LatencyMetric::Ttft ? r.lrTtft : r.lrTpot);
    }
    return s;
}

MethodMdape evaluate(const Split& train, const Split& test, double tau)
{
    const FmcLine fmc = chooseFmc(train.est, train.meas, tau, train.keys).line;
    const FmcLine line = fitFmc(train.est, train.meas, tau);
    const FmcLine mse = fitFmcMse(train.est, train.meas);
    const LinearBaseline lr = LinearBaseline::fit(train.lr, train.meas);
    std::vector<double> pf, pg, pm, pl;
    for (std::size_t i = 0; i < test.est.size(); ++i) {
        pf.push_back(fmc.apply(test.est[i]));
        pg.push_back(line.apply(test.est[i]));
        pm.push_back(mse.apply(test.est[i]));
        pl.push_back(lr.predict(test.lr[i]));
    }
    return {mdape(test.est, test.meas), mdape(pf, test.meas), mdape(pg, test.meas),
            mdape(pm, test.meas), mdape(pl, test.meas)};
}

void accumulate(MethodMdape& sum, const MethodMdape& x, double w)
{
    sum.raw += w * x.raw;
    sum.fmc += w * x.fmc;
    sum.fmcLine += w * x.fmcLine;
    sum.fmcMse += w * x.fmcMse;
    sum.lr += w * x.lr;
}

} // namespace

std::string profileExclusion(const PredictedSiliconRow& row, ServingMode mode)
{
    if (mode == ServingMode::Static && row.serving.queued())
        return "queued (concurrency " + std::to_string(row.serving.concurrency) + " > " +
               std::to_string(row.serving.running) +
               " KV slots): the static model cannot describe it, held out";
    return {};
}

SiliconPrediction predictSiliconRows(const Workspace& ws, const std::vector<SiliconRow>& rows,
                                     ServingMode mode)
{
    SiliconPrediction out;
    std::map<int, std::string> unloadable;               // stack -> why its tables cannot be read
    std::unique_ptr<const UtilisationModel> utilisation; // of spec-only stacks, loaded once
    for (const SiliconRow& row : rows) {
        SiliconMapping m = mapSiliconRow(ws, row);
        for (const std::string& a : m.assumptions)
            addDistinct(out.assumptions, a);
        if (!m.ok) {
            out.skipped.push_back({row, m.reason});
            continue;
        }
        const Stack& stack = ws.stacks[static_cast<std::size_t>(m.stack)];
        const Platform& platform = ws.platformOf(stack);
        if (const auto bad = unloadable.find(m.stack); bad != unloadable.end()) {
            out.skipped.push_back({row, bad->second});
            continue;
        }
        auto& c = out.costs[m.stack];
        if (!c) {
            try {
                if (stack.source == LatencySource::Empirical && !utilisation &&
                    !ws.utilisationFile.empty())
                    utilisation = std::make_unique<const UtilisationModel>(
                        loadUtilisationFile(ws.utilisationFile));
                c = makeOpCosts(ws, stack, utilisation.get());
            } catch (const LoadError& e) {
                out.costs.erase(m.stack);
                const std::string why = "tables of " + stack.id + " cannot be read: " + e.what();
                unloadable.emplace(m.stack, why);
                out.skipped.push_back({row, why});
                continue;
            }
        }
        const ModelArch& arch = ws.models[static_cast<std::size_t>(m.config.model)];
        PredictedSiliconRow p;
        p.row = row;
        p.stack = m.stack;
        p.config = m.config;
        p.request = m.request;
        p.kvReason = m.kvReason;
        p.request.mode = mode;
        try {
            p.raw = estimateLatency(*c, arch, m.config, p.request);
            p.serving = estimateServing(*c, arch, m.config, p.request);
        } catch (const std::invalid_argument& e) {
            out.skipped.push_back({row, e.what()});
            continue;
        }
        p.memory = estimateMemory(arch, m.config, m.request, platform);
        p.lrTtft = lrFeatures(arch, m.config, m.request, platform, LatencyMetric::Ttft);
        p.lrTpot = lrFeatures(arch, m.config, m.request, platform, LatencyMetric::Tpot);
        p.attentionNote = c->attentionNote(arch.heads, arch.kvHeads, arch.headDim, m.config.kv);
        out.rows.push_back(std::move(p));
    }
    return out;
}

std::vector<BenchmarkReplay> replaySiliconRows(const Workspace& ws, const SiliconPrediction& p)
{
    std::vector<BenchmarkReplay> out;
    out.reserve(p.rows.size());
    for (const PredictedSiliconRow& r : p.rows) {
        const Stack& stack = ws.stacks[static_cast<std::size_t>(r.stack)];
        const ModelArch& arch = ws.models[static_cast<std::size_t>(r.config.model)];
        const StepModel model(*p.costs.at(r.stack), arch, r.config);
        out.push_back(replayBenchmark(model, servingDefaults(r.request, ws.platformOf(stack)),
                                      r.serving.concurrency, r.serving.running, r.request.isl,
                                      r.request.osl));
    }
    return out;
}

LatencyStudy runLatencyStudy(const SiliconPrediction& p, const Workspace& ws, int profiles,
                             int seeds, double tau, ServingMode mode)
{
    if (profiles < 1 || seeds < 1)
        throw std::invalid_argument("the study needs at least one profile and one seed");
    LatencyStudy study;
    study.profiles = profiles;
    study.seeds = seeds;
    study.tau = tau;
    study.mode = mode;
    std::vector<int> stackOrder;
    for (const PredictedSiliconRow& r : p.rows)
        if (std::find(stackOrder.begin(), stackOrder.end(), r.stack) == stackOrder.end())
            stackOrder.push_back(r.stack);
    std::sort(stackOrder.begin(), stackOrder.end());
    for (int s : stackOrder) {
        const std::string id = ws.stacks[static_cast<std::size_t>(s)].id;
        std::vector<int> idx;
        for (std::size_t i = 0; i < p.rows.size(); ++i)
            if (p.rows[i].stack == s)
                idx.push_back(static_cast<int>(i));
        const int n = static_cast<int>(idx.size());
        if (n < profiles + 1) {
            study.excludedStacks.emplace_back(id, std::to_string(n) + " row(s): needs at least " +
                                                      std::to_string(profiles + 1) +
                                                      " (K profiles + one held out)");
            continue;
        }
        StackStudy st;
        st.stack = id;
        st.rows = n;
        st.profiles = profiles;
        std::vector<int> candidates; // indices into idx
        std::vector<double> ttftEst; // of the candidates
        for (int j = 0; j < n; ++j) {
            const PredictedSiliconRow& r =
                p.rows[static_cast<std::size_t>(idx[static_cast<std::size_t>(j)])];
            st.queuedRows += r.serving.queued() ? 1 : 0;
            if (!profileExclusion(r, mode).empty())
                continue;
            candidates.push_back(j);
            ttftEst.push_back(r.estimate(LatencyMetric::Ttft, mode));
        }
        st.profileCandidates = static_cast<int>(candidates.size());
        if (st.profileCandidates < profiles) {
            study.excludedStacks.emplace_back(
                id, std::to_string(st.profileCandidates) + " profile candidate(s) of " +
                        std::to_string(n) + " rows: needs " + std::to_string(profiles));
            continue;
        }
        for (int seed = 0; seed < seeds; ++seed) {
            std::vector<int> pick;
            for (int c : selectStratified(ttftEst, profiles, static_cast<std::uint64_t>(seed)))
                pick.push_back(candidates[static_cast<std::size_t>(c)]);
            std::vector<int> train, test;
            for (int j = 0; j < n; ++j)
                (std::binary_search(pick.begin(), pick.end(), j) ? train : test)
                    .push_back(idx[static_cast<std::size_t>(j)]);
            for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot})
                accumulate(m == LatencyMetric::Ttft ? st.ttft : st.tpot,
                           evaluate(gather(p, train, m, mode), gather(p, test, m, mode), tau),
                           1.0 / seeds);
        }
        study.stacks.push_back(st);
    }
    const auto mean = [&](LatencyMetric m, double MethodMdape::*field) {
        double sum = 0;
        int n = 0;
        for (const StackStudy& st : study.stacks) {
            const double v = (m == LatencyMetric::Ttft ? st.ttft : st.tpot).*field;
            if (!diverged(v)) {
                sum += v;
                ++n;
            }
        }
        return n > 0 ? sum / n : 0.0;
    };
    for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
        MethodMdape& out = m == LatencyMetric::Ttft ? study.meanTtft : study.meanTpot;
        for (double MethodMdape::*f : {&MethodMdape::raw, &MethodMdape::fmc, &MethodMdape::fmcLine,
                                       &MethodMdape::fmcMse, &MethodMdape::lr})
            out.*f = mean(m, f);
    }
    return study;
}

} // namespace acsel
