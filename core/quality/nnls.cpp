#include "core/quality/nnls.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace acsel
{

Eigen::VectorXd leastSquaresOnColumns(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                      const std::vector<bool>& use)
{
    const auto n = static_cast<Eigen::Index>(use.size());
    std::vector<Eigen::Index> cols;
    for (Eigen::Index j = 0; j < n; ++j)
        if (use[static_cast<std::size_t>(j)])
            cols.push_back(j);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    if (cols.empty())
        return x;
    Eigen::MatrixXd sub(A.rows(), static_cast<Eigen::Index>(cols.size()));
    for (std::size_t k = 0; k < cols.size(); ++k)
        sub.col(static_cast<Eigen::Index>(k)) = A.col(cols[k]);
    const Eigen::VectorXd z = sub.colPivHouseholderQr().solve(b);
    for (std::size_t k = 0; k < cols.size(); ++k)
        x(cols[k]) = z(static_cast<Eigen::Index>(k));
    return x;
}

BoundedLsResult solveNonNegativeLs(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                                   const std::vector<bool>& nonNegative)
{
    const Eigen::Index n = A.cols();
    if (static_cast<Eigen::Index>(nonNegative.size()) != n || b.size() != A.rows())
        throw std::invalid_argument("solveNonNegativeLs: dimensions do not match");
    const auto at = [](const std::vector<bool>& v, Eigen::Index j) {
        return v[static_cast<std::size_t>(j)];
    };
    // Free variables start (and stay) passive; bounded ones start at their bound.
    std::vector<bool> passive(nonNegative.size());
    for (std::size_t j = 0; j < passive.size(); ++j)
        passive[j] = !nonNegative[j];
    BoundedLsResult r;
    r.x = leastSquaresOnColumns(A, b, passive);
    const double tol = 10.0 * std::numeric_limits<double>::epsilon() *
                       A.cwiseAbs().colwise().sum().maxCoeff() *
                       static_cast<double>(std::max(A.rows(), A.cols()));
    const int maxOuter = 3 * static_cast<int>(n) + 10;
    for (r.iterations = 0; r.iterations < maxOuter; ++r.iterations) {
        const Eigen::VectorXd w = A.transpose() * (b - A * r.x);
        Eigen::Index enter = -1;
        for (Eigen::Index j = 0; j < n; ++j)
            if (at(nonNegative, j) && !at(passive, j) && w(j) > tol &&
                (enter < 0 || w(j) > w(enter)))
                enter = j;
        if (enter < 0) {
            r.converged = true;
            return r;
        }
        passive[static_cast<std::size_t>(enter)] = true;
        for (bool first = true;; first = false) {
            const Eigen::VectorXd z = leastSquaresOnColumns(A, b, passive);
            if (first && z(enter) <= 0.0) {
                // Rounding: the gradient said "free it" but the solve disagrees; x is optimal
                // to working precision.
                passive[static_cast<std::size_t>(enter)] = false;
                r.converged = true;
                return r;
            }
            double alpha = 2.0;
            Eigen::Index leave = -1;
            for (Eigen::Index j = 0; j < n; ++j)
                if (at(nonNegative, j) && at(passive, j) && z(j) <= 0.0) {
                    const double a = r.x(j) / (r.x(j) - z(j));
                    if (a < alpha) {
                        alpha = a;
                        leave = j;
                    }
                }
            if (leave < 0) {
                r.x = z;
                break;
            }
            r.x += alpha * (z - r.x);
            passive[static_cast<std::size_t>(leave)] = false;
            r.x(leave) = 0.0;
            for (Eigen::Index j = 0; j < n; ++j)
                if (at(nonNegative, j) && at(passive, j) && r.x(j) <= tol) {
                    passive[static_cast<std::size_t>(j)] = false;
                    r.x(j) = 0.0;
                }
        }
    }
    return r;
}

} // namespace acsel
