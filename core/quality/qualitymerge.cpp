#include "core/quality/qualitymerge.h"

#include "core/data/loaderror.h"

namespace acsel
{

bool sameConfiguration(const QualityRow& a, const QualityRow& b)
{
    return a.model == b.model && a.algorithm == b.algorithm &&
           a.lmHeadQuantized == b.lmHeadQuantized && a.kv == b.kv && a.recipe == b.recipe;
}

void mergeQualityRows(QualitySet& set, const QualitySet& rows, const std::vector<ModelArch>& models)
{
    if (set.synthetic != rows.synthetic)
        throw LoadError(rows.file, "",
                        std::string(rows.synthetic ? "synthetic" : "measured") +
                            " rows cannot go "
                            "into " +
                            (set.synthetic ? "a synthetic" : "a measured") + " set (" + set.file +
                            "): its synthetic mark covers every row");
    const std::size_t before = set.rows.size();
    QualitySet merged = set;
    for (std::size_t i = 0; i < rows.rows.size(); ++i) {
        const QualityRow& r = rows.rows[i];
        for (std::size_t j = 0; j < merged.rows.size(); ++j) {
            if (!sameConfiguration(r, merged.rows[j]))
                continue;
            const bool inSet = j < before;
            throw LoadError(
                rows.file, "row " + std::to_string(i + 1),
                "duplicate configuration " + models[static_cast<std::size_t>(r.model)].name + " " +
                    std::string(toString(r.algorithm)) + " kv " + std::string(toString(r.kv)) +
                    " lm_head " + (r.lmHeadQuantized ? "quantized" : "bf16") + " bands " +
                    bandsToText(r.recipe) + ": already " +
                    (inSet ? "in the set (row " + std::to_string(j + 1) + ")"
                           : "row " + std::to_string(j - before + 1) + " of this file") +
                    "; keep one measurement per configuration");
        }
        merged.rows.push_back(r);
    }
    set = std::move(merged);
}

} // namespace acsel
