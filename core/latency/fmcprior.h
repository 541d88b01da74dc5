// The prior of a stack's per-concurrency variances (fmcchoice.h, loadSpreads): the residual
// variance at one concurrency, estimated from its 5-8 profiles, is too noisy to set an interval
// by itself (a 90 % interval on such a variance covered 82 % of a stack's held-out TTFT rows),
// and one variance for the whole stack ignores that the error's spread differs by concurrency.
// Empirical Bayes (Smyth 2004, "Linear models and empirical Bayes methods for assessing
// differential expression in microarray experiments", Stat. Appl. Genet. Mol. Biol. 3(1), the
// moderated variance of limma): each concurrency's true variance is a draw from a scaled
// inverse chi-square prior (d0 degrees of freedom, scale s0^2) whose two parameters are
// estimated from the sample variances of all the stack's concurrencies, by their log's mean
// and variance net of the sampling variance chi-square alone would give. A concurrency's
// variance is then its posterior (d0 s0^2 + d s^2) / (d0 + d) with d0 + d degrees of freedom:
// near the stack's prior where the concurrencies agree (d0 large), near its own where they
// differ beyond sampling noise (d0 small). Nothing is tuned: d0 and s0^2 come from the
// profiles themselves.
#pragma once

#include <optional>
#include <span>

namespace acsel
{

// digamma psi(x) and trigamma psi'(x) for x > 0 (recurrence to x >= 6, then the asymptotic
// series; ~1e-12), and the x with trigamma(x) = y for y > 0 (bisection on the decreasing
// trigamma). Throw std::invalid_argument outside the domain.
double digamma(double x);
double trigamma(double x);
double trigammaInverse(double y);

struct VariancePrior {
    double dof = 0;      // d0; infinity: every concurrency has the prior's variance
    double variance = 0; // s0^2
};

// From sample variances s_g^2 > 0 with d_g >= 1 degrees of freedom each (one per concurrency):
// e_g = log s_g^2 - digamma(d_g / 2) + log(d_g / 2); trigamma(d0 / 2) = the sample variance of
// the e_g minus the mean trigamma(d_g / 2) (d0 infinite when that is not positive), s0^2 =
// exp(mean e_g + digamma(d0 / 2) - log(d0 / 2)). nullopt with fewer than kMinVariancePriorGroups
// variances: the spread of a few variances says nothing about the prior. Throws
// std::invalid_argument when the spans differ in size or a value is out of its domain.
inline constexpr int kMinVariancePriorGroups = 3;
std::optional<VariancePrior> estimateVariancePrior(std::span<const double> variances,
                                                   std::span<const int> dofs);

// The posterior variance (d0 s0^2 + d s^2) / (d0 + d) (s0^2 when d0 is infinite).
double moderatedVariance(const VariancePrior& prior, double variance, int dof);

} // namespace acsel
