// The gate's yes/no judged on real measurements (docs/EVALUATION.md): per stack, K
// profile rows chosen as the latency study chooses them (stratified over the raw TTFT
// estimate, seeds 0 .. S-1), the rest held out. For every held-out row and metric, budgets at
// the MEASURED latency x kBudgetFactors: below 1 the row is over budget (the gate should
// reject), above 1 within it (the gate should admit). Each gate variant (raw, FMC, AIC, ...)
// admits when its latency is within the budget; counts are summed over seeds.
// Also the decision between two measured configurations of one workload, both held out: does
// the variant rank them as measured?
#pragma once

#include "core/latency/fmc.h"
#include "core/latency/fmcchoice.h"

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace acsel
{

inline constexpr std::array<double, 6> kBudgetFactors{0.8, 0.9, 0.95, 1.05, 1.1, 1.25};

// One measured row as the gate evaluation sees it (metric index: LatencyMetric).
struct GateRow {
    std::string id;
    std::string stack;
    std::string workload;         // rows sharing a non-empty key are configurations of one workload
    std::string sweep;            // rows of one concurrency sweep share it (sweepKey, silicon.h)
    std::string load;             // rows at one concurrency share it (loadKey, silicon.h)
    bool profileCandidate = true; // false: held out always (profileExclusion)
    std::array<double, 2> measured{}, raw{};  // ms
    std::array<std::optional<double>, 2> aic; // AIC's estimate; empty when it has none
};

// The latency a variant compares with the budget for a held-out row; empty: no estimate (the
// gate cannot admit).
using GatePredictor = std::function<std::optional<double>(const GateRow&)>;

// A variant's central 90 % predictive interval of a held-out row; empty: none.
using IntervalPredictor = std::function<std::optional<LatencyInterval>(const GateRow&)>;

// A gate variant: fitted on one stack's profile rows for one metric. A new gate is one more
// entry of the list given to evaluateGate. `interval` (optional) is judged by its coverage.
struct GateVariant {
    std::string name;
    std::function<GatePredictor(const std::vector<const GateRow*>& profiles, LatencyMetric m)> fit;
    std::function<IntervalPredictor(const std::vector<const GateRow*>& profiles, LatencyMetric m)>
        interval{};
};

inline constexpr double kGateIntervalLevel = 0.9;

// raw (the operator estimate); fmc (the paper's FMC: the full median line at tau on the
// profiles); with AIC estimates aic (AIC's own estimate, not calibrated) and aic+fmc (the same
// line fitted on the profiles' AIC estimates; no estimate where no profile has one); calibrate
// (the form `acsel calibrate` chooses among identity, offset and line, fmcchoice.h, with its 90 %
// interval, conditioned on the row's concurrency as `acsel predict` gives it); and, when
// confidence != 0.5, calibrate@P: that form's P-quantile line, the gate of `--confidence P`
// (no estimate where the profiles leave its spread unknown).
std::vector<GateVariant> standardGateVariants(double tau, bool withAic, double confidence = 0.5);

struct GateCounts {
    int cases = 0;                                     // held-out (row, seed) evaluations
    std::array<int, kBudgetFactors.size()> admitted{}; // per budget factor
    int noEstimate = 0;                                // cases the variant had no estimate for
    int overBudget() const;                            // cases x the factors below 1
    int withinBudget() const;                          // cases x the factors above 1
    int falseAdmits() const;                           // admitted at a factor below 1
    int falseRejects() const;                          // rejected at a factor above 1
    double falseAdmitRate() const;                     // falseAdmits / overBudget (NaN if 0)
    double falseRejectRate() const;                    // falseRejects / withinBudget (NaN if 0)
    // The variant's 90 % interval (when it has one): cases with an interval, those holding the
    // measurement, and the sum of the half-widths as factors sqrt(high / low) ("x/ 2.1").
    int intervals = 0, covered = 0;
    double widthSum = 0;
};

struct DecisionCounts {
    int pairs = 0;     // (pair, seed) with both rows held out and measured latencies unequal
    int correct = 0;   // ranked as measured
    int undecided = 0; // a missing estimate or equal estimates
};

using PerMetric = std::array<GateCounts, 2>;
using DecisionPerMetric = std::array<DecisionCounts, 2>;

struct StackGateResult {
    std::string stack;
    int rows = 0, profileCandidates = 0, profiles = 0;
    std::vector<PerMetric> variants; // in the order of GateEvaluation::variants
};

struct GateEvaluation {
    std::vector<std::string> variants;
    int profiles = 0, seeds = 0;
    std::vector<StackGateResult> stacks;                             // in first-seen order
    std::vector<std::pair<std::string, std::string>> excludedStacks; // stack, reason
    std::vector<PerMetric> pooled;                                   // sum over the stacks
    int workloadPairs = 0;                       // pairs of rows sharing a workload
    std::vector<DecisionPerMetric> sameStack;    // pairs within one stack
    std::vector<DecisionPerMetric> acrossStacks; // pairs of two stacks
};

// Which rows are held out: per seed K profiles stratified over the raw TTFT estimate and the rest
// of the stack; or each concurrency sweep of a stack in turn, predicted from the stack's
// profile candidates of every other sweep (stacks of one sweep are excluded; profiles and
// seeds are then unused).
enum class GateSplit : std::uint8_t { Stratified, LeaveOneSweepOut };

// Throws std::invalid_argument when profiles or seeds < 1 or a row's values are not positive.
GateEvaluation evaluateGate(const std::vector<GateRow>& rows,
                            const std::vector<GateVariant>& variants, int profiles, int seeds,
                            GateSplit split = GateSplit::Stratified);

// What no calibration from profiles can beat: per stack in `stacks`, each of its rows' raw
// estimate times the q-quantile of measured / raw over the stack's own rows (the ceil(q n)-th
// smallest ratio), gated like a variant, each row once, summed over the stacks. An oracle: it
// is centred on the rows it judges, so its rates bound what the within-stack spread of the
// raw estimate's error allows (docs/LATENCY.md, "What bounds the two gate rates"). Throws
// std::invalid_argument when q is outside (0, 1) or a row's values are not positive.
PerMetric oracleGate(const std::vector<GateRow>& rows, const std::vector<std::string>& stacks,
                     double q);

} // namespace acsel
