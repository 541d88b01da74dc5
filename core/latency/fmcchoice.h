// FMC that cannot hurt: per stack and metric, the form of the calibration is chosen among
// identity (the raw estimate), a cautious offset (gamma = 1, fitFmcCautiousOffset) and the full
// line by cross-validated pinball loss on the profiles themselves, so that with few, alike or
// noisy profiles the calibration falls back toward the raw estimate instead of overcorrecting:
// a more complex form replaces a simpler one only when its held-out loss is lower by more than
// t_{n-1}(FmcRule::level) standard errors of the paired per-profile loss differences and by
// more than one standard error of its own held-out loss (the one-standard-error rule: with the
// raw estimate already centred, offsets that passed the paired test alone made 9 of 828
// metric-draws of the study > 5 % worse than raw, none with the rule). The
// held-out residuals of the chosen form give a small-sample predictive interval (Student t in
// log space) and the confidence-shifted line the gate uses for "latency <= limit with
// probability >= p".
//
// Profiles share most of their error with the profiles of their concurrency sweep (same model,
// format, isl and osl) and with those run at their concurrency (the serving regime: on
// h100_sxm/trtllm the TTFT ratio measured / estimate is 1.8-10x at concurrency 8 and mostly
// 1.2-1.8x at 64, for every model and length). Leaving one profile out while such a neighbour
// stays in judges a form on rows it has nearly seen: six profiles of one concurrency validated a
// line that took the other concurrencies' TTFT error from 41 to 62 %. So a held-out profile is
// predicted from the profiles that share neither its sweep nor its concurrency, and the
// profiles that have none such cannot be validated at all. The independent profiles (the most
// profiles no two of which share a sweep or a concurrency) say what a stack's profiles can
// support: below 2 nothing is fitted, below FmcRule::lineMinIndependent at most an offset
// (docs/LATENCY.md, "FMC and the baselines").
#pragma once

