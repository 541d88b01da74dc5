// The ridge penalty's cross-validation, as the quality surrogate keeps it: the lambdas tried and
// the out-of-fold error of each. Free of Eigen, so that the surrogate's header stays light.
#pragma once

#include <vector>

namespace acsel
{

struct CvPoint {
    double lambda = 0.0;
    double mse = 0.0; // mean squared out-of-fold residual
};

struct LambdaChoice {
    double lambda = 0.0;
    std::vector<CvPoint> curve;
};

// 25 values, log-spaced from 1e-4 to 1e2.
std::vector<double> defaultLambdaGrid();

} // namespace acsel
