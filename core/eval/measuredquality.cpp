#include "core/eval/measuredquality.h"

#include <algorithm>
#include <cmath>

namespace acsel
{

DemoGenerator rebuildDemoGenerator(const QualitySet& set, const std::vector<ModelArch>& models)
{
    DemoGenerator out;
    if (!set.synthetic) {
        out.reason = set.file + " holds measured RMQD, not the demo generator's";
        return out;
    }
    if (!set.generator.is_object() || !set.generator.contains("seed") ||
        !set.generator["seed"].is_number_unsigned()) {
        out.reason = set.file + " records no generator seed (/generator/seed)";
        return out;
    }
    const auto seed = set.generator["seed"].get<std::uint64_t>();
    DemoQualityModel model(models, seed);
    for (std::size_t i = 0; i < set.rows.size(); ++i) {
        const QualityRow& r = set.rows[i];
        const double expected = model.rmqd(r.model, r.recipe, r.algorithm, r.lmHeadQuantized, r.kv);
        if (std::abs(expected - r.rmqd) > 1e-12 * std::max(1.0, std::abs(r.rmqd))) {
            out.reason = set.file + " /rows/" + std::to_string(i) +
                         ": the demo generator with the recorded seed gives " +
                         std::to_string(expected) + ", the file " + std::to_string(r.rmqd);
            return out;
        }
    }
    out.model = std::move(model);
    out.seed = seed;
    return out;
}

} // namespace acsel
