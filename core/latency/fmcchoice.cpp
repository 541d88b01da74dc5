#include "core/latency/fmcchoice.h"

#include "core/latency/studentt.h"

#include <cmath>
#include <limits>
#include <map>
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

FmcLine fitForm(FmcForm form, std::span<const double> x, std::span<const double> y, double tau)
{
    switch (form) {
    case FmcForm::Identity:
        return {};
    case FmcForm::Offset:
        return fitFmcOffset(x, y, tau);
    case FmcForm::Line:
        break;
    }
    return fitFmc(x, y, tau);
}

// The fold of each profile: its sweep, or itself, or with more than kFmcLeaveOneOutMax of those
// units the unit index modulo kFmcCrossValidationFolds.
struct Folds {
    FmcValidation validation = FmcValidation::LeaveOneOut;
    std::vector<int> foldOf;
    int folds = 0;
};

Folds foldsFor(std::size_t n, std::span<const std::string> sweepOf)
{
    std::map<std::string_view, int> ids;
    for (const std::string& key : sweepOf)
        ids.emplace(key, static_cast<int>(ids.size()));
    const bool bySweep = ids.size() >= 2;
    Folds f;
    f.validation = bySweep ? FmcValidation::LeaveOneSweepOut : FmcValidation::LeaveOneOut;
    f.folds = bySweep ? static_cast<int>(ids.size()) : static_cast<int>(n);
    f.foldOf.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        f.foldOf[i] = bySweep ? ids.at(sweepOf[i]) : static_cast<int>(i);
    if (f.folds > kFmcLeaveOneOutMax) {
        f.validation = FmcValidation::Folds;
        f.folds = kFmcCrossValidationFolds;
        for (int& k : f.foldOf)
            k %= kFmcCrossValidationFolds;
    }
    return f;
}

// Out-of-fold log residuals of one form: each profile predicted by the form fitted on the
// profiles of the other folds (identity fits nothing: its residuals are the raw ones).
std::vector<double> outOfFoldResiduals(FmcForm form, std::span<const double> x,
                                       std::span<const double> y, const Folds& folds, double tau)
{
    const std::size_t n = x.size();
    std::vector<double> r(n);
    if (form == FmcForm::Identity) {
        for (std::size_t i = 0; i < n; ++i)
            r[i] = std::log(y[i]) - std::log(x[i]);
        return r;
    }
    std::vector<double> tx, ty;
    for (int f = 0; f < folds.folds; ++f) {
        tx.clear();
        ty.clear();
        for (std::size_t i = 0; i < n; ++i)
            if (folds.foldOf[i] != f) {
                tx.push_back(x[i]);
                ty.push_back(y[i]);
            }
        const FmcLine l = fitForm(form, tx, ty, tau);
        for (std::size_t i = 0; i < n; ++i)
            if (folds.foldOf[i] == f)
                r[i] = std::log(y[i]) - std::log(l.apply(x[i]));
    }
    return r;
}

// Whether the residuals r of a more complex form beat those of the simpler form by more than
// t_{n-1}(kFmcSignificanceLevel) standard errors of the paired per-profile loss differences.
bool significantGain(const std::vector<double>& r, const std::vector<double>& simpler, double tau)
{
    if (r.size() < 2)
        return false;
    const auto n = static_cast<double>(r.size());
    std::vector<double> d(r.size());
    double mean = 0;
    for (std::size_t i = 0; i < r.size(); ++i) {
        d[i] = pinball(r[i], tau) - pinball(simpler[i], tau);
        mean += d[i] / n;
    }
    double ss = 0;
    for (double v : d)
        ss += (v - mean) * (v - mean);
    const double se = std::sqrt(ss / (n - 1) / n);
    const double t = studentTQuantile(kFmcSignificanceLevel, static_cast<int>(r.size()) - 1);
    return mean + t * se < -1e-12; // rounding is no gain
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

FmcChoice chooseFmc(std::span<const double> estimateMs, std::span<const double> measuredMs,
                    double tau, std::span<const std::string> sweepOf)
{
    fitFmc(estimateMs, measuredMs, tau); // input checks
    if (!sweepOf.empty() && sweepOf.size() != estimateMs.size())
        throw std::invalid_argument("FMC needs one sweep key per profile");
    const auto n = static_cast<int>(estimateMs.size());
    const Folds folds = foldsFor(estimateMs.size(), sweepOf);
    FmcChoice c;
    c.validation = folds.validation;
    std::array<std::vector<double>, 3> residuals;
    for (FmcForm form : {FmcForm::Identity, FmcForm::Offset, FmcForm::Line}) {
        const auto k = static_cast<std::size_t>(form);
        c.cvLoss[k] = kInf;
        const int needs = form == FmcForm::Identity ? 1 : form == FmcForm::Offset ? 2 : 3;
        if (n < needs || !admissible(fitForm(form, estimateMs, measuredMs, tau)))
            continue;
        residuals[k] = outOfFoldResiduals(form, estimateMs, measuredMs, folds, tau);
        double sum = 0;
        for (double r : residuals[k])
            sum += pinball(r, tau);
        c.cvLoss[k] = sum / n;
    }
    for (FmcForm form : {FmcForm::Offset, FmcForm::Line})
        if (std::isfinite(c.cvLoss[static_cast<std::size_t>(form)]) &&
            significantGain(residuals[static_cast<std::size_t>(form)],
                            residuals[static_cast<std::size_t>(c.form)], tau))
            c.form = form;
    c.line = fitForm(c.form, estimateMs, measuredMs, tau);
    const std::vector<double>& r = residuals[static_cast<std::size_t>(c.form)];
    double ss = 0;
    for (double v : r)
        ss += v * v;
    c.spread = {n, n - (c.form == FmcForm::Line ? 2 : 1), std::sqrt(ss / n)};
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
