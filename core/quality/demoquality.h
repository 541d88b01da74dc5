// SYNTHETIC quality data for the demo workspace: no RMQD was measured for these models, so a
// seeded, documented model stands in for measurements. Everything it produces is labelled
// synthetic; docs/QUALITY.md 5 lists every constant and its source.
//
// Simulated RMQD of a configuration (nats), against the family's shared oracle as in the paper
// (Llama-3.1-405B for Llama-3.x, Qwen3-235B-A22B for Qwen3):
//   RMQD = gap_m + (1/L) sum_l d(m, l, format_l, scope_l, algorithm) + lm_head + kv
//   d    = size_m * K[format] * alg[algorithm, format] * depth_m(l) * fmt_m[format]
//          * sum over the tensor groups g the scope quantizes of share_m[g] * cell_m(l, format, g)
// gap_m: KL(oracle || bf16 model), the capacity gap (capacitygap.h, an ASSUMPTION from the
// Chinchilla law) with frozen log-normal noise per model; the damage terms add on top, as KL
// does to second order for small independent perturbations. size_m = (8e9 / params)^0.4;
// K: the uniform-format damage of an 8B model against its own bf16 weights (the cited anchors of
// ../shared/quality/ANCHORS.md); depth_m(l): a U-shaped sensitivity profile (first layers and
// the last layer most sensitive) with frozen per-layer variation, mean 1; fmt_m and cell_m:
// frozen log-normal noise per (model, bit width) and per (model, layer, format, tensor group).
// share_m[g]: the attention (q/k/v/o) or MLP (gate/up/down) group's parameters, v_proj and
// down_proj weighted as the most sensitive tensors, over the layer's; the two sum to 1, so full
// scope is attention plus MLP.
//
// Monotone in bits by construction: the noise is frozen per layer cell (not per configuration),
// damage is additive over layers and tensor groups, and a 4-bit cell's damage is raised, where
// needed, to at least 1.05 times the largest 8-bit damage of the same (layer, group) under any
// algorithm. So moving
// a band to a format with fewer bits never lowers RMQD at a fixed algorithm.
#pragma once

#include "core/data/qualityset.h"
#include "core/model/modelarch.h"

#include <cstdint>
#include <vector>

namespace acsel
{

struct DemoQualityOptions {
    std::uint64_t seed = 2611;
    int trainRows = 226;          // the paper trained its surrogate on 226 configurations
    int bandConfigsPerModel = 56; // random 2- and 3-band recipes per model
};

class DemoQualityModel
{
public:
    // Throws std::invalid_argument when a model's family has no known oracle (capacitygap.h).
    DemoQualityModel(std::vector<ModelArch> models, std::uint64_t seed);

    const std::vector<ModelArch>& models() const { return models_; }
    // Simulated RMQD; the recipe need not be canonical (neighbouring bands may be equal).
    double rmqd(int model, const BandRecipe& recipe, Algorithm algorithm, bool lmHeadQuantized,
                KvFormat kv) const;
    // d(m, l, f, s, a) above: one layer's contribution before the 1/L mean. 0 for bf16.
    double layerDamage(int model, int layer, Format f, Scope s, Algorithm a) const;
    // gap_m above, noise included: the RMQD of the all-bf16 configuration.
    double gap(int model) const { return per_[static_cast<std::size_t>(model)].gap; }

private:
    struct PerModel {
        double gap = 0.0;
        double size = 1.0;
        int layers = 0;
        std::vector<double> prefix; // [(a * 7 + f) * 3 + s][l], prefix sums of d over layers
        std::vector<double> lmHead; // [a * 7 + f]
        double kv = 0.0;
    };
    std::vector<ModelArch> models_;
    std::vector<PerModel> per_;
};

// The demo measurement set: for every model, every uniform (format, scope, fitting algorithm)
// configuration, a few uniform variants with lm_head / KV quantized, and random canonical 2-3
// band recipes over all formats; a seeded shuffle puts trainRows of them in the training split.
QualitySet generateDemoQualitySet(const std::vector<ModelArch>& models,
                                  const DemoQualityOptions& options, const std::string& command);

} // namespace acsel
