#include "core/latency/aiccomparison.h"

#include "core/data/csvreader.h"
#include "core/data/loaderror.h"
#include "core/latency/fmcchoice.h"

#include <algorithm>
#include <tuple>

namespace acsel
{
namespace
{

struct CommonRow {
    const PredictedSiliconRow* ours;
    const AicComparisonRow* aic;
    double est(LatencyMetric m, ServingMode mode) const { return ours->estimate(m, mode); }
    double aicEst(LatencyMetric m) const
    {
        return m == LatencyMetric::Ttft ? aic->ttftMs : aic->tpotMs;
    }
    double measured(LatencyMetric m) const { return ours->measured(m); }
};

// Held-out predictions of one seed for one tool and metric, appended to pred / meas.
struct Draw {
    std::vector<double> oursRaw, oursPred, aicPred, meas;
    int inside = 0;
};

void calibrateOne(const std::vector<CommonRow>& rows, const std::vector<int>& pick, LatencyMetric m,
                  ServingMode mode, double tau, double level, Draw& d)
{
    std::vector<double> ox, ax, y;
    std::vector<FmcProfileKey> keys;
    for (int i : pick) {
        const CommonRow& r = rows[static_cast<std::size_t>(i)];
        keys.push_back({sweepKey(r.ours->row), loadKey(r.ours->row)});
        ox.push_back(r.est(m, mode));
        ax.push_back(r.aicEst(m));
        y.push_back(r.measured(m));
    }
    const FmcChoice ours = chooseFmc(ox, y, tau, keys), theirs = chooseFmc(ax, y, tau, keys);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (std::binary_search(pick.begin(), pick.end(), static_cast<int>(i)))
            continue;
        const CommonRow& r = rows[i];
        const double est = r.est(m, mode), meas = r.measured(m);
        d.oursRaw.push_back(est);
        d.oursPred.push_back(ours.line.apply(est));
        d.aicPred.push_back(theirs.line.apply(r.aicEst(m)));
        d.meas.push_back(meas);
        const FmcRowSpread spread = rowSpread(ours.loads, ours.spread, loadKey(r.ours->row));
        if (spread.spread.known()) {
            const LatencyInterval iv = predictiveInterval(ours.line, spread, est, level);
            d.inside += meas >= iv.lowMs && meas <= iv.highMs ? 1 : 0;
        }
    }
}

ToolPair rawMdape(const std::vector<CommonRow>& rows, LatencyMetric m, ServingMode mode)
{
    std::vector<double> o, a, y;
    for (const CommonRow& r : rows) {
        o.push_back(r.est(m, mode));
        a.push_back(r.aicEst(m));
        y.push_back(r.measured(m));
    }
    return {mdape(o, y), mdape(a, y)};
}

} // namespace

std::map<std::string, AicComparisonRow> loadAicEstimates(const std::string& path)
{
    CsvReader csv = CsvReader::fromFile(path);
    const int cId = csv.requireColumn("id");
    const int cStatus = csv.requireColumn("aic_agg_status");
    const int cTtft = csv.requireColumn("aic_agg_ttft_ms");
    const int cTpot = csv.requireColumn("aic_agg_tpot_ms");
    const auto cKv = csv.column("aic_kv_cache_dtype");
    const auto cGemm = csv.column("aic_gemm_dtype");
    std::map<std::string, AicComparisonRow> out;
    while (csv.next()) {
        AicComparisonRow e;
        e.id = csv.field(cId);
        if (e.id.empty())
            throw LoadError(csv.name(), csv.where(cId), "expected a non-empty row id");
        const std::string status(csv.field(cStatus));
        if (status != "ok" && status != "refused")
            throw LoadError(csv.name(), csv.where(cStatus),
                            "expected \"ok\" or \"refused\", found '" + status + "'");
        e.answered = status == "ok";
        if (e.answered) {
            e.ttftMs = csv.positiveNumber(cTtft);
            e.tpotMs = csv.positiveNumber(cTpot);
        }
        if (cKv)
            e.kvCacheDtype = csv.field(*cKv);
        if (cGemm)
            e.gemmDtype = csv.field(*cGemm);
        const std::string id = e.id;
        if (!out.emplace(id, std::move(e)).second)
            throw LoadError(csv.name(), csv.where(cId), "row id '" + id + "' appears twice");
    }
    if (out.empty())
        throw LoadError(csv.name(), "", "no estimate rows");
    return out;
}

