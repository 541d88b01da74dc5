// Floating-point comparisons of the core tests.
#pragma once

#include <algorithm>
#include <cmath>

// |a - b| within rel of |b|.
inline bool nearRelative(double a, double b, double rel = 1e-12)
{
    return std::abs(a - b) <= rel * std::abs(b);
}

// |a - b| within tol of max(1, |b|): relative for large values, absolute near zero.
inline bool nearScaled(double a, double b, double tol)
{
    return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}
