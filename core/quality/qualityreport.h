// The paper's Table 3 on a quality measurement set: the docs/METHOD.md surrogates (unconstrained
// and monotone) and the engine's fitted on the training split (lambda by CV), their MdAPE on the
// held-out split, the monotonicity check, whether they separate scopes, and how often the
// monotone constraint binds over re-drawn splits.
#pragma once

#include "core/data/qualityset.h"
#include "core/quality/monotonicity.h"
#include "core/quality/ridgesurrogate.h"
#include "core/quality/scopeseparation.h"

#include <array>
#include <vector>

namespace acsel
{

struct SurrogateEvaluation {
    RidgeSurrogate surrogate;
    double heldoutMdape = 0.0; // percent
    SurrogateMonotonicity monotonicity;
    ScopeSeparation scopes;
};

// The constrained fit's bit-deficit weights sitting exactly at the bound w = 0 (the active set
// solver leaves them at 0, not near it): 0 means the constraint did not bind.
int boundBitWeights(const RidgeSurrogate& constrained);

// The bit-deficit mean is exactly the average of the three thirds (every layer's third weights
// sum to 3/L), so the four weights are not identified one by one: what a layer of third k
// contributes per unit of its bit code is (3/L)(w_mean/3 + w_k). These three slopes, not the
// four weights, say whether a fit is monotone in bits; a negative w_k with a positive slope is
// still monotone, and constraining it changes the fit without being needed.
std::array<double, 3> bitSlopesByThird(const RidgeSurrogate& s);

// Both surrogates refitted on `resplits` seeded random splits of all rows with the set's
// training size: the spread of held-out MdAPE, and how often the constraint binds.
struct ResplitStudy {
    int resplits = 0;
    std::vector<double> unconstrainedMdape; // percent, one per split
    std::vector<double> constrainedMdape;
    int binding = 0;           // splits where at least one bit-deficit weight is at the bound
    int nonMonotone = 0;       // splits whose unconstrained fit has a negative bitSlopesByThird
    int boundWeights = 0;      // bound bit-deficit weights summed over the splits
    int constrainedBetter = 0; // splits with a strictly lower constrained held-out MdAPE
    int constrainedWorse = 0;
};

struct QualityReport {
    int trainRows = 0;
    int heldoutRows = 0;
    SurrogateEvaluation unconstrained;
    SurrogateEvaluation constrained;
    // The engine's surrogate (engineSurrogateOptions(): scope-aware features, every
    // quantization weight >= 0, an offset per model), fitted on the same split; its held-out
    // error counts the offsets.
    SurrogateEvaluation engine;
    // Two ablations of the engine's fit, to tell what the features and the offsets each bring:
    // its bounds and offsets on the Method features (the engine before the scope-aware coding),
    // and the scope-aware features without offsets (comparable with the Method fits).
    SurrogateEvaluation methodWithOffsets;
    SurrogateEvaluation engineWithoutOffsets;
    ResplitStudy resplit;
};

FeatureVector qualityFeatures(FeatureCoding coding, const ModelArch& model, const QualityRow& row);

// The surrogate fitted on the set's training rows (the engine's: options =
// engineSurrogateOptions()). Throws std::invalid_argument with fewer than two training rows.
RidgeSurrogate fitOnTrainingRows(const QualitySet& set, const std::vector<ModelArch>& models,
                                 const SurrogateOptions& options);

// Throws std::invalid_argument when a split is empty (a user's set without held-out rows).
// resplits = 0 skips the re-split study.
QualityReport evaluateQualitySurrogates(const QualitySet& set, const std::vector<ModelArch>& models,
                                        SurrogateOptions options = {}, int resplits = 0);

} // namespace acsel
