#include "core/eval/gateevaluation.h"

#include "core/latency/fmcchoice.h"
#include "core/latency/fmcconfidence.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <sstream>
#include <stdexcept>

namespace acsel
{
namespace
{

constexpr int kFactorsBelowOne = 3; // kBudgetFactors is sorted: 0.8, 0.9, 0.95 | 1.05, ...
static_assert(kBudgetFactors[kFactorsBelowOne - 1] < 1.0 && kBudgetFactors[kFactorsBelowOne] > 1.0);

std::size_t index(LatencyMetric m)
{
    return static_cast<std::size_t>(m);
}

// How a variant calibrates the estimates of its profiles.
enum class Calibrate {
    Line,   // the paper's FMC: the full median line
    Chosen, // the form `acsel calibrate` chooses (fmcchoice.h)
};

// FMC fitted on the profiles' estimates (ours or, onAic, AIC's) for one metric; with
// confidence p != 0.5 the chosen form's p-quantile line, no estimate where its spread is not
// known (too few profiles: the gate then has no interval and cannot admit).
GatePredictor fmcOn(const std::vector<const GateRow*>& profiles, LatencyMetric m, double tau,
                    bool onAic, Calibrate how, double p = 0.5)
{
    std::vector<double> est, meas;
    std::vector<FmcProfileKey> keys;
    for (const GateRow* r : profiles) {
        const std::optional<double> e = onAic ? r->aic[index(m)] : r->raw[index(m)];
        if (!e)
            continue;
        est.push_back(*e);
        meas.push_back(r->measured[index(m)]);
        keys.push_back({r->sweep, r->load});
    }
    const auto none = [](const GateRow&) { return std::optional<double>(); };
    if (est.empty())
        return none;
    if (how == Calibrate::Line || p == 0.5) {
        const FmcLine line =
            how == Calibrate::Line ? fitFmc(est, meas, tau) : chooseFmc(est, meas, tau, keys).line;
        return [line, m, onAic](const GateRow& r) -> std::optional<double> {
            const std::optional<double> e = onAic ? r.aic[index(m)] : r.raw[index(m)];
            if (!e)
                return std::nullopt;
            return line.apply(*e);
        };
    }
    // The p-quantile of each row's predictive distribution at its concurrency, by the rule
    // search --confidence applies (fmcconfidence.h); the stack's for a row without a load.
    FmcChoice choice = chooseFmc(est, meas, tau, keys);
    return [choice = std::move(choice), m, onAic, p](const GateRow& r) -> std::optional<double> {
        const std::optional<double> e = onAic ? r.aic[index(m)] : r.raw[index(m)];
        const std::optional<FmcLoad> at = parseFmcLoad(r.load);
        const std::optional<double> shift =
            at ? confidenceShift(choice.loads, choice.spread, *at, p)
               : confidenceShift({}, choice.spread, {}, p);
        if (!e || !shift)
            return std::nullopt;
        return FmcLine{choice.line.gamma, choice.line.delta + *shift}.apply(*e);
    };
}

// The chosen form's 90 % interval of a row, at the row's concurrency (fmcchoice.h, rowSpread).
IntervalPredictor chosenInterval(const std::vector<const GateRow*>& profiles, LatencyMetric m,
                                 double tau)
{
    std::vector<double> est, meas;
    std::vector<FmcProfileKey> keys;
    for (const GateRow* r : profiles) {
        est.push_back(r->raw[index(m)]);
        meas.push_back(r->measured[index(m)]);
        keys.push_back({r->sweep, r->load});
    }
    if (est.empty())
        return [](const GateRow&) { return std::optional<LatencyInterval>(); };
    FmcChoice choice = chooseFmc(est, meas, tau, keys);
    return [choice = std::move(choice), m](const GateRow& r) -> std::optional<LatencyInterval> {
        const FmcRowSpread spread = rowSpread(choice.loads, choice.spread, r.load);
        if (!spread.spread.known())
            return std::nullopt;
        return predictiveInterval(choice.line, spread, r.raw[index(m)], kGateIntervalLevel);
    };
}

void add(GateCounts& sum, const GateCounts& x)
{
    sum.cases += x.cases;
    sum.noEstimate += x.noEstimate;
    for (std::size_t f = 0; f < kBudgetFactors.size(); ++f)
        sum.admitted[f] += x.admitted[f];
    sum.intervals += x.intervals;
    sum.covered += x.covered;
    sum.widthSum += x.widthSum;
}

void checkRow(const GateRow& r)
{
    for (int m = 0; m < 2; ++m) {
        const auto bad = [](double v) { return !(std::isfinite(v) && v > 0); };
        if (bad(r.measured[static_cast<std::size_t>(m)]) ||
            bad(r.raw[static_cast<std::size_t>(m)]) ||
            (r.aic[static_cast<std::size_t>(m)] && bad(*r.aic[static_cast<std::size_t>(m)])))
            throw std::invalid_argument("gate evaluation: row '" + r.id +
                                        "' has a latency that is not finite and positive");
    }
}

} // namespace

int GateCounts::overBudget() const
{
    return cases * kFactorsBelowOne;
}
int GateCounts::withinBudget() const
{
    return cases * (static_cast<int>(kBudgetFactors.size()) - kFactorsBelowOne);
}
int GateCounts::falseAdmits() const
{
    int n = 0;
    for (int f = 0; f < kFactorsBelowOne; ++f)
        n += admitted[static_cast<std::size_t>(f)];
    return n;
}
int GateCounts::falseRejects() const
{
    int n = withinBudget();
    for (std::size_t f = kFactorsBelowOne; f < kBudgetFactors.size(); ++f)
        n -= admitted[f];
    return n;
}
double GateCounts::falseAdmitRate() const
{
    return overBudget() > 0 ? static_cast<double>(falseAdmits()) / overBudget() : std::nan("");
}
double GateCounts::falseRejectRate() const
{
    return withinBudget() > 0 ? static_cast<double>(falseRejects()) / withinBudget() : std::nan("");
}

std::vector<GateVariant> standardGateVariants(double tau, bool withAic, double confidence)
{
    std::vector<GateVariant> v;
    v.push_back({"raw", [](const std::vector<const GateRow*>&, LatencyMetric m) -> GatePredictor {
                     return [m](const GateRow& r) { return std::optional(r.raw[index(m)]); };
                 }});
    v.push_back({"fmc", [tau](const std::vector<const GateRow*>& p, LatencyMetric m) {
                     return fmcOn(p, m, tau, false, Calibrate::Line);
                 }});
    if (withAic) {
        v.push_back(
            {"aic", [](const std::vector<const GateRow*>&, LatencyMetric m) -> GatePredictor {
                 return [m](const GateRow& r) { return r.aic[index(m)]; };
             }});
        v.push_back({"aic+fmc", [tau](const std::vector<const GateRow*>& p, LatencyMetric m) {
                         return fmcOn(p, m, tau, true, Calibrate::Line);
                     }});
    }
    v.push_back({"calibrate",
                 [tau](const std::vector<const GateRow*>& p, LatencyMetric m) {
                     return fmcOn(p, m, tau, false, Calibrate::Chosen);
                 },
                 [tau](const std::vector<const GateRow*>& p, LatencyMetric m) {
                     return chosenInterval(p, m, tau);
                 }});
    if (confidence != 0.5) {
        std::ostringstream name;
        name << "calibrate@" << confidence;
        v.push_back(
            {name.str(), [tau, confidence](const std::vector<const GateRow*>& p, LatencyMetric m) {
                 return fmcOn(p, m, tau, false, Calibrate::Chosen, confidence);
             }});
    }
    return v;
}

GateEvaluation evaluateGate(const std::vector<GateRow>& rows,
                            const std::vector<GateVariant>& variants, int profiles, int seeds,
                            GateSplit split)
{
    const bool bySweep = split == GateSplit::LeaveOneSweepOut;
    if (profiles < 1 || seeds < 1)
        throw std::invalid_argument("gate evaluation: needs at least one profile and one seed");
    for (const GateRow& r : rows)
        checkRow(r);
    const std::size_t nv = variants.size();
    GateEvaluation out;
    out.profiles = profiles;
    out.seeds = seeds;
    for (const GateVariant& v : variants)
        out.variants.push_back(v.name);
    out.pooled.assign(nv, {});
    out.sameStack.assign(nv, {});
    out.acrossStacks.assign(nv, {});

    // Stacks in first-seen order, each with its rows (indices into `rows`).
    std::vector<std::pair<std::string, std::vector<int>>> stacks;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        auto it = std::find_if(stacks.begin(), stacks.end(),
                               [&](const auto& s) { return s.first == rows[i].stack; });
        if (it == stacks.end()) {
            stacks.emplace_back(rows[i].stack, std::vector<int>{});
            it = std::prev(stacks.end());
        }
        it->second.push_back(static_cast<int>(i));
    }
    struct Studied {
        std::size_t result;              // index into out.stacks
        std::vector<int> idx;            // rows of the stack
        std::vector<int> candidates;     // rows allowed as profiles
        std::vector<double> ttftRaw;     // of the candidates
        std::vector<std::string> sweeps; // leave-one-sweep-out: the stack's sweeps, sorted
    };
    std::vector<Studied> studied;
    for (const auto& [id, idx] : stacks) {
        StackGateResult st;
        st.stack = id;
        st.rows = static_cast<int>(idx.size());
        st.profiles = profiles;
        Studied s{out.stacks.size(), idx, {}, {}, {}};
        for (int i : idx) {
            if (rows[static_cast<std::size_t>(i)].profileCandidate) {
                s.candidates.push_back(i);
                s.ttftRaw.push_back(rows[static_cast<std::size_t>(i)].raw[0]);
            }
            s.sweeps.push_back(rows[static_cast<std::size_t>(i)].sweep);
        }
        std::sort(s.sweeps.begin(), s.sweeps.end());
        s.sweeps.erase(std::unique(s.sweeps.begin(), s.sweeps.end()), s.sweeps.end());
        st.profileCandidates = static_cast<int>(s.candidates.size());
        if (bySweep && s.sweeps.size() < 2) {
            out.excludedStacks.emplace_back(id,
                                            "one concurrency sweep: nothing to predict it from");
            continue;
        }
        if (bySweep) {
            // held out sweep by sweep: no fixed K
        } else if (st.rows < profiles + 1) {
            out.excludedStacks.emplace_back(
                id, std::to_string(st.rows) + " row(s): needs at least " +
                        std::to_string(profiles + 1) + " (K profiles + one held out)");
            continue;
        }
        if (!bySweep && st.profileCandidates < profiles) {
            out.excludedStacks.emplace_back(
                id, std::to_string(st.profileCandidates) + " profile candidate(s) of " +
                        std::to_string(st.rows) + " rows: needs " + std::to_string(profiles));
            continue;
        }
        st.variants.assign(nv, {});
        out.stacks.push_back(st);
        studied.push_back(std::move(s));
    }

