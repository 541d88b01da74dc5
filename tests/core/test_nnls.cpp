// The bounded least-squares solver against brute-force active-set enumeration, and the ridge
// fit against the closed form.
#include "core/quality/nnls.h"
#include "core/quality/ridge.h"
#include "core/quality/rng.h"
#include "testmain.h"

#include <cmath>
#include <limits>

using namespace acsel;

namespace
{

Eigen::MatrixXd randomMatrix(SplitMix64& rng, int rows, int cols)
{
    Eigen::MatrixXd A(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            A(i, j) = rng.normal();
    return A;
}

// Every split of the bounded variables into "at zero" and "free": solve the free problem,
// keep it if feasible, return the feasible one with the least residual. The optimum of a convex
// problem with full column rank is one of these.
Eigen::VectorXd bruteForce(const Eigen::MatrixXd& A, const Eigen::VectorXd& b,
                           const std::vector<bool>& nonNeg)
{
    std::vector<int> bounded;
    for (int j = 0; j < static_cast<int>(nonNeg.size()); ++j)
        if (nonNeg[static_cast<std::size_t>(j)])
            bounded.push_back(j);
    double best = std::numeric_limits<double>::infinity();
    Eigen::VectorXd bestX;
    for (unsigned mask = 0; mask < (1u << bounded.size()); ++mask) {
        std::vector<bool> use(nonNeg.size(), true);
        for (std::size_t k = 0; k < bounded.size(); ++k)
            if (mask & (1u << k))
                use[static_cast<std::size_t>(bounded[k])] = false;
        const Eigen::VectorXd x = leastSquaresOnColumns(A, b, use);
        bool feasible = true;
        for (int j : bounded)
            feasible = feasible && x(j) >= -1e-12;
        const double r = (A * x - b).squaredNorm();
        if (feasible && r < best) {
            best = r;
            bestX = x;
        }
    }
    return bestX;
}

} // namespace

class TestNnls : public QObject
{
    Q_OBJECT
private slots:
    void matchesBruteForceOnRandomProblems();
    void noActiveConstraintEqualsUnconstrained();
    void allBoundedIsClassicNnls();
    void ridgeMatchesClosedForm();
    void ridgeConstraintBindsOnlyWhereNeeded();
    void crossValidationPicksTheCurveMinimum();
};

void TestNnls::matchesBruteForceOnRandomProblems()
{
    SplitMix64 rng(42);
    int withActive = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const int cols = 2 + rng.below(5);
        const int rows = cols + 2 + rng.below(6);
        const Eigen::MatrixXd A = randomMatrix(rng, rows, cols);
        Eigen::VectorXd b(rows);
        for (int i = 0; i < rows; ++i)
            b(i) = rng.normal();
        std::vector<bool> nonNeg(static_cast<std::size_t>(cols));
        for (int j = 0; j < cols; ++j)
            nonNeg[static_cast<std::size_t>(j)] = rng.uniform() < 0.7;
        const BoundedLsResult r = solveNonNegativeLs(A, b, nonNeg);
        QVERIFY(r.converged);
        const Eigen::VectorXd expected = bruteForce(A, b, nonNeg);
        QVERIFY2((r.x - expected).cwiseAbs().maxCoeff() < 1e-8, std::to_string(trial).c_str());
        for (int j = 0; j < cols; ++j) {
            if (nonNeg[static_cast<std::size_t>(j)]) {
                QVERIFY(r.x(j) >= 0.0);
                withActive += r.x(j) == 0.0 ? 1 : 0;
            }
        }
    }
    QVERIFY(withActive > 50); // the constraints really were active in many problems
}

void TestNnls::noActiveConstraintEqualsUnconstrained()
{
    SplitMix64 rng(7);
    const Eigen::MatrixXd A = randomMatrix(rng, 12, 4);
    const Eigen::Vector4d truth(1.0, 2.0, -3.0, 0.5);
    const Eigen::VectorXd b = A * truth;
    const std::vector<bool> nonNeg{true, true, false, true}; // truth satisfies the bounds
    const BoundedLsResult r = solveNonNegativeLs(A, b, nonNeg);
    const Eigen::VectorXd free = A.colPivHouseholderQr().solve(b);
    QVERIFY((r.x - free).cwiseAbs().maxCoeff() < 1e-10);
    QVERIFY((r.x - truth).cwiseAbs().maxCoeff() < 1e-10);
}

