#include "core/latency/fmcchoice.h"

#include "core/latency/fmcprior.h"
#include "core/latency/studentt.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <locale>
#include <map>
#include <numbers>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace acsel
{
namespace
{

constexpr double kInf = std::numeric_limits<double>::infinity();

bool admissible(const FmcLine& l)
{
    return l.gamma > 0 && std::abs(l.delta) <= kFmcMaxAbsDelta && std::isfinite(l.gamma);
}

FmcLine fitForm(FmcForm form, std::span<const double> x, std::span<const double> y, double tau,
                const FmcRule& rule)
{
    switch (form) {
    case FmcForm::Identity:
        return {};
    case FmcForm::Offset:
        return fitFmcCautiousOffset(x, y, tau, rule.offsetConfidence);
    case FmcForm::Line:
        break;
    }
    return fitFmc(x, y, tau);
}

// The held-out groups of the cross-validation: each is predicted from its training profiles.
struct Fold {
    std::vector<int> held, train;
};
struct Folds {
    FmcValidation validation = FmcValidation::LeaveOneOut;
    std::vector<Fold> folds;
};

std::vector<int> ids(std::span<const FmcProfileKey> keys, std::string FmcProfileKey::*field)
{
    std::map<std::string_view, int> seen;
    std::vector<int> out;
    int next = 0;
    for (const FmcProfileKey& k : keys) {
        const std::string& key = k.*field;
        if (key.empty()) // unknown: shared with no other profile
            out.push_back(next++);
        else
            out.push_back(seen.emplace(key, next).second ? next++ : seen.at(key));
    }
    return out;
}

// Up to kFmcLeaveOneOutMax profiles each one alone, predicted from the profiles sharing neither
// its sweep nor its load (all others without keys); above, kFmcCrossValidationFolds folds of
// whole sweeps (of single profiles without keys).
Folds foldsFor(std::size_t n, std::span<const FmcProfileKey> keys)
{
    std::vector<int> sweep(n), load(n);
    for (std::size_t i = 0; i < n; ++i)
        sweep[i] = load[i] = static_cast<int>(i);
    if (!keys.empty()) {
        sweep = ids(keys, &FmcProfileKey::sweep);
        load = ids(keys, &FmcProfileKey::load);
    }
    Folds f;
    f.validation = keys.empty() ? FmcValidation::LeaveOneOut : FmcValidation::LeaveOneSweepOut;
    if (n > static_cast<std::size_t>(kFmcLeaveOneOutMax)) {
        f.validation = FmcValidation::Folds;
        f.folds.resize(kFmcCrossValidationFolds);
        for (std::size_t i = 0; i < n; ++i)
            for (int k = 0; k < kFmcCrossValidationFolds; ++k)
                (sweep[i] % kFmcCrossValidationFolds == k
                     ? f.folds[static_cast<std::size_t>(k)].held
                     : f.folds[static_cast<std::size_t>(k)].train)
                    .push_back(static_cast<int>(i));
        return f;
    }
    for (std::size_t i = 0; i < n; ++i) {
        Fold one{{static_cast<int>(i)}, {}};
        for (std::size_t j = 0; j < n; ++j)
            if (sweep[j] != sweep[i] && load[j] != load[i])
                one.train.push_back(static_cast<int>(j));
        f.folds.push_back(std::move(one));
    }
    return f;
}

// Out-of-fold log residuals of one form: each profile predicted by the form fitted on its
// fold's training profiles (identity fits nothing: its residuals are the raw ones). NaN for a
// profile whose fold has no training profile.
std::vector<double> outOfFoldResiduals(FmcForm form, std::span<const double> x,
                                       std::span<const double> y, const Folds& folds, double tau,
                                       const FmcRule& rule)
{
    const std::size_t n = x.size();
    std::vector<double> r(n, std::numeric_limits<double>::quiet_NaN());
    if (form == FmcForm::Identity) {
        for (std::size_t i = 0; i < n; ++i)
            r[i] = std::log(y[i]) - std::log(x[i]);
        return r;
    }
    std::vector<double> tx, ty;
    for (const Fold& f : folds.folds) {
        if (f.train.empty())
            continue;
        tx.clear();
        ty.clear();
        for (int j : f.train) {
            tx.push_back(x[static_cast<std::size_t>(j)]);
            ty.push_back(y[static_cast<std::size_t>(j)]);
        }
        const FmcLine l = fitForm(form, tx, ty, tau, rule);
        for (int i : f.held)
            r[static_cast<std::size_t>(i)] = std::log(y[static_cast<std::size_t>(i)]) -
                                             std::log(l.apply(x[static_cast<std::size_t>(i)]));
    }
    return r;
}

// Kuhn's augmenting path from sweep s over the loads.
bool augment(int s, const std::vector<std::vector<int>>& loadsOf, std::vector<int>& sweepOfLoad,
             std::vector<char>& visited)
{
    for (int l : loadsOf[static_cast<std::size_t>(s)]) {
        if (visited[static_cast<std::size_t>(l)])
            continue;
        visited[static_cast<std::size_t>(l)] = 1;
        int& owner = sweepOfLoad[static_cast<std::size_t>(l)];
        if (owner < 0 || augment(owner, loadsOf, sweepOfLoad, visited)) {
            owner = s;
            return true;
        }
    }
    return false;
}

// The paired per-profile loss differences of a more complex form's residuals r against the
// simpler form's, on the profiles both validate: significant when their mean +
// t_{n-1}(level) standard errors is below 0 and the gain exceeds one standard error of the
// complex form's own mean loss (the one-standard-error rule: a loss estimated on a few
// profiles is noisy, and a gain within its noise keeps the simpler form).
struct Gain {
    int profiles = 0;
    double mean = 0, se = 0, needed = 0; // needed: t_{n-1}(level)
    double lossSe = 0;                   // standard error of the complex form's mean loss
    bool significant() const
    {
        return profiles >= 2 && mean + needed * se < -1e-12 && -mean > lossSe;
    }
};

double meanOf(const std::vector<double>& v)
{
    double m = 0;
    for (double x : v)
        m += x / static_cast<double>(v.size());
    return m;
}

// Standard error of the mean of v (at least 2 values).
double standardError(const std::vector<double>& v, double mean)
{
    double ss = 0;
    for (double x : v)
        ss += (x - mean) * (x - mean);
    const auto n = static_cast<double>(v.size());
    return std::sqrt(ss / (n - 1) / n);
}

Gain gainOf(const std::vector<double>& r, const std::vector<double>& simpler, double tau,
            double level)
{
    std::vector<double> d, loss;
    for (std::size_t i = 0; i < r.size(); ++i)
        if (!std::isnan(r[i]) && !std::isnan(simpler[i])) {
            loss.push_back(pinball(r[i], tau));
            d.push_back(loss.back() - pinball(simpler[i], tau));
        }
    Gain g;
    g.profiles = static_cast<int>(d.size());
    if (g.profiles < 2)
        return g;
    g.mean = meanOf(d);
    g.se = standardError(d, g.mean);
    g.lossSe = standardError(loss, meanOf(loss));
    g.needed = studentTQuantile(level, g.profiles - 1);
    return g;
}

std::string fmt(double v)
{
    std::ostringstream s;
    s.imbue(std::locale::classic());
    s << std::setprecision(3) << v;
    return s.str();
}

// "offset 0.133 < identity 0.323: a gain of 2.9 standard errors (2.78 needed)"
std::string compared(FmcForm form, FmcForm simpler, const std::array<double, 3>& loss,
                     const Gain& g)
{
    const double a = loss[static_cast<std::size_t>(form)];
    const double b = loss[static_cast<std::size_t>(simpler)];
    std::string out = std::string(toString(form)) + " " + fmt(a) + (a < b ? " < " : " >= ") +
                      std::string(toString(simpler)) + " " + fmt(b);
    if (a >= b)
        return out;
    const std::string sigmas = g.se > 0 ? fmt(-g.mean / g.se) : "unbounded";
    return out + ": a gain of " + sigmas + " standard errors (" + fmt(g.needed) + " needed), " +
           fmt(-g.mean) + (-g.mean > g.lossSe ? " > " : " <= ") + "one standard error " +
           fmt(g.lossSe) + " of its loss";
}

} // namespace

std::string_view toString(FmcForm f)
{
    switch (f) {
    case FmcForm::Identity:
        return "identity";
    case FmcForm::Offset:
        return "offset";
    case FmcForm::Line:
        break;
    }
    return "line";
}

std::optional<FmcForm> parseFmcForm(std::string_view s)
{
    for (FmcForm f : {FmcForm::Identity, FmcForm::Offset, FmcForm::Line})
        if (s == toString(f))
            return f;
    return std::nullopt;
}

std::string toString(FmcValidation v)
{
    switch (v) {
    case FmcValidation::LeaveOneOut:
        return "leave-one-out";
    case FmcValidation::Folds:
        return std::to_string(kFmcCrossValidationFolds) + "-fold";
    case FmcValidation::LeaveOneSweepOut:
        break;
    }
    return "leave-one-sweep-out";
}

std::optional<FmcValidation> parseFmcValidation(std::string_view s)
{
    for (FmcValidation v :
         {FmcValidation::LeaveOneOut, FmcValidation::Folds, FmcValidation::LeaveOneSweepOut})
        if (s == toString(v))
            return v;
    return std::nullopt;
}

double FmcSpread::quantileOffset(double p) const
{
    if (!known())
        throw std::invalid_argument("no predictive spread: too few profiles");
    return studentTQuantile(p, dof) * scale * std::sqrt(1.0 + 1.0 / profiles);
}

int independentProfiles(std::span<const FmcProfileKey> keys, std::size_t profiles)
{
    if (keys.empty())
        return static_cast<int>(profiles);
    const std::vector<int> sweep = ids(keys, &FmcProfileKey::sweep);
    const std::vector<int> load = ids(keys, &FmcProfileKey::load);
    const int sweeps = *std::max_element(sweep.begin(), sweep.end()) + 1;
    const int loads = *std::max_element(load.begin(), load.end()) + 1;
    std::vector<std::vector<int>> loadsOf(static_cast<std::size_t>(sweeps));
    for (std::size_t i = 0; i < keys.size(); ++i)
        loadsOf[static_cast<std::size_t>(sweep[i])].push_back(load[i]);
    std::vector<int> sweepOfLoad(static_cast<std::size_t>(loads), -1);
    int matched = 0;
    for (int s = 0; s < sweeps; ++s) {
        std::vector<char> visited(static_cast<std::size_t>(loads), 0);
        matched += augment(s, loadsOf, sweepOfLoad, visited) ? 1 : 0;
    }
    return matched;
}

std::vector<int> selectIndependent(std::span<const double> estimateMs,
                                   std::span<const FmcProfileKey> keys, int k, std::uint64_t seed)
{
    if (keys.size() != estimateMs.size())
        throw std::invalid_argument("profile selection needs one sweep and load key per candidate");
    const auto n = static_cast<int>(estimateMs.size());
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    if (k >= n)
        return order;
    if (k < 1)
        return {};
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return estimateMs[static_cast<std::size_t>(a)] < estimateMs[static_cast<std::size_t>(b)];
    });
    const std::vector<int> sweep = ids(keys, &FmcProfileKey::sweep);
    const std::vector<int> load = ids(keys, &FmcProfileKey::load);
    std::vector<char> sweepUsed(static_cast<std::size_t>(n), 0), loadUsed(sweepUsed);
    std::mt19937_64 rng(seed);
    std::vector<int> picked, fresh;
    for (int s = 0; s < k; ++s) {
        const int lo = s * n / k, hi = (s + 1) * n / k; // stratum [lo, hi), never empty
        fresh.clear();
        for (int i = lo; i < hi; ++i) {
            const auto c = static_cast<std::size_t>(order[static_cast<std::size_t>(i)]);
            if (!sweepUsed[static_cast<std::size_t>(sweep[c])] &&
                !loadUsed[static_cast<std::size_t>(load[c])])
                fresh.push_back(order[static_cast<std::size_t>(i)]);
        }
        if (fresh.empty())
            for (int i = lo; i < hi; ++i)
                fresh.push_back(order[static_cast<std::size_t>(i)]);
        const int p = fresh[static_cast<std::size_t>(rng() % fresh.size())];
        sweepUsed[static_cast<std::size_t>(sweep[static_cast<std::size_t>(p)])] = 1;
        loadUsed[static_cast<std::size_t>(load[static_cast<std::size_t>(p)])] = 1;
        picked.push_back(p);
    }
    std::sort(picked.begin(), picked.end());
    return picked;
}