    std::vector<std::pair<int, int>> pairs;
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = i + 1; j < rows.size(); ++j)
            if (!rows[i].workload.empty() && rows[i].workload == rows[j].workload)
                pairs.emplace_back(static_cast<int>(i), static_cast<int>(j));
    out.workloadPairs = static_cast<int>(pairs.size());

    // prediction[row][variant][metric] for the rows held out in the current seed
    using Predictions = std::vector<std::array<std::optional<double>, 2>>;
    std::size_t rounds = static_cast<std::size_t>(seeds);
    if (bySweep) {
        rounds = 0;
        for (const Studied& s : studied)
            rounds = std::max(rounds, s.sweeps.size());
    }
    for (std::size_t seed = 0; seed < rounds; ++seed) {
        std::vector<bool> heldOut(rows.size(), false);
        std::vector<Predictions> prediction(rows.size());
        for (const Studied& s : studied) {
            if (bySweep && seed >= s.sweeps.size())
                continue;
            // pick: the profiles; a row of the stack is held out when it is not one (stratified)
            // or is of the round's sweep (by sweep).
            std::vector<int> pick;
            if (bySweep) {
                for (int c : s.candidates)
                    if (rows[static_cast<std::size_t>(c)].sweep != s.sweeps[seed])
                        pick.push_back(c);
            } else {
                for (int c : selectStratified(s.ttftRaw, profiles, seed))
                    pick.push_back(s.candidates[static_cast<std::size_t>(c)]);
            }
            std::sort(pick.begin(), pick.end());
            const auto held = [&](int i) {
                return bySweep ? rows[static_cast<std::size_t>(i)].sweep == s.sweeps[seed]
                               : !std::binary_search(pick.begin(), pick.end(), i);
            };
            std::vector<const GateRow*> profileRows;
            for (int i : pick)
                profileRows.push_back(&rows[static_cast<std::size_t>(i)]);
            StackGateResult& st = out.stacks[s.result];
            for (std::size_t v = 0; v < nv; ++v)
                for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
                    const GatePredictor predict = variants[v].fit(profileRows, m);
                    const IntervalPredictor interval =
                        variants[v].interval ? variants[v].interval(profileRows, m) : nullptr;
                    GateCounts counts;
                    for (int i : s.idx) {
                        if (!held(i))
                            continue;
                        const GateRow& r = rows[static_cast<std::size_t>(i)];
                        heldOut[static_cast<std::size_t>(i)] = true;
                        auto& pred = prediction[static_cast<std::size_t>(i)];
                        pred.resize(nv);
                        const std::optional<double> p = predict(r);
                        pred[v][index(m)] = p;
                        ++counts.cases;
                        if (const auto iv = interval ? interval(r) : std::nullopt) {
                            const double y = r.measured[index(m)];
                            ++counts.intervals;
                            counts.covered += y >= iv->lowMs && y <= iv->highMs ? 1 : 0;
                            counts.widthSum += std::sqrt(iv->highMs / iv->lowMs);
                        }
                        if (!p) {
                            ++counts.noEstimate;
                            continue;
                        }
                        const double measured = r.measured[index(m)];
                        for (std::size_t f = 0; f < kBudgetFactors.size(); ++f)
                            counts.admitted[f] += *p <= kBudgetFactors[f] * measured ? 1 : 0;
                    }
                    add(st.variants[v][index(m)], counts);
                    add(out.pooled[v][index(m)], counts);
                }
        }
        for (const auto& [i, j] : pairs) {
            const auto a = static_cast<std::size_t>(i), b = static_cast<std::size_t>(j);
            if (!heldOut[a] || !heldOut[b])
                continue;
            auto& target = rows[a].stack == rows[b].stack ? out.sameStack : out.acrossStacks;
            for (std::size_t v = 0; v < nv; ++v)
                for (std::size_t m = 0; m < 2; ++m) {
                    const double ma = rows[a].measured[m], mb = rows[b].measured[m];
                    if (ma == mb)
                        continue;
                    DecisionCounts& d = target[v][m];
                    ++d.pairs;
                    const std::optional<double> pa = prediction[a][v][m], pb = prediction[b][v][m];
                    if (!pa || !pb || *pa == *pb)
                        ++d.undecided;
                    else if ((*pa < *pb) == (ma < mb))
                        ++d.correct;
                }
        }
    }
    return out;
}

