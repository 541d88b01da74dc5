#include "core/quality/ridge.h"

#include "core/quality/nnls.h"
#include "core/quality/rng.h"

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace acsel
{

RidgeFit fitRidge(const Eigen::MatrixXd& X, const Eigen::VectorXd& y, double lambda,
                  const std::vector<bool>& nonNegative)
{
    const Eigen::Index n = X.rows(), p = X.cols();
    if (n < 1 || y.size() != n || static_cast<Eigen::Index>(nonNegative.size()) != p)
        throw std::invalid_argument("fitRidge: dimensions do not match");
    if (!(lambda > 0.0))
        throw std::invalid_argument("fitRidge: lambda must be > 0");
    const Eigen::RowVectorXd mean = X.colwise().mean();
    Eigen::RowVectorXd scale(p);
    for (Eigen::Index j = 0; j < p; ++j) {
        const double sd = std::sqrt((X.col(j).array() - mean(j)).square().mean());
        scale(j) = sd > 1e-12 ? sd : 1.0; // a constant column centres to zero either way
    }
    const double yMean = y.mean();
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n + p + 1, p + 1);
    A.topLeftCorner(n, p) = (X.rowwise() - mean).array().rowwise() / scale.array();
    A.block(0, p, n, 1).setOnes();
    A.bottomRows(p + 1).diagonal().setConstant(std::sqrt(lambda));
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(n + p + 1);
    rhs.head(n) = y.array() - yMean;
    std::vector<bool> bounded(nonNegative);
    bounded.push_back(false); // the intercept is free
    const Eigen::VectorXd v = solveNonNegativeLs(A, rhs, bounded).x;
    RidgeFit fit;
    fit.lambda = lambda;
    fit.w = v.head(p).array() / scale.transpose().array();
    fit.b = yMean + v(p) - mean.dot(fit.w);
    return fit;
}

std::vector<double> defaultLambdaGrid()
{
    std::vector<double> grid;
    for (int i = 0; i <= 24; ++i)
        grid.push_back(std::pow(10.0, -4.0 + 0.25 * i));
    return grid;
}

LambdaChoice chooseLambda(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                          const std::vector<bool>& nonNegative, const std::vector<double>& grid,
                          int folds, std::uint64_t seed)
{
    const auto n = static_cast<int>(X.rows());
    if (folds < 2 || folds > n)
        throw std::invalid_argument("chooseLambda: need 2 <= folds <= rows");
    if (grid.empty())
        throw std::invalid_argument("chooseLambda: empty lambda grid");
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    SplitMix64 rng(seed);
    for (int i = n - 1; i > 0; --i)
        std::swap(order[static_cast<std::size_t>(i)],
                  order[static_cast<std::size_t>(rng.below(i + 1))]);
    std::vector<int> fold(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        fold[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])] = i % folds;

    LambdaChoice choice;
    double best = 0.0;
    for (double lambda : grid) {
        double sse = 0.0;
        for (int k = 0; k < folds; ++k) {
            std::vector<Eigen::Index> train, test;
            for (int i = 0; i < n; ++i)
                (fold[static_cast<std::size_t>(i)] == k ? test : train).push_back(i);
            const RidgeFit fit = fitRidge(X(train, Eigen::all), y(train), lambda, nonNegative);
            for (Eigen::Index i : test) {
                const double r = fit.predict(X.row(i)) - y(i);
                sse += r * r;
            }
        }
        const double mse = sse / n;
        choice.curve.push_back({lambda, mse});
        if (choice.curve.size() == 1 || mse < best) {
            best = mse;
            choice.lambda = lambda;
        }
    }
    return choice;
}

} // namespace acsel
