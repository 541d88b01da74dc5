#include "core/eval/calibrationstudy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

namespace acsel
{
namespace
{

// K distinct members of `pool`, drawn with rng (raw output modulo: the same on every platform).
std::vector<int> drawFrom(std::vector<int> pool, std::size_t k, std::mt19937_64& rng)
{
    for (std::size_t i = 0; i < k; ++i)
        std::swap(pool[i], pool[i + rng() % (pool.size() - i)]);
    pool.resize(k);
    std::sort(pool.begin(), pool.end());
    return pool;
}

// The profile rows of one draw (indices into p.rows), empty when the stack cannot give them.
std::vector<int> pick(const SiliconPrediction& p, const std::vector<int>& candidates,
                      ProfileDraw how, int k, std::uint64_t seed)
{
    const auto n = static_cast<std::size_t>(k);
    if (how == ProfileDraw::Spread || how == ProfileDraw::Independent) {
        if (candidates.size() < n)
            return {};
        std::vector<double> est;
        std::vector<FmcProfileKey> keys;
        for (int i : candidates) {
            const PredictedSiliconRow& r = p.rows[static_cast<std::size_t>(i)];
            est.push_back(r.estimate(LatencyMetric::Ttft));
            keys.push_back({sweepKey(r.row), loadKey(r.row)});
        }
        std::vector<int> out;
        for (int j : how == ProfileDraw::Spread ? selectStratified(est, k, seed)
                                                : selectIndependent(est, keys, k, seed))
            out.push_back(candidates[static_cast<std::size_t>(j)]);
        std::sort(out.begin(), out.end());
        return out;
    }
    std::map<std::string, std::vector<int>> groups;
    for (int i : candidates) {
        const SiliconRow& r = p.rows[static_cast<std::size_t>(i)].row;
        groups[how == ProfileDraw::OneSweep ? sweepKey(r) : loadKey(r)].push_back(i);
    }
    std::vector<const std::vector<int>*> large;
    for (const auto& [key, rows] : groups)
        if (rows.size() >= n)
            large.push_back(&rows);
    if (large.empty())
        return {};
    std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + 1);
    return drawFrom(*large[rng() % large.size()], n, rng);
}

} // namespace

std::string_view toString(ProfileDraw d)
{
    switch (d) {
    case ProfileDraw::OneSweep:
        return "one-sweep";
    case ProfileDraw::OneLoad:
        return "one-concurrency";
    case ProfileDraw::Spread:
        return "spread";
    case ProfileDraw::Independent:
        break;
    }
    return "independent";
}

std::vector<CalibrationDraw> runCalibrationStudy(const SiliconPrediction& p, const Workspace& ws,
                                                 const CalibrationStudyOptions& o)
{
    std::map<int, std::vector<int>> rowsOf, candidatesOf; // by stack
    for (std::size_t i = 0; i < p.rows.size(); ++i) {
        const PredictedSiliconRow& r = p.rows[i];
        rowsOf[r.stack].push_back(static_cast<int>(i));
        if (profileExclusion(r, r.request.mode).empty())
            candidatesOf[r.stack].push_back(static_cast<int>(i));
    }
    std::vector<CalibrationDraw> out;
    for (const auto& [stack, rows] : rowsOf)
        for (ProfileDraw how : o.draws)
            for (int k : o.profileCounts)
                for (int seed = 0; seed < o.seeds; ++seed) {
                    const std::vector<int> prof =
                        pick(p, candidatesOf[stack], how, k, static_cast<std::uint64_t>(seed));
                    if (prof.empty() || prof.size() >= rows.size())
                        continue;
                    CalibrationDraw d;
                    d.stack = ws.stacks[static_cast<std::size_t>(stack)].id;
                    d.draw = how;
                    d.profiles = k;
                    d.seed = static_cast<std::uint64_t>(seed);
                    d.heldOut = static_cast<int>(rows.size() - prof.size());
                    std::vector<FmcProfileKey> keys;
                    for (int i : prof) {
                        const SiliconRow& r = p.rows[static_cast<std::size_t>(i)].row;
                        keys.push_back({sweepKey(r), loadKey(r)});
                    }
                    d.independent = independentProfiles(keys, keys.size());
                    for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
                        std::vector<double> x, y, hx, hy, hf;
                        for (int i : prof) {
                            x.push_back(p.rows[static_cast<std::size_t>(i)].estimate(m));
                            y.push_back(p.rows[static_cast<std::size_t>(i)].measured(m));
                        }
                        const FmcChoice c = chooseFmc(x, y, o.tau, keys, o.rule);
                        const auto mi = static_cast<std::size_t>(m);
                        int intervals = 0, covered = 0;
                        double widthSum = 0;
                        for (int i : rows) {
                            if (std::binary_search(prof.begin(), prof.end(), i))
                                continue;
                            const PredictedSiliconRow& r = p.rows[static_cast<std::size_t>(i)];
                            hx.push_back(r.estimate(m));
                            hy.push_back(r.measured(m));
                            hf.push_back(c.line.apply(r.estimate(m)));
                            const FmcRowSpread s = rowSpread(c.loads, c.spread, loadKey(r.row));
                            if (!s.spread.known())
                                continue;
                            const LatencyInterval iv =
                                predictiveInterval(c.line, s, r.estimate(m), 0.9);
                            ++intervals;
                            covered += hy.back() >= iv.lowMs && hy.back() <= iv.highMs ? 1 : 0;
                            widthSum += std::sqrt(iv.highMs / iv.lowMs);
                        }
                        const double nan = std::nan("");
                        d.width[mi] = intervals > 0 ? widthSum / intervals : nan;
                        d.coverage[mi] = intervals > 0 ? double(covered) / intervals : nan;
                        d.raw[mi] = mdape(hx, hy);
                        d.fmc[mi] = mdape(hf, hy);
                        d.form[mi] = c.form;
                    }
                    out.push_back(std::move(d));
                }
    return out;
}

bool hurts(const CalibrationDraw& d, LatencyMetric m, double tolerance)
{
    const auto i = static_cast<std::size_t>(m);
    return d.fmc[i] > d.raw[i] * (1.0 + tolerance);
}

} // namespace acsel
