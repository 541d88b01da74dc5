#include "core/eval/siliconcrossfit.h"

#include <algorithm>
#include <cmath>

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

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

} // namespace

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
    std::vector<WorkloadPoint> xTtft, xTpot;
    std::vector<double> rTtft, rTpot;
    for (std::size_t i = 0; i < half; ++i) {
        const PredictedSiliconRow& r = *rows[i].row;
        WorkloadPoint w = workloadOf(r.config, r.request);
        w.estimateMs = rows[i].raw.ttft;
        xTtft.push_back(w);
        w.estimateMs = rows[i].raw.tpot;
        xTpot.push_back(w);
        rTtft.push_back(std::log(r.row.ttftMs / rows[i].raw.ttft));
        rTpot.push_back(std::log(r.row.tpotMs / rows[i].raw.tpot));
        fit.residualRows.push_back(r.row.id);
    }
    fit.ttft = ResidualModel::fit(xTtft, rTtft);
    fit.tpot = ResidualModel::fit(xTpot, rTpot);
    std::vector<double> errTtft, errTpot, rawErrTtft, rawErrTpot;
    for (std::size_t i = half; i < rows.size(); ++i) {
        const PredictedSiliconRow& r = *rows[i].row;
        WorkloadPoint w = workloadOf(r.config, r.request);
        w.estimateMs = rows[i].raw.ttft;
        const double lt = std::log(r.row.ttftMs / rows[i].raw.ttft);
        errTtft.push_back(std::abs(lt - fit.ttft.mean(w)));
        rawErrTtft.push_back(std::abs(lt));
        w.estimateMs = rows[i].raw.tpot;
        const double lp = std::log(r.row.tpotMs / rows[i].raw.tpot);
        errTpot.push_back(std::abs(lp - fit.tpot.mean(w)));
        rawErrTpot.push_back(std::abs(lp));
        fit.validationRows.push_back(r.row.id);
    }
    fit.heldOutTtft = median(errTtft);
    fit.heldOutTpot = median(errTpot);
    fit.rawTtft = median(rawErrTtft);
    fit.rawTpot = median(rawErrTpot);
    return {fit, {}};
}

} // namespace acsel
