// FMC that never hurts (issue 18): per stack and metric, the form of the calibration is chosen
// among identity (the raw estimate), offset only (gamma = 1) and the full line by
// cross-validated pinball loss on the profiles themselves, so that with few or noisy profiles
// the calibration falls back toward the raw estimate instead of overcorrecting: a more complex
// form replaces a simpler one only when its held-out loss is lower by more than
// t_{n-1}(kFmcSignificanceLevel) standard errors of the paired per-profile loss differences. The
// held-out residuals of the chosen form give a small-sample predictive interval (Student t in
// log space) and the confidence-shifted line the gate uses for "latency <= limit with
// probability >= p".
//
// Profiles of one concurrency sweep (same model, format, isl and osl) share most of their
// error: leaving one of them out still leaves its neighbours in, so plain leave-one-out judges
// a line on rows it has nearly seen and accepts a line that only bridges two sweeps. Given the
// sweep of each profile, the forms are judged by leaving one sweep out: the calibration is then
// judged as it is used, on a workload whose sweep none of the profiles measured. The test stays
// per profile: on a stack of 3 sweeps (h200_sxm/trtllm) a per-sweep test needs 4.30 standard
// errors and let no TPOT gain through (docs/LATENCY.md, "FMC and the baselines").
#pragma once

#include "core/latency/fmc.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace acsel
{

enum class FmcForm : std::uint8_t { Identity, Offset, Line };
std::string_view toString(FmcForm f);
std::optional<FmcForm> parseFmcForm(std::string_view s);

// How the forms were cross-validated: leaving one profile out, in kFmcCrossValidationFolds
// folds (more than kFmcLeaveOneOutMax units), or leaving one concurrency sweep out.
enum class FmcValidation : std::uint8_t { LeaveOneOut, Folds, LeaveOneSweepOut };
std::string toString(FmcValidation v); // "leave-one-out", "10-fold", "leave-one-sweep-out"
std::optional<FmcValidation> parseFmcValidation(std::string_view s);

// The largest |delta| an FMC file may carry: a factor e^10 (~22,000) at 1 ms. The full-line
// fits with gamma > 0 on every stack of dense_tp1 reach |delta| 6.05 (h200_sxm/trtllm TPOT on
// the static model, gamma 2.82) and 3.2 on the continuous one (docs/LATENCY.md); beyond 10 a
// line no longer calibrates a latency model but replaces it.
inline constexpr double kFmcMaxAbsDelta = 10.0;

// Up to this many units (profiles, or sweeps when given) the forms are compared by leaving one
// unit out; above it by kFmcCrossValidationFolds-fold cross-validation (folds by unit index
// modulo the fold count), so the choice stays O(n log n).
inline constexpr int kFmcLeaveOneOutMax = 64;
// One-sided level of that test: the threshold is t_{n-1}(0.975) standard errors (2.57 for 6
// profiles, 12.7 for 2), so few profiles need a large, consistent gain.
inline constexpr double kFmcSignificanceLevel = 0.975;
inline constexpr int kFmcCrossValidationFolds = 10;

// The least a stack's calibration is fitted on (acsel calibrate refuses less unless told
// --allow-few): 3 profiles from 2 concurrency sweeps. Below 3 profiles no form beyond the
// identity can be validated and there is no interval (no degree of freedom left after the
// offset); with a single sweep, leaving a sweep out is impossible and leaving a profile out
// judges each form on the sweep mates that share its error (docs/LATENCY.md, "The form").
inline constexpr int kFmcMinProfiles = 3;
inline constexpr int kFmcMinSweeps = 2;

// Predictive spread in log space: the out-of-fold residuals r_i = log meas_i - log pred_i(-i)
// of the chosen form, scale = sqrt(mean r_i^2) (around 0, so a bias widens the interval
// instead of moving its centre, and p = 0.5 stays the median line). The p-quantile of a new
// row is the line + t_dof(p) x scale x sqrt(1 + 1 / profiles): the textbook small-sample
// prediction interval, dof = profiles - fitted parameters (1 for identity and offset, whose
// scale is estimated, 2 for the line). Known from dof 2 (4 profiles for a line) on.
struct FmcSpread {
    int profiles = 0;
    int dof = 0;
    double scale = 0;
    bool known() const { return dof >= 2 && profiles >= 3; }
    // log-space offset of the p-quantile (0 at p = 0.5). Throws std::invalid_argument when
    // not known() or p is outside (0, 1).
    double quantileOffset(double p) const;
};

struct FmcChoice {
    FmcForm form = FmcForm::Identity;
    FmcLine line;
    // Mean out-of-fold pinball loss per form (index = FmcForm); infinity when the form cannot
    // be validated on this many profiles (offset needs 2, the line 3) or its full fit is
    // refused (gamma <= 0 or |delta| > kFmcMaxAbsDelta).
    std::array<double, 3> cvLoss{};
    FmcValidation validation = FmcValidation::LeaveOneOut;
    FmcSpread spread;
};

// Starting from identity, offset then the line replace the current form when their gain is
// significant (above). sweepOf: one key per profile, equal for profiles of one concurrency
// sweep (sweepKey, silicon.h); empty, or a single sweep, validates profile by profile. Same
// input checks as fitFmc; throws std::invalid_argument when sweepOf has another size.
FmcChoice chooseFmc(std::span<const double> estimateMs, std::span<const double> measuredMs,
                    double tau = 0.5, std::span<const std::string> sweepOf = {});

// The line whose calibrated value is the p-quantile of the predictive distribution: delta +
// spread.quantileOffset(p). p = 0.5 returns the line itself. Throws std::invalid_argument when
// p is outside (0, 1) or the spread is not known.
FmcLine confidenceLine(const FmcLine& line, const FmcSpread& spread, double p);

// The central interval holding probability `level` (e.g. 0.9) of a calibrated estimate.
struct LatencyInterval {
    double lowMs = 0, highMs = 0;
};
LatencyInterval predictiveInterval(const FmcLine& line, const FmcSpread& spread, double estimateMs,
                                   double level);

} // namespace acsel