FmcChoice chooseFmc(std::span<const double> estimateMs, std::span<const double> measuredMs,
                    double tau, std::span<const FmcProfileKey> keys, const FmcRule& rule)
{
    fitFmc(estimateMs, measuredMs, tau); // input checks
    if (!keys.empty() && keys.size() != estimateMs.size())
        throw std::invalid_argument("FMC needs one sweep and load key per profile");
    const auto n = static_cast<int>(estimateMs.size());
    const Folds folds = foldsFor(estimateMs.size(), keys);
    FmcChoice c;
    c.validation = folds.validation;
    c.independent = independentProfiles(keys, estimateMs.size());
    std::vector<char> scored(estimateMs.size(), 0); // predicted from at least one profile
    for (const Fold& f : folds.folds)
        for (int i : f.held)
            scored[static_cast<std::size_t>(i)] = f.train.empty() ? 0 : 1;
    c.validated = static_cast<int>(std::count(scored.begin(), scored.end(), 1));
    std::array<std::vector<double>, 3> residuals;
    residuals[0] = outOfFoldResiduals(FmcForm::Identity, estimateMs, measuredMs, folds, tau, rule);
    c.cvLoss.fill(kInf);
    for (FmcForm form : {FmcForm::Identity, FmcForm::Offset, FmcForm::Line}) {
        const auto k = static_cast<std::size_t>(form);
        const bool candidate = form == FmcForm::Identity ||
                               (form == FmcForm::Offset && c.independent >= 2) ||
                               (form == FmcForm::Line && n >= 3 &&
                                c.independent >= std::max(2, rule.lineMinIndependent));
        if (!candidate || (form != FmcForm::Identity &&
                           !admissible(fitForm(form, estimateMs, measuredMs, tau, rule))))
            continue;
        if (form != FmcForm::Identity)
            residuals[k] = outOfFoldResiduals(form, estimateMs, measuredMs, folds, tau, rule);
        // Identity on every profile when none can be validated, else all forms on the same ones.
        double sum = 0;
        int count = 0;
        for (std::size_t i = 0; i < residuals[k].size(); ++i)
            if (scored[i] || c.validated == 0) {
                sum += pinball(residuals[k][i], tau);
                ++count;
            }
        if (count > 0)
            c.cvLoss[k] = sum / count;
    }
    std::string why;
    if (c.independent < 2)
        why = "no two of the " + std::to_string(n) +
              " profiles are independent (every pair shares a concurrency sweep or a "
              "concurrency), so no form can be validated";
    for (FmcForm form : {FmcForm::Offset, FmcForm::Line}) {
        const auto k = static_cast<std::size_t>(form);
        if (!std::isfinite(c.cvLoss[k])) {
            if (form == FmcForm::Line && c.independent >= 2 &&
                c.independent < rule.lineMinIndependent)
                why += "; no line from " + std::to_string(c.independent) +
                       " independent profiles (it needs " +
                       std::to_string(rule.lineMinIndependent) + ")";
            continue;
        }
        const Gain g =
            gainOf(residuals[k], residuals[static_cast<std::size_t>(c.form)], tau, rule.level);
        why += (why.empty() ? "" : "; ") + compared(form, c.form, c.cvLoss, g);
        if (g.significant())
            c.form = form;
    }
    c.line = fitForm(c.form, estimateMs, measuredMs, tau, rule);
    const std::vector<double>& r = residuals[static_cast<std::size_t>(c.form)];
    double ss = 0;
    int count = 0;
    for (double v : r)
        if (!std::isnan(v)) {
            ss += v * v;
            ++count;
        }
    c.spread = {count, count - (c.form == FmcForm::Line ? 2 : 1),
                count > 0 ? std::sqrt(ss / count) : 0.0};
    if (!keys.empty())
        c.loads = loadSpreads(r, keys);
    c.why = std::string(toString(c.form)) + " kept (leave-out loss on " +
            std::to_string(c.validated) + " of " + std::to_string(n) + " profiles, " +
            std::to_string(c.independent) + " independent): " + why;
    return c;
}