void TestNnls::allBoundedIsClassicNnls()
{
    // Hand example: min (x0 - 1)^2 + (x1 + 2)^2 with x >= 0 gives (1, 0).
    const Eigen::Matrix2d A = Eigen::Matrix2d::Identity();
    const Eigen::Vector2d b(1.0, -2.0);
    const BoundedLsResult r = solveNonNegativeLs(A, b, {true, true});
    QVERIFY(std::abs(r.x(0) - 1.0) < 1e-14);
    QCOMPARE(r.x(1), 0.0);
}

void TestNnls::ridgeMatchesClosedForm()
{
    SplitMix64 rng(3);
    const int n = 30, p = 4;
    Eigen::MatrixXd X = randomMatrix(rng, n, p);
    X.col(1) = X.col(1) * 5.0 + Eigen::VectorXd::Constant(n, 2.0); // unequal scales
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i)
        y(i) = X(i, 0) - 0.5 * X(i, 1) + 0.3 * rng.normal() + 4.0;
    const double lambda = 0.7;
    const RidgeFit fit = fitRidge(X, y, lambda, std::vector<bool>(p, false));
    // Closed form on standardised columns and centred y (intercept penalised too, and 0).
    const Eigen::RowVectorXd mu = X.colwise().mean();
    const Eigen::MatrixXd C = X.rowwise() - mu;
    const Eigen::RowVectorXd sd = (C.array().square().colwise().sum() / n).sqrt();
    const Eigen::MatrixXd Z = C.array().rowwise() / sd.array();
    const Eigen::VectorXd yc = y.array() - y.mean();
    const Eigen::VectorXd v = (Z.transpose() * Z + lambda * Eigen::MatrixXd::Identity(p, p))
                                  .ldlt()
                                  .solve(Z.transpose() * yc);
    const Eigen::VectorXd w = v.array() / sd.transpose().array();
    QVERIFY((fit.w - w).cwiseAbs().maxCoeff() < 1e-10);
    QVERIFY(std::abs(fit.b - (y.mean() - mu.dot(w))) < 1e-10);
}

void TestNnls::ridgeConstraintBindsOnlyWhereNeeded()
{
    SplitMix64 rng(11);
    const int n = 40, p = 3;
    const Eigen::MatrixXd X = randomMatrix(rng, n, p);
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i)
        y(i) = 2.0 * X(i, 0) - 1.5 * X(i, 1) + 0.5 * X(i, 2) + 0.1 * rng.normal();
    const RidgeFit free = fitRidge(X, y, 0.1, {false, false, false});
    const RidgeFit bounded = fitRidge(X, y, 0.1, {true, true, true});
    QVERIFY(free.w(1) < -1.0);
    QCOMPARE(bounded.w(1), 0.0); // the binding bound is met exactly, not clipped afterwards
    QVERIFY(bounded.w(0) > 0.0 && bounded.w(2) > 0.0);
    // Bounding only the columns that are positive anyway changes nothing.
    const RidgeFit loose = fitRidge(X, y, 0.1, {true, false, true});
    QVERIFY((loose.w - free.w).cwiseAbs().maxCoeff() < 1e-12);
}

void TestNnls::crossValidationPicksTheCurveMinimum()
{
    SplitMix64 rng(5);
    const int n = 60, p = 6;
    const Eigen::MatrixXd X = randomMatrix(rng, n, p);
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i)
        y(i) = X(i, 0) + 0.5 * rng.normal();
    const std::vector<bool> free(p, false);
    const LambdaChoice a = chooseLambda(X, y, free, defaultLambdaGrid(), 5, 9);
    const LambdaChoice b = chooseLambda(X, y, free, defaultLambdaGrid(), 5, 9);
    QCOMPARE(a.curve.size(), defaultLambdaGrid().size());
    QCOMPARE(a.lambda, b.lambda); // deterministic folds
    double best = std::numeric_limits<double>::infinity();
    for (const CvPoint& c : a.curve)
        best = std::min(best, c.mse);
    for (const CvPoint& c : a.curve)
        if (c.lambda == a.lambda)
            QCOMPARE(c.mse, best);
    // Noise-only extra columns: some shrinkage beats none.
    QVERIFY(a.lambda > defaultLambdaGrid().front());
}

ACSEL_TEST_APPLESS_MAIN(TestNnls)
#include "test_nnls.moc"
