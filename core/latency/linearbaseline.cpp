#include "core/latency/linearbaseline.h"

#include "core/latency/memorymodel.h"

#include <Eigen/Dense>
#include <cmath>
#include <stdexcept>

namespace acsel
{

LrFeatures lrFeatures(const ModelArch& arch, const Config& config, const Request& request,
                      const Platform& platform, LatencyMetric metric)
{
    const RooflineEstimate r = estimateRoofline(arch, config, request, platform);
    const MemoryEstimate m = estimateMemory(arch, config, request, platform);
    return {metric == LatencyMetric::Ttft ? r.ttftMs : r.tpotMs, static_cast<double>(config.batch),
            static_cast<double>(request.isl), static_cast<double>(request.osl),
            (m.weightBytes + m.embeddingBytes + m.lmHeadBytes) / 1e9};
}

LinearBaseline LinearBaseline::fit(std::span<const LrFeatures> features,
                                   std::span<const double> measuredMs)
{
    if (features.empty() || features.size() != measuredMs.size())
        throw std::invalid_argument(
            "LR baseline needs the same positive number of rows and measurements");
    const auto n = static_cast<Eigen::Index>(features.size());
    LinearBaseline lr;
    for (int j = 0; j < kLrFeatures; ++j) {
        const auto ju = static_cast<std::size_t>(j);
        double mean = 0, var = 0;
        for (const LrFeatures& f : features)
            mean += f[ju];
        mean /= static_cast<double>(n);
        for (const LrFeatures& f : features)
            var += (f[ju] - mean) * (f[ju] - mean);
        lr.mean_[ju] = mean;
        // A constant feature carries nothing: scale 0 drops it.
        lr.scale_[ju] = var > 0 ? 1.0 / std::sqrt(var / static_cast<double>(n)) : 0.0;
    }
    Eigen::MatrixXd X(n, kLrFeatures);
    Eigen::VectorXd y(n);
    double ymean = 0;
    for (Eigen::Index i = 0; i < n; ++i)
        ymean += measuredMs[static_cast<std::size_t>(i)];
    ymean /= static_cast<double>(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const LrFeatures& f = features[static_cast<std::size_t>(i)];
        for (int j = 0; j < kLrFeatures; ++j) {
            const auto ju = static_cast<std::size_t>(j);
            X(i, j) = (f[ju] - lr.mean_[ju]) * lr.scale_[ju];
        }
        y(i) = measuredMs[static_cast<std::size_t>(i)] - ymean;
    }
    const Eigen::VectorXd w = X.completeOrthogonalDecomposition().solve(y);
    for (int j = 0; j < kLrFeatures; ++j)
        lr.weights_[static_cast<std::size_t>(j)] = w(j);
    lr.intercept_ = ymean;
    return lr;
}

double LinearBaseline::predict(const LrFeatures& f) const
{
    double t = intercept_;
    for (std::size_t j = 0; j < f.size(); ++j)
        t += weights_[j] * (f[j] - mean_[j]) * scale_[j];
    return t;
}

} // namespace acsel
