// Merging measured rows into a quality set (`acsel quality add`): rows are added in order,
// and a row is refused when its configuration (model, algorithm, lm_head, KV cache, band
// recipe) is already in the set or earlier among the added rows: one measurement per
// configuration, so a re-measured configuration is never counted twice in a fit.
// Synthetic and measured rows never mix: the set's `synthetic` mark covers every row.
#pragma once

#include "core/data/qualityset.h"

#include <string>
#include <vector>

namespace acsel
{

// Same configuration: everything but the RMQD and the split.
bool sameConfiguration(const QualityRow& a, const QualityRow& b);

// Appends `rows` to `set` (all or nothing). Throws LoadError naming rows.file (and the row,
// 1-based, with its model and bands) on a duplicate, or when exactly one of the two is synthetic.
// `models` are the workspace models both were checked against (for the names in messages).
void mergeQualityRows(QualitySet& set, const QualitySet& rows,
                      const std::vector<ModelArch>& models);

} // namespace acsel
