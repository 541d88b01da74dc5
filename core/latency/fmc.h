// Few-shot Median Calibration (docs/METHOD.md 3): per stack and metric,
//   log T_measured = gamma log T_estimate + delta,
// with (gamma, delta) minimising the pinball loss at quantile tau (tau = 0.5: median
// regression, least absolute deviations). Solved exactly: some optimal line passes through
// two data points with distinct estimates. Up to kFmcPairwiseMax points every such line is
// evaluated (O(n^3)); among equally good lines the one with gamma closest to 1 wins (least
// change from the raw estimate), then the first found. Above it a vertex descent finds an
// optimal line in O(n log n) per step (fmc.cpp). tau > 0.5 puts the line above more points:
// a conservative gate. Which form to use on a stack (identity, offset only, the full line) is
// fmcchoice.h's.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace acsel
{

enum class LatencyMetric : std::uint8_t { Ttft, Tpot };

struct FmcLine {
    double gamma = 1.0;
    double delta = 0.0;
    // Calibrated latency of a raw estimate (ms in, ms out).
    double apply(double estimateMs) const;
};

// The pinball (check) loss of one residual: rho_tau(u) = u (tau - [u < 0]).
double pinball(double u, double tau);

// Sum over points of rho_tau(log y - gamma log x - delta).
double pinballLoss(const FmcLine& line, std::span<const double> estimateMs,
                   std::span<const double> measuredMs, double tau);

inline constexpr int kFmcPairwiseMax = 48;

// Exact pinball (quantile) regression in log space. With one point, or when every estimate is
// equal, gamma = 1 and delta is the tau-quantile of log(measured / estimate). Throws
// std::invalid_argument on empty or mismatched input, non-positive values, tau outside (0, 1).
FmcLine fitFmc(std::span<const double> estimateMs, std::span<const double> measuredMs,
               double tau = 0.5);

// The offset-only line (gamma = 1): delta is the tau-quantile of log(measured / estimate).
// Same input checks as fitFmc.
FmcLine fitFmcOffset(std::span<const double> estimateMs, std::span<const double> measuredMs,
                     double tau = 0.5);

// The cautious offset (gamma = 1): the shift toward the measurements the profiles support with
// confidence `level`, i.e. the one-sided binomial (sign test) confidence bound of the
// tau-quantile of log(measured / estimate) on the side of 0: the j-th smallest ratio, j the
// largest with P(Binomial(n, tau) >= j) >= level, when it is above 0; the mirror bound when
// it is below 0; else 0 (the raw estimate). It never moves further than the profiles' own
// ratios: with 5 profiles at 0.8 it is the second nearest to 0 of those on one side. Same
// input checks as fitFmc, and level in (0, 1).
FmcLine fitFmcCautiousOffset(std::span<const double> estimateMs, std::span<const double> measuredMs,
                             double tau, double level);

// FMC-MSE baseline: the same line by least squares in log space (same degenerate cases, with
// the mean instead of the quantile).
FmcLine fitFmcMse(std::span<const double> estimateMs, std::span<const double> measuredMs);

// Profile selection spread over the range of log T_estimate: the points sorted by estimate
// are cut into k strata of (nearly) equal count and one point is drawn in each with a seeded
// generator. Returns k indices in increasing order (all indices when k >= n).
std::vector<int> selectStratified(std::span<const double> estimateMs, int k, std::uint64_t seed);

// Median absolute percentage error, in percent, of predictions against measurements.
double mdape(std::span<const double> predicted, std::span<const double> measured);

} // namespace acsel
