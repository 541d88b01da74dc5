// Ridge regression  min ||X w + b - y||^2 + lambda ||(w, b)||^2  with optional w_j >= 0 on
// chosen columns (docs/METHOD.md 2), solved exactly as a bounded least-squares problem on the
// augmented system [Z 1; sqrt(lambda) I] (Lawson-Hanson), and lambda chosen by k-fold CV.
//
// Columns are standardised (z-scores from the rows being fitted) and y centred before the solve,
// so that one lambda means the same for every feature; the penalty then acts on the
// standardised (w, b) as the method writes it. Scaling by a positive factor keeps every sign, so
// w_j >= 0 in standardised units is w_j >= 0 on the raw features. Coefficients are returned on
// the raw scale.
#pragma once

#include "core/quality/ridgecv.h"

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace acsel
{

struct RidgeFit {
    Eigen::VectorXd w; // raw-feature weights
    double b = 0.0;    // raw intercept
    double lambda = 0.0;
    double predict(const Eigen::Ref<const Eigen::RowVectorXd>& x) const { return x.dot(w) + b; }
};

RidgeFit fitRidge(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double lambda,
                  const std::vector<bool>& nonNegative);

// k-fold CV over the rows (folds from a seeded shuffle); the lambda with the lowest
// out-of-fold mean squared error, the smaller lambda on a tie.
LambdaChoice chooseLambda(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                          const std::vector<bool>& nonNegative, const std::vector<double>& grid,
                          int folds, std::uint64_t seed);

} // namespace acsel
