#include "core/eval/siliconcrossfit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace acsel
{
namespace
{

std::uint64_t idHash(const std::string& id, std::uint64_t seed)
{
    std::uint64_t h = 1469598103934665603ULL ^ (seed * 0x9e3779b97f4a7c15ULL);
    for (char c : id)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return h;
}

// NaN for no values (a degree without validation rows).
double median(std::vector<double> v)
{
    if (v.empty())
        return std::numeric_limits<double>::quiet_NaN();
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

} // namespace

std::map<int, ResidualPair> SiliconCrossFit::ownModels() const
{
    std::map<int, ResidualPair> out;
    for (const DegreeCrossFit& d : degrees)
        if (d.own)
            out.emplace(d.tp, *d.own);
    return out;
}

CrossFitResult crossFitStack(const Engine& e, const SiliconPrediction& p, const std::string& stack,
                             ServingMode mode, std::uint64_t seed)
{
    const Workspace& ws = e.workspace();
    struct Row {
        std::uint64_t key;
        const PredictedSiliconRow* row;
        LatencyMs raw;
    };
    std::vector<Row> rows;
    for (const PredictedSiliconRow& r : p.rows) {
        if (ws.stacks[static_cast<std::size_t>(r.stack)].id != stack)
            continue;
        Request q = r.request;
        q.mode = mode;
        rows.push_back({idHash(r.row.id, seed), &r, e.rawLatency(r.config, q)});
    }
    if (rows.size() < 4)
        return {std::nullopt, std::to_string(rows.size()) +
                                  " predictable silicon row(s): the cross-fit needs four"};
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.key != b.key ? a.key < b.key : a.row->row.id < b.row->row.id;
    });
    const std::size_t half = (rows.size() + 1) / 2;
    SiliconCrossFit fit;
    fit.stack = stack;
    fit.workloads = {{}, {}, {}, {}};
    for (const Row& r : rows) {
        fit.workloads.isls.push_back(r.row->request.isl);
        fit.workloads.osls.push_back(r.row->request.osl);
        fit.workloads.batches.push_back(r.row->config.batch);
        fit.workloads.gpus.push_back(r.row->config.tp);
    }
    for (std::vector<int>* v :
         {&fit.workloads.isls, &fit.workloads.osls, &fit.workloads.batches, &fit.workloads.gpus}) {
        std::sort(v->begin(), v->end());
        v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    // The residual models on the rows of the fitting half [0, half) that `keep` keeps.
    const auto fitOn = [&rows, half](const auto& keep) {
        std::vector<WorkloadPoint> xTtft, xTpot;
        std::vector<double> rTtft, rTpot;
        for (std::size_t i = 0; i < half; ++i) {
            const PredictedSiliconRow& r = *rows[i].row;
            if (!keep(r))
                continue;
            WorkloadPoint w = workloadOf(r.config, r.request);
            w.estimateMs = rows[i].raw.ttft;
            xTtft.push_back(w);
            w.estimateMs = rows[i].raw.tpot;
            xTpot.push_back(w);
            rTtft.push_back(std::log(r.row.ttftMs / rows[i].raw.ttft));
            rTpot.push_back(std::log(r.row.tpotMs / rows[i].raw.tpot));
        }
        return ResidualPair{ResidualModel::fit(xTtft, rTtft), ResidualModel::fit(xTpot, rTpot)};
    };
    const auto every = [](const PredictedSiliconRow&) { return true; };
    const ResidualPair stackModels = fitOn(every);
    fit.ttft = stackModels.ttft;
    fit.tpot = stackModels.tpot;
    for (std::size_t i = 0; i < half; ++i)
        fit.residualRows.push_back(rows[i].row->row.id);
    if (fit.workloads.gpus.size() > 1)
        for (int tp : fit.workloads.gpus) {
            DegreeCrossFit d;
            d.tp = tp;
            for (std::size_t i = 0; i < rows.size(); ++i)
                (i < half ? d.residualRows : d.validationRows) +=
                    rows[i].row->config.tp == tp ? 1 : 0;
            if (d.residualRows >= kMinDegreeResidualRows)
                d.own = fitOn([tp](const PredictedSiliconRow& r) { return r.config.tp == tp; });
            fit.degrees.push_back(d);
        }
    const std::map<int, ResidualPair> own = fit.ownModels();
    // |log error| of the validation rows [half, end) that `keep` keeps: of the models each
    // row's degree takes, of the stack's, and of the raw estimate.
    struct Errors {
        std::vector<double> ttft, tpot, stackTtft, stackTpot, rawTtft, rawTpot;
    };
    const auto judge = [&](const auto& keep) {
        Errors out;
        for (std::size_t i = half; i < rows.size(); ++i) {
            const PredictedSiliconRow& r = *rows[i].row;
            if (!keep(r))
                continue;
            const auto it = own.find(r.config.tp);
            const ResidualPair& taken = it != own.end() ? it->second : stackModels;
            WorkloadPoint w = workloadOf(r.config, r.request);
            w.estimateMs = rows[i].raw.ttft;
            const double lt = std::log(r.row.ttftMs / rows[i].raw.ttft);
            out.ttft.push_back(std::abs(lt - taken.ttft.mean(w)));
            out.stackTtft.push_back(std::abs(lt - stackModels.ttft.mean(w)));
            out.rawTtft.push_back(std::abs(lt));
            w.estimateMs = rows[i].raw.tpot;
            const double lp = std::log(r.row.tpotMs / rows[i].raw.tpot);
            out.tpot.push_back(std::abs(lp - taken.tpot.mean(w)));
            out.stackTpot.push_back(std::abs(lp - stackModels.tpot.mean(w)));
            out.rawTpot.push_back(std::abs(lp));
        }
        return out;
    };
    const Errors all = judge(every);
    fit.heldOutTtft = median(all.ttft);
    fit.heldOutTpot = median(all.tpot);
    fit.rawTtft = median(all.rawTtft);
    fit.rawTpot = median(all.rawTpot);
    for (std::size_t i = half; i < rows.size(); ++i)
        fit.validationRows.push_back(rows[i].row->row.id);
    for (DegreeCrossFit& d : fit.degrees) {
        const int tp = d.tp;
        const Errors errors =
            judge([tp](const PredictedSiliconRow& r) { return r.config.tp == tp; });
        d.heldOutTtft = median(errors.ttft);
        d.heldOutTpot = median(errors.tpot);
        d.stackTtft = median(errors.stackTtft);
        d.stackTpot = median(errors.stackTpot);
    }
    return {fit, {}};
}

} // namespace acsel
