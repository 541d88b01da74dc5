// Student's t distribution: the small-sample factor of FMC's predictive intervals
// (fmcchoice.h). Plain numerics (regularized incomplete beta by Lentz's continued fraction),
// no dependency.
#pragma once

namespace acsel
{

// P(T <= t) for T ~ t with dof degrees of freedom (dof >= 1). Accurate to ~1e-12.
double studentTCdf(double t, int dof);

// The p-quantile (0 < p < 1) of t with dof degrees of freedom: the t with studentTCdf(t) = p,
// by bisection to machine precision. Throws std::invalid_argument on p outside (0, 1) or
// dof < 1.
double studentTQuantile(double p, int dof);

} // namespace acsel
