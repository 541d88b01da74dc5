// The paper's Table 3 on a quality measurement set: both surrogates fitted on the training
// split (lambda by CV), their MdAPE on the held-out split, and the monotonicity check.
#pragma once

#include "core/data/qualityset.h"
#include "core/quality/monotonicity.h"
#include "core/quality/ridgesurrogate.h"

#include <vector>

namespace acsel
{

struct SurrogateEvaluation {
    RidgeSurrogate surrogate;
    double heldoutMdape = 0.0; // percent
    SurrogateMonotonicity monotonicity;
};

struct QualityReport {
    int trainRows = 0;
    int heldoutRows = 0;
    SurrogateEvaluation unconstrained;
    SurrogateEvaluation constrained;
};

FeatureVector qualityFeatures(const ModelArch& model, const QualityRow& row);

// Throws std::invalid_argument when a split is empty (a user's set without held-out rows).
QualityReport evaluateQualitySurrogates(const QualitySet& set, const std::vector<ModelArch>& models,
                                        SurrogateOptions options = {});

} // namespace acsel
