// The LR baseline of the paper's Table 2 (after Imai et al. 2024): the measured latency (ms,
// not log) as a linear function of configuration features plus a roofline estimate:
//   T = w0 + w . [roofline ms, batch, isl, osl, weight GB].
// Features are standardised on the profiles; the fit is the minimum-norm least-squares
// solution (Eigen complete orthogonal decomposition), so it is defined with fewer profiles
// than features, as in the few-shot setting it is compared in.
#pragma once

#include "core/latency/fmc.h"
#include "core/latency/roofline.h"

#include <array>
#include <span>

namespace acsel
{

inline constexpr int kLrFeatures = 5;
using LrFeatures = std::array<double, kLrFeatures>;

LrFeatures lrFeatures(const ModelArch& arch, const Config& config, const Request& request,
                      const Platform& platform, LatencyMetric metric);

class LinearBaseline
{
public:
    // Throws std::invalid_argument on empty or mismatched input.
    static LinearBaseline fit(std::span<const LrFeatures> features,
                              std::span<const double> measuredMs);
    double predict(const LrFeatures& f) const;

private:
    double intercept_ = 0;
    LrFeatures weights_{}, mean_{}, scale_{};
};

} // namespace acsel
