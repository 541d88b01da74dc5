// Least squares with sign constraints on some coefficients, solved exactly by the Lawson-Hanson
// active-set method: min ||A x - b||^2 subject to x_j >= 0 for every j with nonNegative[j];
// the other coefficients are free (they stay in the passive set throughout).
#pragma once

#include <Eigen/Dense>
#include <vector>

namespace acsel
{

struct BoundedLsResult {
    Eigen::VectorXd x;
    int iterations = 0; // outer iterations (variables freed from the bound)
    bool converged = false;
};

// A must have full column rank on every passive set (true for a ridge-augmented system).
// nonNegative.size() must equal A.cols().
BoundedLsResult solveNonNegativeLs(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                   const std::vector<bool>& nonNegative);

// Unconstrained least squares on a subset of columns (the others fixed at zero); the building
// block of the active-set method, exposed for the brute-force check in the tests.
Eigen::VectorXd leastSquaresOnColumns(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                      const std::vector<bool>& use);

} // namespace acsel