FmcLine confidenceLine(const FmcLine& line, const FmcSpread& spread, double p)
{
    if (!(p > 0 && p < 1))
        throw std::invalid_argument("a confidence needs p in (0, 1)");
    if (p == 0.5)
        return line;
    return {line.gamma, line.delta + spread.quantileOffset(p)};
}

FmcLine confidenceLine(const FmcLine& line, const FmcRowSpread& row, double p)
{
    const FmcLine l = confidenceLine(line, row.spread, p);
    return {l.gamma, l.delta + row.centre};
}

LatencyInterval predictiveInterval(const FmcLine& line, const FmcRowSpread& row, double estimateMs,
                                   double level)
{
    return predictiveInterval({line.gamma, line.delta + row.centre}, row.spread, estimateMs, level);
}

std::vector<FmcLoadSpread> loadSpreads(std::span<const double> residuals,
                                       std::span<const FmcProfileKey> keys)
{
    if (keys.empty())
        return {};
    if (keys.size() != residuals.size())
        throw std::invalid_argument("load spreads need one load key per residual");
    std::map<std::string, std::vector<double>> byLoad;
    int validated = 0;
    for (std::size_t i = 0; i < keys.size(); ++i)
        if (!std::isnan(residuals[i])) {
            ++validated;
            if (!keys[i].load.empty())
                byLoad[keys[i].load].push_back(residuals[i]);
        }
    // Per load of 2+ residuals: the median centre and the variance around it (n - 1 degrees of
    // freedom); the loads with a variance estimate the prior (fmcprior.h).
    struct Load {
        std::string key;
        int n = 0;
        double centre = 0, variance = 0;
    };
    std::vector<Load> all;
    std::vector<double> variances;
    std::vector<int> dofs;
    for (auto& [load, r] : byLoad) {
        const auto n = static_cast<int>(r.size());
        if (n < 2)
            continue;
        std::sort(r.begin(), r.end());
        const std::size_t m = r.size() / 2;
        const double centre = r.size() % 2 == 1 ? r[m] : 0.5 * (r[m - 1] + r[m]);
        double ss = 0;
        for (double v : r)
            ss += (v - centre) * (v - centre);
        all.push_back({load, n, centre, ss / (n - 1)});
        if (all.back().variance > 0) {
            variances.push_back(all.back().variance);
            dofs.push_back(n - 1);
        }
    }
    // Too few concurrencies to tell, or concurrencies that agree within sampling noise both in
    // spread (d0 infinite) and in centre (their mean square centre no more than the mean
    // sampling variance of a median of n, pi/2 s0^2 / n): nothing says the error depends on the
    // concurrency, and the stack keeps one interval.
    const std::optional<VariancePrior> prior = estimateVariancePrior(variances, dofs);
    if (!prior)
        return {};
    if (std::isinf(prior->dof)) {
        double centres = 0, sampling = 0;
        for (const Load& l : all) {
            centres += l.centre * l.centre;
            sampling += std::numbers::pi / 2 * prior->variance / l.n;
        }
        if (!(centres > sampling))
            return {};
    }
    std::vector<FmcLoadSpread> out;
    for (const Load& l : all) {
        if (l.n < kFmcLoadMinProfiles)
            continue;
        // Degrees of freedom d0 + d, never more than the stack's residuals support.
        const double dof = std::min(prior->dof + (l.n - 1), static_cast<double>(validated - 1));
        out.push_back({l.key,
                       l.centre,
                       {l.n, static_cast<int>(std::floor(dof + 1e-9)), // d0 = 2 may be 1.999..
                        std::sqrt(moderatedVariance(*prior, l.variance, l.n - 1))}});
    }
    return out;
}

FmcRowSpread rowSpread(const std::vector<FmcLoadSpread>& loads, const FmcSpread& stack,
                       std::string_view load)
{
    for (const FmcLoadSpread& l : loads)
        if (l.load == load)
            return {l.centre, l.spread};
    return {0.0, stack};
}

LatencyInterval predictiveInterval(const FmcLine& line, const FmcSpread& spread, double estimateMs,
                                   double level)
{
    if (!(level > 0 && level < 1))
        throw std::invalid_argument("an interval level must be in (0, 1)");
    const double half = spread.quantileOffset(0.5 + level / 2.0);
    const double centre = line.apply(estimateMs);
    return {centre * std::exp(-half), centre * std::exp(half)};
}

} // namespace acsel
