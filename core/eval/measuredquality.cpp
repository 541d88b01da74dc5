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

std::function<bool(const Config&)> trainingConfigs(const QualitySet& set)
{
    std::vector<std::vector<QualityRow>> train; // per model
    for (const QualityRow& r : set.rows)
        if (r.split == Split::Train) {
            if (static_cast<std::size_t>(r.model) >= train.size())
                train.resize(static_cast<std::size_t>(r.model) + 1);
            train[static_cast<std::size_t>(r.model)].push_back(r);
        }
    return [train = std::move(train)](const Config& c) {
        if (c.model < 0 || static_cast<std::size_t>(c.model) >= train.size())
            return false;
        const auto& rows = train[static_cast<std::size_t>(c.model)];
        return std::any_of(rows.begin(), rows.end(), [&](const QualityRow& r) {
            return r.model == c.model && r.algorithm == c.algorithm &&
                   r.lmHeadQuantized == c.lmHeadQuantized && r.kv == c.kv && r.recipe == c.recipe;
        });
    };
}

} // namespace acsel
