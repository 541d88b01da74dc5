#include "core/eval/residualmodel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace acsel
{
namespace
{

constexpr std::size_t kFeatures = 5;

std::array<double, kFeatures> features(const WorkloadPoint& p)
{
    return {std::log(p.isl), std::log(p.osl), std::log(p.batch), p.lowBitShare,
            std::log(p.estimateMs)};
}

} // namespace

double lowBitShare(const BandRecipe& r)
{
    int low = 0, all = 0;
    for (const Band& b : r) {
        all += b.end - b.begin;
        if (b.format != Format::Bf16)
            low += b.end - b.begin;
    }
    return all > 0 ? static_cast<double>(low) / all : 0.0;
}

WorkloadPoint workloadOf(const Config& c, const Request& q)
{
    return {static_cast<double>(q.isl), static_cast<double>(q.osl), static_cast<double>(c.batch),
            lowBitShare(c.recipe)};
}

ResidualModel ResidualModel::fit(const std::vector<WorkloadPoint>& x, const std::vector<double>& r)
{
    if (x.size() < 2 || x.size() != r.size())
        throw std::invalid_argument("residual model: needs two or more rows");
    const auto n = static_cast<Eigen::Index>(x.size());
    Eigen::MatrixXd X(n, static_cast<Eigen::Index>(kFeatures));
    Eigen::VectorXd y(n);
    ResidualModel m;
    m.lo_.fill(std::numeric_limits<double>::infinity());
    m.hi_.fill(-std::numeric_limits<double>::infinity());
    for (Eigen::Index i = 0; i < n; ++i) {
        const auto f = features(x[static_cast<std::size_t>(i)]);
        for (std::size_t j = 0; j < kFeatures; ++j) {
            if (!std::isfinite(f[j]))
                throw std::invalid_argument("residual model: a workload feature is not finite");
            X(i, static_cast<Eigen::Index>(j)) = f[j];
            m.lo_[j] = std::min(m.lo_[j], f[j]);
            m.hi_[j] = std::max(m.hi_[j], f[j]);
        }
        y(i) = r[static_cast<std::size_t>(i)];
        if (!std::isfinite(y(i)))
            throw std::invalid_argument("residual model: a residual is not finite");
    }
    m.fit_ = fitRidge(X, y, kResidualLambda, std::vector<bool>(kFeatures, false));
    double ss = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const double e = y(i) - m.fit_.predict(X.row(i));
        ss += e * e;
    }
    m.sigma_ = std::sqrt(ss / static_cast<double>(n));
    m.rows_ = static_cast<int>(n);
    return m;
}

double ResidualModel::mean(const WorkloadPoint& x) const
{
    const auto f = features(x);
    Eigen::RowVectorXd row(static_cast<Eigen::Index>(kFeatures));
    for (std::size_t j = 0; j < kFeatures; ++j)
        row(static_cast<Eigen::Index>(j)) = std::clamp(f[j], lo_[j], hi_[j]);
    return fit_.predict(row);
}

} // namespace acsel
