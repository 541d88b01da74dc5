// The simulated campaign's latency truth beyond the gate's estimate: per stack and
// metric, r = log(measured / estimate) of real silicon rows as a ridge regression on the
// workload and the estimate, r ~ b0 + b1 log isl + b2 log osl + b3 log batch + b4 lowBitShare
// + b5 log estimate, and the spread of the rows around it. Not the gate's model: FMC is the
// special case b1 = .. = b4 = 0, so it cannot recover the workload terms (the report prints
// what is left after it).
#pragma once

#include "core/model/config.h"
#include "core/quality/ridge.h"

#include <array>
#include <vector>

namespace acsel
{

struct WorkloadPoint {
    double isl = 1, osl = 1, batch = 1;
    double lowBitShare = 0; // share of layers in a GEMM format other than bf16
    double estimateMs = 1;  // the gate's raw estimate of the metric modelled
};

// Share of the recipe's layers not in bf16 (the silicon rows are bf16 or fp8 only: every
// other low-bit format is assumed to follow fp8's residual).
double lowBitShare(const BandRecipe& r);
// Without the estimate (estimateMs = 1): set it per metric.
WorkloadPoint workloadOf(const Config& c, const Request& q);

class ResidualModel
{
public:
    // Ridge at a fixed lambda (kResidualLambda) on standardised features. Throws
    // std::invalid_argument with fewer than two rows or non-finite values.
    static ResidualModel fit(const std::vector<WorkloadPoint>& x, const std::vector<double>& r);

    // The fitted mean at x, features clamped to the range of the fitted rows (no extrapolation
    // beyond the measured workloads).
    double mean(const WorkloadPoint& x) const;
    // Root mean square of the fitted rows' residuals around mean(): the measurement spread the
    // workload does not explain.
    double sigma() const { return sigma_; }
    int rows() const { return rows_; }

private:
    RidgeFit fit_;
    std::array<double, 5> lo_{}, hi_{};
    double sigma_ = 0;
    int rows_ = 0;
};

// Fixed ridge penalty in standardised units: the per-stack halves hold 12 to 40 rows.
inline constexpr double kResidualLambda = 1.0;

// The residual models of TTFT and TPOT.
struct ResidualPair {
    ResidualModel ttft, tpot;
};

// Fitted rows a tensor-parallel degree needs for residual models of its own (its all-reduces
// and split GEMMs leave another residual than the stack's other degrees): twice the six
// coefficients of a model. A degree with fewer takes the stack's, fitted on every degree.
inline constexpr int kMinDegreeResidualRows = 12;

} // namespace acsel