AicComparison compareWithAic(const SiliconPrediction& p, const Workspace& ws,
                             const std::map<std::string, AicComparisonRow>& aic, int profiles,
                             int seeds, double tau, ServingMode mode, double intervalLevel)
{
    if (profiles < 1 || seeds < 1)
        throw std::invalid_argument("the comparison needs at least one profile and one seed");
    AicComparison c;
    c.profiles = profiles;
    c.seeds = seeds;
    c.tau = tau;
    c.intervalLevel = intervalLevel;
    std::map<int, std::vector<CommonRow>> byStack;
    std::map<std::tuple<std::string, std::string, int, int>, std::vector<CommonRow>> byGroup;
    std::vector<CommonRow> all;
    for (const PredictedSiliconRow& r : p.rows) {
        const auto it = aic.find(r.row.id);
        if (it == aic.end() || !it->second.answered) {
            ++c.oursOnly;
            continue;
        }
        byStack[r.stack].push_back({&r, &it->second});
        byGroup[{r.row.modelPath, ws.stacks[static_cast<std::size_t>(r.stack)].id, r.row.tp,
                 r.config.moeEp}]
            .push_back({&r, &it->second});
        all.push_back({&r, &it->second});
    }
    for (const SkippedSiliconRow& s : p.skipped)
        if (const auto it = aic.find(s.row.id); it != aic.end() && it->second.answered)
            ++c.aicOnly;
    if (all.empty())
        return c;

    // Per seed: held-out rows of every calibrated stack, pooled.
    std::vector<Draw> pooled(static_cast<std::size_t>(2 * seeds));
    for (auto& [stack, rows] : byStack) {
        AicStackComparison s;
        s.stack = ws.stacks[static_cast<std::size_t>(stack)].id;
        s.rows = static_cast<int>(rows.size());
        s.rawTtft = rawMdape(rows, LatencyMetric::Ttft, mode);
        s.rawTpot = rawMdape(rows, LatencyMetric::Tpot, mode);
        std::vector<int> candidates; // rows profileExclusion allows
        std::vector<double> ttftEst; // of the candidates
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (profileExclusion(*rows[i].ours, mode).empty()) {
                candidates.push_back(static_cast<int>(i));
                ttftEst.push_back(rows[i].est(LatencyMetric::Ttft, mode));
            }
        s.calibrated = s.rows >= profiles + 1 && static_cast<int>(candidates.size()) >= profiles;
        if (s.calibrated) {
            s.heldOut = s.rows - profiles;
            for (int seed = 0; seed < seeds; ++seed) {
                std::vector<int> pick;
                for (int k : selectStratified(ttftEst, profiles, static_cast<std::uint64_t>(seed)))
                    pick.push_back(candidates[static_cast<std::size_t>(k)]);
                for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
                    Draw d;
                    calibrateOne(rows, pick, m, mode, tau, intervalLevel, d);
                    const bool t = m == LatencyMetric::Ttft;
                    ToolPair& fmc = t ? s.fmcTtft : s.fmcTpot;
                    fmc.ours += mdape(d.oursPred, d.meas) / seeds;
                    fmc.aic += mdape(d.aicPred, d.meas) / seeds;
                    (t ? s.rawHeldOutTtft : s.rawHeldOutTpot) += mdape(d.oursRaw, d.meas) / seeds;
                    (t ? s.coverageTtft : s.coverageTpot) +=
                        static_cast<double>(d.inside) / static_cast<double>(d.meas.size()) / seeds;
                    Draw& sum = pooled[static_cast<std::size_t>(2 * seed + (t ? 0 : 1))];
                    sum.oursRaw.insert(sum.oursRaw.end(), d.oursRaw.begin(), d.oursRaw.end());
                    sum.oursPred.insert(sum.oursPred.end(), d.oursPred.begin(), d.oursPred.end());
                    sum.aicPred.insert(sum.aicPred.end(), d.aicPred.begin(), d.aicPred.end());
                    sum.meas.insert(sum.meas.end(), d.meas.begin(), d.meas.end());
                    sum.inside += d.inside;
                }
            }
        }
        c.stacks.push_back(s);
    }
    std::sort(c.stacks.begin(), c.stacks.end(),
              [](const AicStackComparison& a, const AicStackComparison& b) {
                  return a.rows != b.rows ? a.rows > b.rows : a.stack < b.stack;
              });
    for (const auto& [key, rows] : byGroup) {
        AicGroupComparison g;
        std::tie(g.model, g.stack, g.tp, g.moeEp) = key;
        g.rows = static_cast<int>(rows.size());
        g.rawTtft = rawMdape(rows, LatencyMetric::Ttft, mode);
        g.rawTpot = rawMdape(rows, LatencyMetric::Tpot, mode);
        c.groups.push_back(g);
    }
    AicStackComparison& total = c.pooled;
    total.stack = "all";
    total.rows = static_cast<int>(all.size());
    total.rawTtft = rawMdape(all, LatencyMetric::Ttft, mode);
    total.rawTpot = rawMdape(all, LatencyMetric::Tpot, mode);
    total.calibrated = !pooled.front().meas.empty();
    if (total.calibrated) {
        total.heldOut = static_cast<int>(pooled.front().meas.size());
        for (int seed = 0; seed < seeds; ++seed)
            for (int t = 0; t < 2; ++t) {
                const Draw& d = pooled[static_cast<std::size_t>(2 * seed + t)];
                ToolPair& fmc = t == 0 ? total.fmcTtft : total.fmcTpot;
                fmc.ours += mdape(d.oursPred, d.meas) / seeds;
                fmc.aic += mdape(d.aicPred, d.meas) / seeds;
                (t == 0 ? total.rawHeldOutTtft : total.rawHeldOutTpot) +=
                    mdape(d.oursRaw, d.meas) / seeds;
                (t == 0 ? total.coverageTtft : total.coverageTpot) +=
                    static_cast<double>(d.inside) / static_cast<double>(d.meas.size()) / seeds;
            }
    }
    return c;
}

} // namespace acsel