#include "core/latency/fmc.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace acsel
{

enum class FmcForm : std::uint8_t { Identity, Offset, Line };
std::string_view toString(FmcForm f);
std::optional<FmcForm> parseFmcForm(std::string_view s);

// How the forms were cross-validated: leaving one profile out (no sweeps given), in
// kFmcCrossValidationFolds folds of whole sweeps (more than kFmcLeaveOneOutMax profiles), or
// leaving out each profile with its sweep and its concurrency ("leave-one-sweep-out").
enum class FmcValidation : std::uint8_t { LeaveOneOut, Folds, LeaveOneSweepOut };
std::string toString(FmcValidation v); // "leave-one-out", "10-fold", "leave-one-sweep-out"
std::optional<FmcValidation> parseFmcValidation(std::string_view s);

// The largest |delta| an FMC file may carry: a factor e^10 (~22,000) at 1 ms. The full-line
// fits with gamma > 0 on every stack of dense_tp1 reach |delta| 6.05 (h200_sxm/trtllm TPOT on
// the static model, gamma 2.82) and 3.2 on the continuous one (docs/LATENCY.md); beyond 10 a
// line no longer calibrates a latency model but replaces it.
inline constexpr double kFmcMaxAbsDelta = 10.0;

// Up to this many profiles the forms are compared by leaving one profile out (with its sweep
// and concurrency when given); above it by kFmcCrossValidationFolds-fold cross-validation (folds
// by sweep index modulo the fold count, concurrency not blocked: with that many profiles the
// folds keep every concurrency), so the choice stays O(n log n).
inline constexpr int kFmcLeaveOneOutMax = 64;
inline constexpr int kFmcCrossValidationFolds = 10;

// The least a stack's calibration is fitted on (acsel calibrate refuses less unless told
// --allow-few): 3 profiles, 2 of them independent (neither sharing a sweep nor a concurrency).
// Below 3 profiles there is no interval (no degree of freedom left after the offset); below 2
// independent ones no profile can be predicted from profiles that do not share its error, so
// nothing beyond the identity can be validated.
inline constexpr int kFmcMinProfiles = 3;
inline constexpr int kFmcMinIndependent = 2;

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

// What one profile shares its error with (silicon.h: sweepKey, loadKey); an empty field is
// shared with no other profile.
struct FmcProfileKey {
    std::string sweep; // model, format, isl, osl (and tp): one concurrency sweep
    std::string load;  // the concurrency (and tp)
};

// The most profiles no two of which share a sweep or a load: a maximum matching between the
// sweeps and the loads (each profile an edge). Every profile counts when keys is empty.
int independentProfiles(std::span<const FmcProfileKey> keys, std::size_t profiles);

// Profiles to measure: as selectStratified (fmc.h: the candidates sorted by estimate, cut into
// k strata of nearly equal count, one seeded draw per stratum), each draw among the stratum's
// candidates that share neither a sweep nor a load with an earlier pick when there are any, so
// the k profiles are as independent as the candidates allow. Returns k indices in increasing
// order (all when k >= n); throws std::invalid_argument when keys has another size.
std::vector<int> selectIndependent(std::span<const double> estimateMs,
                                   std::span<const FmcProfileKey> keys, int k, std::uint64_t seed);

// The choice rule's settings, chosen by `acsel plan latency --study` on every stack of
// AIConfigurator's dense_tp1 and agg_tp rows (docs/LATENCY.md, "How many profiles").
struct FmcRule {
    // The line is a candidate from this many independent profiles on: with 4-5 the lines kept
    // made more draws worse than raw than they improved.
    int lineMinIndependent = 6;
    // One-sided level of the significance test (t_{n-1}(level) standard errors).
    double level = 0.975;
    // Confidence of the offset's shift (fitFmcCautiousOffset, fmc.h): with the median of the
    // profiles instead, 3 times as many draws ended worse than raw.
    double offsetConfidence = 0.8;
};

// The interval conditioned on the serving regime: the out-of-fold residuals of a stack's
// profiles run at one concurrency (FmcProfileKey::load) give that load its own centre (their
// median: the error the chosen form leaves at that concurrency) and spread around it. On
// AIConfigurator's rows the concurrency drives the error (docs/LATENCY.md, "Intervals by
// concurrency"), but 5-8 profiles are too few for a variance that holds by itself, so each
// load's variance (around its centre, n - 1 dof) is shrunk toward the prior of all the stack's
// loads (fmcprior.h: the moderated variance, d0 + n - 1 dof, capped at the stack's residuals
// - 1). A stack whose loads agree within sampling noise, in variance (d0 infinite) and in
// centre (mean square centre <= the mean sampling variance pi/2 s0^2 / n of a median of n), or
// with fewer than kMinVariancePriorGroups loads of 2+ residuals to tell, gets no load spreads:
// nothing says its error depends on the concurrency, and its rows keep the stack's interval. Loads
// with fewer than kFmcLoadMinProfiles residuals (whose median centre is too noisy) also use the
// stack's.
inline constexpr int kFmcLoadMinProfiles = 5;
struct FmcLoadSpread {
    std::string load;
    double centre = 0; // log-space shift of the load's predictive distribution
    FmcSpread spread;
};

// Per load with at least kFmcLoadMinProfiles non-NaN residuals, sorted by load, by the rule
// above; none when keys is empty. Throws std::invalid_argument when keys has another size than
// residuals.
std::vector<FmcLoadSpread> loadSpreads(std::span<const double> residuals,
                                       std::span<const FmcProfileKey> keys);

// What a row at `load` is given: its load's centre and spread, else the stack's (centre 0).
struct FmcRowSpread {
    double centre = 0;
    FmcSpread spread;
};
FmcRowSpread rowSpread(const std::vector<FmcLoadSpread>& loads, const FmcSpread& stack,
                       std::string_view load);

struct FmcChoice {
    FmcForm form = FmcForm::Identity;
    FmcLine line;
    // Mean out-of-fold pinball loss per form (index = FmcForm); infinity when the form cannot
    // be validated on this many profiles (offset needs 2, the line 3) or its full fit is
    // refused (gamma <= 0 or |delta| > kFmcMaxAbsDelta).
    std::array<double, 3> cvLoss{};
    FmcValidation validation = FmcValidation::LeaveOneOut;
    FmcSpread spread;
    int independent = 0; // independentProfiles of the profiles
    int validated = 0;   // profiles predicted from others (the losses' n; all n for identity at 0)
    // Why the form was kept, one line: "offset kept (leave-out loss on 5 of 5 profiles, 3
    // independent): offset 0.133 < identity 0.323: a gain of 2.9 standard errors (2.78
    // needed), 0.19 > one standard error 0.05 of its loss; no line from 3 independent
    // profiles (it needs 4)".
    std::string why;
    std::vector<FmcLoadSpread> loads; // loadSpreads of the chosen form's residuals
};

// Starting from identity, offset (from 2 independent profiles) then the line (from
// rule.lineMinIndependent) replace the current form when their gain is significant (above).
// keys: one per profile; empty: every profile independent of the others (left out one by one).
// Same input checks as fitFmc; throws std::invalid_argument when keys has another size.
FmcChoice chooseFmc(std::span<const double> estimateMs, std::span<const double> measuredMs,
                    double tau = 0.5, std::span<const FmcProfileKey> keys = {},
                    const FmcRule& rule = {});

// The line whose calibrated value is the p-quantile of the predictive distribution: delta +
// spread.quantileOffset(p). p = 0.5 returns the line itself. Throws std::invalid_argument when
// p is outside (0, 1) or the spread is not known.
FmcLine confidenceLine(const FmcLine& line, const FmcSpread& spread, double p);
// The same for one row: delta + centre + the row's spread.quantileOffset(p) (at p = 0.5 the
// line shifted by the centre).
FmcLine confidenceLine(const FmcLine& line, const FmcRowSpread& row, double p);

// The central interval holding probability `level` (e.g. 0.9) of a calibrated estimate.
struct LatencyInterval {
    double lowMs = 0, highMs = 0;
};
LatencyInterval predictiveInterval(const FmcLine& line, const FmcSpread& spread, double estimateMs,
                                   double level);
// Around the line shifted by the row's centre, with the row's spread.
LatencyInterval predictiveInterval(const FmcLine& line, const FmcRowSpread& row, double estimateMs,
                                   double level);

} // namespace acsel
