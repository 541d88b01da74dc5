#include "core/quality/demoquality.h"

#include "core/model/configspace.h"
#include "core/quality/capacitygap.h"
#include "core/quality/rng.h"
#include "core/quality/scopecodes.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

namespace acsel
{
namespace
{

// Every constant of the simulated damage, with the figure it follows. The same table feeds the
// computation and the file's metadata, so the two cannot drift apart.
struct FormatLevel {
    Format format;
    double kld; // uniform full-scope damage of an 8B model vs its own bf16 weights, nats
    const char* basis;
};
constexpr FormatLevel kLevels[] = {
    {Format::Nvfp4, 0.055,
     "NVFP4 mean KLD 0.049-0.056 on other models (ANCHORS.md 2, UNCERTAIN); NVFP4 W4A4 RTN keeps "
     "94-96% of 8B accuracy, below calibrated INT4 W4A16 (97.5-98%, ANCHORS.md 3)"},
    {Format::Int4Wo, 0.030,
     "Llama-3-8B Q4_K_M mean KLD 0.028-0.031 (ANCHORS.md 1); calibrated AWQ/GPTQ g128 placed at "
     "that "
     "level, well below plain RTN Q4_0 (0.072)"},
    {Format::Int8, 0.0028,
     "no KLD figure found: twice int8_wo, since INT8 SmoothQuant W8A8 loses 1.5-2.75% MMLU where "
     "FP8 "
     "and 8-bit weight-only lose under 1% (ANCHORS.md 3)"},
    {Format::Int8Wo, 0.0014, "Llama-3-8B Q8_0 (int8 weight-only) mean KLD 0.001355 (ANCHORS.md 1)"},
    {Format::Fp8, 0.0018,
     "no KLD figure found: FP8 W8A8 rounds the activations as well as the weights, so above "
     "8-bit weight-only Q8_0, but keeps 99.5-100.5% of accuracy (ANCHORS.md 3), so within 1.3x "
     "of it"},
    {Format::Fp8Block, 0.0015,
     "no KLD figure found: fp8 with 128x128 weight and 1x128 activation block scales; block "
     "scales beat per-tensor ones at equal bits (ANCHORS.md 1: K-quant and block formats), placed "
     "between Q8_0 and per-tensor fp8"},
};
constexpr double kSizeExponent = 0.4; // NVFP4 loss 9.1% (3B) vs 6.2% (8B): 1.47x over 2.67x params
constexpr double kSizeReference = 8e9;
constexpr double kLmHeadLayers = 8.0; // lm_head ~8x the median layer (Qwen3-0.6B, ANCHORS.md 5)
constexpr double kKvFp8 = 3e-4;       // assumption: fp8 KV cache near lossless, no KLD figure
// Per-parameter sensitivity of the layer's tensors, relative to q/k/o/gate/up (assumption, no
// per-tensor KLD figure): v_proj and down_proj most sensitive (ANCHORS.md 5: llama.cpp gives
// attn_v and ffn_down more bits; "errors in ffn_down have the highest impact").
constexpr double kSensitivityV = 2.0, kSensitivityDown = 2.0;
constexpr double kMonotoneMargin = 1.05;
// Frozen noise (log-normal sigmas, truncated at 3 sigma). The gap's: a real model sits off any
// fitted scaling law; Chinchilla-style fits leave loss residuals of ~0.01 nats, a tenth of a gap.
constexpr double kSigmaDepth = 0.3, kSigmaFormat = 0.15, kSigmaCell = 0.12, kSigmaGap = 0.1;

double level(Format f)
{
    for (const FormatLevel& l : kLevels)
        if (l.format == f)
            return l.kld;
    return 0.0; // bf16: no quantization damage (its RMQD is the capacity gap)
}

// Assumption (no figure found): GPTQ's error feedback helps int8 weight-only more than plain
// max calibration; at 4 bits AWQ and GPTQ are on par (97.9% GPTQ recovery vs ~95% AWQ MMLU
// loss-based, ANCHORS.md 3), with AWQ slightly ahead on ModelOpt's recipes.
double algorithmFactor(Algorithm a, Format f)
{
    if (f == Format::Int4Wo && a == Algorithm::Gptq)
        return 1.1;
    if (f == Format::Int8Wo && a == Algorithm::Gptq)
        return 0.8;
    return 1.0;
}

std::uint64_t nameKey(const std::string& s)
{
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a
    for (char c : s)
        h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return h;
}

double frozenNormal(std::uint64_t seed, std::uint64_t tag, std::uint64_t a, std::uint64_t b = 0,
                    std::uint64_t c = 0)
{
    SplitMix64 g(mixKey(seed, tag, a, b, c));
    return std::clamp(g.normal(), -3.0, 3.0);
}

// A tensor group's share of one layer's damage: its parameters weighted by their sensitivity.
// The attention and MLP shares sum to 1, so full scope carries the whole K.
double groupDamageShare(const ModelArch& m, TensorGroup g)
{
    const double h = m.hidden, d = m.headDim;
    const double q = h * m.heads * d, kv = h * m.kvHeads * d, o = q;
    const double gateUp = 2.0 * h * m.intermediate, down = h * m.intermediate;
    const double attn = q + kv + kSensitivityV * kv + o;
    const double mlp = gateUp + kSensitivityDown * down;
    return (g == TensorGroup::Attention ? attn : mlp) / (attn + mlp);
}

std::size_t tableIndex(Algorithm a, Format f, Scope s)
{
    return (static_cast<std::size_t>(a) * kFormatCount + static_cast<std::size_t>(f)) *
               kScopeCount +
           static_cast<std::size_t>(s);
}

// U-shaped depth sensitivity: the first layers and the last most sensitive, the late middle
// least (ANCHORS.md 5: llama.cpp use_more_bits, ShortGPT block influence, layer similarity).
double depthProfile(int layer, int numLayers)
{
    const double x = (layer + 0.5) / numLayers;
    return 0.5 + 1.2 * (x - 0.7) * (x - 0.7) + 4.0 * std::exp(-layer / 1.0) +
           (layer == numLayers - 1 ? 2.0 : 0.0);
}

} // namespace

DemoQualityModel::DemoQualityModel(std::vector<ModelArch> models, std::uint64_t seed)
    : models_(std::move(models))
{
    for (const ModelArch& m : models_) {
        if (m.isMoe()) { // its laws (capacitygap.h) are for dense decoders: no rows for it
            per_.emplace_back();
            continue;
        }
        const std::uint64_t key = nameKey(m.name);
        const int L = m.layers;
        PerModel p;
        p.layers = L;
        p.gap = capacityGapNats(m) * std::exp(kSigmaGap * frozenNormal(seed, 1, key));
        p.size = std::pow(kSizeReference / static_cast<double>(m.paramCount()), kSizeExponent);
        p.kv = kKvFp8 * p.size;
        std::vector<double> depth(static_cast<std::size_t>(L));
        double mean = 0.0;
        for (int l = 0; l < L; ++l) {
            depth[static_cast<std::size_t>(l)] =
                depthProfile(l, L) *
                std::exp(kSigmaDepth * frozenNormal(seed, 2, key, static_cast<std::uint64_t>(l)));
            mean += depth[static_cast<std::size_t>(l)] / L;
        }
        // One draw per (model, bit width): how sensitive the model is to 8-bit or 4-bit rounding.
        // Formats of one width share it, so their anchored order (block scales below per-tensor
        // ones, weight-only below W8A8) holds in every model.
        double fmt[kFormatCount];
        for (Format f : kAllFormats)
            fmt[static_cast<int>(f)] =
                std::exp(kSigmaFormat *
                         frozenNormal(seed, 3, key, static_cast<std::uint64_t>(facts(f).bits)));

        // Raw damage per (a, f, tensor group) and layer, then the monotone repair of the 4-bit
        // cells; a scope's damage is the sum of the groups it quantizes (KL adds to second order).
        const std::size_t groupTables = kAlgorithmCount * kFormatCount * kTensorGroupCount;
        auto groupIndex = [](Algorithm a, Format f, TensorGroup g) {
            return (static_cast<std::size_t>(a) * kFormatCount + static_cast<std::size_t>(f)) *
                       kTensorGroupCount +
                   static_cast<std::size_t>(g);
        };
        constexpr TensorGroup kGroups[] = {TensorGroup::Attention, TensorGroup::Mlp};
        std::vector<std::vector<double>> dg(groupTables,
                                            std::vector<double>(static_cast<std::size_t>(L), 0.0));
        for (Algorithm a : kAllAlgorithms)
            for (Format f : kAllFormats)
                for (TensorGroup g : kGroups) {
                    const double share = groupDamageShare(m, g);
                    for (int l = 0; l < L; ++l) {
                        const double cell = std::exp(
                            kSigmaCell * frozenNormal(seed, 4, key, static_cast<std::uint64_t>(l),
                                                      groupIndex(Algorithm::Max, f, g)));
                        dg[groupIndex(a, f, g)][static_cast<std::size_t>(l)] =
                            p.size * level(f) * algorithmFactor(a, f) * share *
                            depth[static_cast<std::size_t>(l)] / mean * fmt[static_cast<int>(f)] *
                            cell;
                    }
                }
        for (TensorGroup g : kGroups)
            for (int l = 0; l < L; ++l) {
                double max8 = 0.0;
                for (Algorithm a : kAllAlgorithms)
                    for (Format f : kAllFormats)
                        if (facts(f).bits == 8)
                            max8 = std::max(max8,
                                            dg[groupIndex(a, f, g)][static_cast<std::size_t>(l)]);
                for (Algorithm a : kAllAlgorithms)
                    for (Format f : kAllFormats)
                        if (facts(f).bits == 4) {
                            double& v = dg[groupIndex(a, f, g)][static_cast<std::size_t>(l)];
                            v = std::max(v, kMonotoneMargin * max8);
                        }
            }
        const std::size_t tables = tableIndex(Algorithm::Gptq, Format::Bf16, Scope::Attn) + 1;
        std::vector<std::vector<double>> d(tables,
                                           std::vector<double>(static_cast<std::size_t>(L), 0.0));
        for (Algorithm a : kAllAlgorithms)
            for (Format f : kAllFormats)
                for (Scope sc : kAllScopes)
                    for (TensorGroup g : kGroups)
                        if (scopeQuantizes(sc, g))
                            for (int l = 0; l < L; ++l)
                                d[tableIndex(a, f, sc)][static_cast<std::size_t>(l)] +=
                                    dg[groupIndex(a, f, g)][static_cast<std::size_t>(l)];
        p.lmHead.assign(static_cast<std::size_t>(kAlgorithmCount * kFormatCount), 0.0);
        for (Algorithm a : kAllAlgorithms)
            for (Format f : kAllFormats)
                p.lmHead[static_cast<std::size_t>(a) * kFormatCount + static_cast<std::size_t>(f)] =
                    p.size * level(f) * algorithmFactor(a, f) * fmt[static_cast<int>(f)] *
                    kLmHeadLayers / L;
        double maxLm8 = 0.0;
        for (std::size_t i = 0; i < p.lmHead.size(); ++i)
            if (facts(static_cast<Format>(i % kFormatCount)).bits == 8)
                maxLm8 = std::max(maxLm8, p.lmHead[i]);
        for (std::size_t i = 0; i < p.lmHead.size(); ++i)
            if (facts(static_cast<Format>(i % kFormatCount)).bits == 4)
                p.lmHead[i] = std::max(p.lmHead[i], kMonotoneMargin * maxLm8);
        p.prefix.assign(tables * static_cast<std::size_t>(L + 1), 0.0);
        for (std::size_t t = 0; t < tables; ++t)
            for (int l = 0; l < L; ++l)
                p.prefix[t * static_cast<std::size_t>(L + 1) + static_cast<std::size_t>(l) + 1] =
                    p.prefix[t * static_cast<std::size_t>(L + 1) + static_cast<std::size_t>(l)] +
                    d[t][static_cast<std::size_t>(l)];
        per_.push_back(std::move(p));
    }
}

double DemoQualityModel::layerDamage(int model, int layer, Format f, Scope s, Algorithm a) const
{
    const PerModel& p = per_[static_cast<std::size_t>(model)];
    const std::size_t base = tableIndex(a, f, s) * static_cast<std::size_t>(p.layers + 1);
    return p.prefix[base + static_cast<std::size_t>(layer) + 1] -
           p.prefix[base + static_cast<std::size_t>(layer)];
}

double DemoQualityModel::rmqd(int model, const BandRecipe& recipe, Algorithm algorithm,
                              bool lmHeadQuantized, KvFormat kv) const
{
    const PerModel& p = per_[static_cast<std::size_t>(model)];
    if (p.layers == 0)
        throw std::invalid_argument("model " + models_[static_cast<std::size_t>(model)].name +
                                    ": the demo quality generator models dense decoders only");
    double sum = 0.0;
    for (const Band& b : recipe) {
        const std::size_t base =
            tableIndex(algorithm, b.format, b.scope) * static_cast<std::size_t>(p.layers + 1);
        sum += p.prefix[base + static_cast<std::size_t>(b.end)] -
               p.prefix[base + static_cast<std::size_t>(b.begin)];
    }
    double out = p.gap + sum / p.layers;
    if (lmHeadQuantized)
        out += p.lmHead[static_cast<std::size_t>(algorithm) * kFormatCount +
                        static_cast<std::size_t>(recipe[recipe.size() - 1].format)];
    if (kv == KvFormat::Fp8)
        out += p.kv;
    return out;
}

namespace
{

Json anchorsJson()
{
    Json a = Json::array();
    for (const FormatLevel& l : kLevels)
        a.push_back({{"parameter", "K[" + std::string(toString(l.format)) + "]"},
                     {"value", l.kld},
                     {"basis", l.basis}});
    a.push_back(
        {{"parameter", "capacity gap (ASSUMPTION)"},
         {"value", "gap = 406.4 (N^-0.34 - N_oracle^-0.34) nats, x frozen noise"},
         {"basis", "ASSUMPTION, no cross-size KLD figure found: KL(oracle || bf16 model) read as "
                   "the model's parameter-limited loss beyond the oracle's in the Chinchilla law "
                   "L = E + A/N^alpha + B/D^beta (Hoffmann et al. 2022, A 406.4, alpha 0.34); "
                   "B/D^beta cancels within a family (one token budget). N = derived parameter "
                   "count"}});
    for (const FamilyOracle& o : familyOracles())
        a.push_back({{"parameter", "oracle[" + std::string(o.family) + "]"},
                     {"value",
                      {{"model", o.name},
                       {"params", o.params},
                       {"dense_equivalent_params", o.denseEquivalentParams}}},
                     {"basis", o.basis}});
    a.push_back(
        {{"parameter", "size exponent"},
         {"value", kSizeExponent},
         {"basis", "NVFP4 W4A4 RTN average recovery Llama-3.2-3B 90.9% vs Llama-3.1-8B 93.8%: loss "
                   "ratio 1.47 over 2.67x parameters (ANCHORS.md 6); smaller models lose more"}});
    a.push_back({{"parameter", "lm_head weight (median layers)"},
                 {"value", kLmHeadLayers},
                 {"basis", "Qwen3-0.6B lm_head sensitivity ~8x the median layer (ANCHORS.md 5)"}});
    a.push_back(
        {{"parameter", "tensor sensitivity v_proj/down_proj (others 1)"},
         {"value", {kSensitivityV, kSensitivityDown}},
         {"basis", "ASSUMPTION after ANCHORS.md 5 (no per-tensor KLD figure): llama.cpp keeps "
                   "attn_v and ffn_down at more bits, ffn_down errors have the highest impact. A "
                   "scope's damage is the sum of its tensor groups' (attention q/k/v/o, MLP "
                   "gate/up/down), each group's share = its parameters x sensitivity over the "
                   "layer's, so full = attn + mlp"}});
    a.push_back(
        {{"parameter", "depth profile"},
         {"value", "0.5 + 1.2 (x - 0.7)^2 + 4 exp(-l) + 2 [l = L-1], x = (l + 0.5)/L, mean 1"},
         {"basis", "first layers (0-2) and the last layer most sensitive, late-middle least "
                   "(ANCHORS.md 5: llama.cpp use_more_bits, ShortGPT, layer similarity)"}});
    a.push_back(
        {{"parameter", "KV fp8"}, {"value", kKvFp8}, {"basis", "assumption: no KLD figure found"}});
    a.push_back({{"parameter", "algorithm factors"},
                 {"value", "int4_wo gptq 1.1 (awq 1.0); int8_wo gptq 0.8 (max 1.0)"},
                 {"basis", "assumption: no per-algorithm KLD figure found"}});
    a.push_back(
        {{"parameter", "noise sigmas depth/(model, bit width)/cell/gap"},
         {"value", {kSigmaDepth, kSigmaFormat, kSigmaCell, kSigmaGap}},
         {"basis", "frozen log-normal noise, truncated at 3 sigma: the data's deviation from a "
                   "smooth law"}});
    return a;
}

// Per model: the assumed gap before and after its frozen noise, so a reader sees the constant.
Json gapsJson(const DemoQualityModel& truth)
{
    Json g = Json::array();
    for (int m = 0; m < static_cast<int>(truth.models().size()); ++m) {
        const ModelArch& arch = truth.models()[static_cast<std::size_t>(m)];
        if (arch.isMoe())
            continue;
        g.push_back({{"model", arch.name},
                     {"oracle", findFamilyOracle(arch.family)->name},
                     {"params", arch.paramCount()},
                     {"gap_law", capacityGapNats(arch)},
                     {"gap", truth.gap(m)}});
    }
    return g;
}

} // namespace

QualitySet generateDemoQualitySet(const std::vector<ModelArch>& models,
                                  const DemoQualityOptions& options, const std::string& command)
{
    if (options.trainRows < 1 || options.bandConfigsPerModel < 0)
        throw std::invalid_argument(
            "generateDemoQualitySet: need trainRows >= 1, bandConfigsPerModel >= 0");
    const DemoQualityModel truth(models, options.seed);
    SplitMix64 rng(options.seed);
    QualitySet set;
    set.synthetic = true;
    set.provenance =
        "SYNTHETIC demo data: no RMQD in this file was measured. Generated by a seeded model: "
        "RMQD = the bf16 model's capacity gap to its family's oracle (Llama-3.1-405B, "
        "Qwen3-235B-A22B, as in the paper; the gap is an ASSUMPTION from the Chinchilla loss law) "
        "+ quantization damage whose uniform-format levels follow published KLD and accuracy "
        "figures (../shared/quality/ANCHORS.md). See docs/QUALITY.md.";
    std::set<std::string> seen;
    auto add = [&](int m, const BandRecipe& r, Algorithm a, bool lm, KvFormat kv) {
        const std::string key = std::to_string(m) + bandsToText(r) + std::string(toString(a)) +
                                (lm ? "L" : "") + std::string(toString(kv));
        if (!seen.insert(key).second)
            return false;
        set.rows.push_back({m, r, a, lm, kv, truth.rmqd(m, r, a, lm, kv), Split::Train});
        return true;
    };
    const std::vector<FormatScope> choices =
        ConfigSpace(2, {.formats = {kAllFormats.begin(), kAllFormats.end()}}).bandChoices();
    for (int m = 0; m < static_cast<int>(models.size()); ++m) {
        if (models[static_cast<std::size_t>(m)].isMoe())
            continue; // the generator models dense decoders only
        const int L = models[static_cast<std::size_t>(m)].layers;
        std::vector<std::pair<BandRecipe, Algorithm>> quantizedUniform;
        for (const FormatScope& c : choices) {
            const BandRecipe r = BandRecipe::uniform(L, c.format, c.scope);
            for (Algorithm a : ConfigSpace::fittingAlgorithms(r)) {
                add(m, r, a, false, KvFormat::Bf16);
                if (c.format != Format::Bf16)
                    quantizedUniform.emplace_back(r, a);
            }
        }
        // Exclusion variants: lm_head quantized, KV fp8, both.
        for (int v = 0; v < 3; ++v) {
            const auto& [r, a] = quantizedUniform[static_cast<std::size_t>(
                rng.below(static_cast<int>(quantizedUniform.size())))];
            add(m, r, a, v != 1, v != 0 ? KvFormat::Fp8 : KvFormat::Bf16);
        }
        for (int made = 0; made < options.bandConfigsPerModel;) {
            const int bands = L >= 3 && rng.uniform() < 0.5 ? 3 : 2;
            int cuts[2] = {1 + rng.below(L - 1), 0};
            if (bands == 3) {
                cuts[1] = 1 + rng.below(L - 1);
                if (cuts[1] == cuts[0])
                    continue;
                if (cuts[1] < cuts[0])
                    std::swap(cuts[0], cuts[1]);
            }
            BandRecipe r;
            int begin = 0, prev = -1;
            for (int b = 0; b < bands; ++b) {
                int pick = rng.below(static_cast<int>(choices.size()));
                if (pick == prev)
                    pick = (pick + 1) % static_cast<int>(choices.size());
                const int end = b + 1 < bands ? cuts[b] : L;
                r.push({begin, end, choices[static_cast<std::size_t>(pick)].format,
                        choices[static_cast<std::size_t>(pick)].scope});
                begin = end;
                prev = pick;
            }
            const std::vector<Algorithm> algos = ConfigSpace::fittingAlgorithms(r);
            if (algos.empty())
                continue;
            const Algorithm a =
                algos[static_cast<std::size_t>(rng.below(static_cast<int>(algos.size())))];
            const bool lm = r[r.size() - 1].format != Format::Bf16 && rng.uniform() < 0.15;
            const KvFormat kv = rng.uniform() < 0.2 ? KvFormat::Fp8 : KvFormat::Bf16;
            if (add(m, r, a, lm, kv))
                ++made;
        }
    }
    // A seeded permutation decides the split; rows stay in generation order for reading.
    const auto n = static_cast<int>(set.rows.size());
    if (options.trainRows >= n)
        throw std::invalid_argument("--train-rows " + std::to_string(options.trainRows) +
                                    " leaves no held-out row of the " + std::to_string(n) +
                                    " generated");
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        order[static_cast<std::size_t>(i)] = i;
    for (int i = n - 1; i > 0; --i)
        std::swap(order[static_cast<std::size_t>(i)],
                  order[static_cast<std::size_t>(rng.below(i + 1))]);
    for (int i = options.trainRows; i < n; ++i)
        set.rows[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])].split =
            Split::Heldout;

    set.generator = {
        {"command", command},
        {"seed", options.seed},
        {"train_rows", options.trainRows},
        {"band_configs_per_model", options.bandConfigsPerModel},
        {"reference", "the family's shared oracle, as in the paper: Llama-3.1-405B for Llama-3.x, "
                      "Qwen3-235B-A22B for Qwen3"},
        {"law", "RMQD = gap(model) + mean over layers of "
                "size*K[format]*alg*(sum over the tensor groups the scope quantizes of "
                "share[group]*noise)*depth(l) + lm_head + kv; damage (measured in the anchors "
                "against the model's own 16-bit weights) adds to the gap; 4-bit group cells >= "
                "1.05 x the largest 8-bit cell (monotone in bits)"},
        {"capacity_gaps", gapsJson(truth)},
        {"anchors", anchorsJson()}};
    return set;
}

} // namespace acsel
