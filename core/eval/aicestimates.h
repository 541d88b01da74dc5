// AIConfigurator's own latency estimates for silicon rows (../shared/aic/estimates/
// aic_estimates_dense_tp1.csv, produced as its README says): the baseline column of the gate
// evaluation. Only the aggregated (continuous-batching) columns are read: the silicon rows are
// continuous-batching benchmarks, and AIC's static mode is far off them (its README).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace acsel
{

struct AicEstimate {
    int line = 0;
    std::string id, system, backend; // the silicon row it estimates (join on id)
    // AIC agg mode's TTFT and TPOT; empty when AIC refused the row ("OOM: does not fit").
    std::optional<double> ttftMs, tpotMs;
};

// Columns id, system, backend, aic_agg_status (ok | refused), aic_agg_ttft_ms and
// aic_agg_tpot_ms (positive when ok, ignored when refused). Throws LoadError naming file, line
// and column on a missing column, a bad status or value, or a repeated id.
std::vector<AicEstimate> loadAicEstimatesCsv(const std::string& path);
std::vector<AicEstimate> parseAicEstimatesCsv(std::string text, const std::string& name);

} // namespace acsel
