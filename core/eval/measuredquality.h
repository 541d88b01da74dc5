// The "measured" RMQD of the simulated campaign: the seeded demo generator that produced a
// synthetic quality set (its ground truth), rebuilt from the seed the set records and checked
// against every row of it. The surrogate was fitted on a sample of that generator, so its own
// errors show in the evaluation, as a real measurement campaign's would.
#pragma once

#include "core/data/qualityset.h"
#include "core/quality/demoquality.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace acsel
{

struct DemoGenerator {
    std::optional<DemoQualityModel> model; // empty when the set was not made by it
    std::uint64_t seed = 0;
    std::string reason; // why not, for the user
};

// The generator of `set` when it is synthetic, records a generator seed and reproduces every
// row exactly; otherwise an empty model and the reason.
DemoGenerator rebuildDemoGenerator(const QualitySet& set, const std::vector<ModelArch>& models);

// Whether a configuration is one of the set's training rows (model, recipe, algorithm, lm_head,
// KV): the evaluation data leaves those out, so the surrogate is judged on configurations it
// never saw (the paper keeps the two disjoint).
std::function<bool(const Config&)> trainingConfigs(const QualitySet& set);

} // namespace acsel