PerMetric oracleGate(const std::vector<GateRow>& rows, const std::vector<std::string>& stacks,
                     double q)
{
    if (!(q > 0 && q < 1))
        throw std::invalid_argument("gate evaluation: an oracle quantile must be in (0, 1)");
    PerMetric out{};
    for (const std::string& stack : stacks)
        for (LatencyMetric m : {LatencyMetric::Ttft, LatencyMetric::Tpot}) {
            std::vector<const GateRow*> own;
            std::vector<double> ratio;
            for (const GateRow& r : rows)
                if (r.stack == stack) {
                    checkRow(r);
                    own.push_back(&r);
                    ratio.push_back(r.measured[index(m)] / r.raw[index(m)]);
                }
            if (own.empty())
                continue;
            std::sort(ratio.begin(), ratio.end());
            const auto k =
                static_cast<std::size_t>(std::ceil(q * static_cast<double>(ratio.size()) - 1e-9));
            const double factor = ratio[std::max<std::size_t>(k, 1) - 1];
            GateCounts& c = out[index(m)];
            for (const GateRow* r : own) {
                ++c.cases;
                const double p = r->raw[index(m)] * factor;
                for (std::size_t f = 0; f < kBudgetFactors.size(); ++f)
                    c.admitted[f] += p <= kBudgetFactors[f] * r->measured[index(m)] ? 1 : 0;
            }
        }
    return out;
}

} // namespace acsel
