// The per-request table of whole-model uniform estimates (docs/METHOD.md 3, FracMix), built once,
// and the cheap scores of any band recipe derived from it:
//  - latency: the layer-fraction mix of uniform raw estimates (a lower bound of the full
//    estimate, which adds only band-boundary conversions); in continuous batching, of the
//    uniform estimates at the recipe's own running count (Engine::runningRule), which its
//    exact memory gives;
//  - memory: the same mix, exact (memory is additive over layers);
//  - RMQD: the surrogate's decomposition, exact, O(bands).
// A model mixing dense and MoE layers (decoder_sparse_step > 1, mlp_only_layers) costs its two
// kinds of layer differently, so a band's share of the layers is not its share of the cost:
// there each uniform estimate is split into its dense and its MoE layers' parts, and a band
// takes its share of each kind's layers of each part (the proof is in fracmixtable.cpp).
// A context is one (model, batch, KV format, tensor-parallel degree); recipes vary within it.
// Quality does not depend on the degree: contexts that differ only in it share RMQD terms.
#pragma once

#include "core/model/configspace.h"
#include "core/search/searcher.h"

#include <array>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace acsel
{

struct SearchContext {
    int model = 0;
    int batch = 1;
    KvFormat kv = KvFormat::Bf16;
    int tp = 1;
};

struct SoftScore {
    double rawTtft = 0, rawTpot = 0; // FracMix, uncalibrated
    double memoryBytes = 0;
};

// FracMix and the full estimate of one recipe can agree mathematically (a uniform recipe, a
// band boundary without conversion, memory) and still differ in the last bits (relative
// 1e-15), FracMix above: the screens pass this much above a limit, so that no candidate the
// full gate admits at the limit is lost (the few extra ones are only full-gated).
inline constexpr double kSoftRounding = 1e-12;

// Latency limits applied to FracMix scores without calibrating each candidate: with a monotone
// FMC, calibrated <= limit exactly when raw <= FMC^-1(limit). Sound: every score whose
// calibrated value the gate would find within the limit passes (without a calibration the
// limit is widened by kSoftRounding; with one, the inverse is widened past its rounding).
class LatencyScreen
{
public:
    LatencyScreen(const Calibration& c, double ttftLimitMs, double tpotLimitMs);
    // Whether passes() compares raw scores with raw limits (a monotone FMC): then a score
    // above a failing one fails too.
    bool monotone() const { return monotone_; }
    bool passes(const SoftScore& s) const
    {
        if (monotone_)
            return s.rawTtft <= rawTtft_ && s.rawTpot <= rawTpot_;
        const LatencyMs cal = calibration_.apply({s.rawTtft, s.rawTpot});
        return cal.ttft <= ttft_ && cal.tpot <= tpot_;
    }

private:
    Calibration calibration_;
    bool monotone_;
    double ttft_, tpot_, rawTtft_ = 0, rawTpot_ = 0;
};

class FracMixTable
{
public:
    // Throws std::invalid_argument for an unknown stack.
    FracMixTable(const Engine& e, const Request& q, const SearchOptions& o);

    const Request& request() const { return request_; }
    const Stack& stack() const { return *stack_; }
    const Calibration& calibration() const { return calibration_; }
    double memoryBudget() const { return memoryBudget_; } // min(request budget, device), bytes
    // The memory budget as the screens apply it to FracMix (kSoftRounding above).
    double memoryScreen() const { return memoryBudget_ * (1 + kSoftRounding); }
    double deviceCapacity() const { return deviceCapacity_; }
    const std::vector<SearchContext>& contexts() const { return contexts_; }
    // Runs [first, last) of contexts that differ only in batch and tensor-parallel degree: one
    // model and KV format, so one quality group (ascending batch, then degree), covering every
    // context, the group of the lowest lowestRmqd first.
    const std::vector<std::pair<int, int>>& siblingGroups() const { return siblingGroups_; }
    // A lower bound of the RMQD of every recipe of the context (bestQuality).
    double lowestRmqd(int context) const
    {
        return tables_[static_cast<std::size_t>(context)].lowestRmqd;
    }
    // Contexts of one quality group share every RMQD (one model and KV format).
    int qualityGroup(int context) const
    {
        return tables_[static_cast<std::size_t>(context)].quality[0];
    }
    const ConfigSpace& space(int context) const;
    std::int64_t uniformEstimates() const { return uniformEstimates_; }
    // The componentwise lowest and highest uniform estimate over every context, and the lowest
    // of one context: a recipe's soft score mixes its context's uniform estimates, so it lies
    // within them.
    const SoftScore& lowestUniform() const { return lowest_; }
    const SoftScore& highestUniform() const { return highest_; }
    const SoftScore& lowestUniform(int context) const
    {
        return tables_[static_cast<std::size_t>(context)].lowest;
    }
    // A lower bound of the soft score of each recipe of a block of ConfigSpace::forEachRecipe
    // (`first`, then its last two bands' boundary moved up layer by layer): the bands before
    // those two as soft() mixes them, each layer of the last two at the lower of their two
    // uniform estimates (of its kind of layer when split). A score mixes the uniform estimates
    // by layer share, so it is no lower (to its rounding). Continuous batching: the context's
    // lowestUniform (the running count varies within a block).
    SoftScore lowestOfBlock(int context, const BandRecipe& first) const;
    // Legal recipes over every context: the size of the space a searcher explores.
    std::int64_t recipeCount() const;

    SoftScore soft(int context, const BandRecipe& r) const;
    // `s` (a soft score of a recipe with r's band formats, or a lower bound of it) plus what
    // the activation conversions of r's formats add at least to the raw latency
    // (Engine::conversionLatency): a tighter lower bound, equal to the full estimate up to
    // rounding under static batching. A block's recipes share their formats, so their
    // conversions too.
    SoftScore withConversions(int context, const BandRecipe& r, SoftScore s) const;
    LatencyMs calibrated(const SoftScore& s) const
    {
        return calibration_.apply({s.rawTtft, s.rawTpot});
    }
    // The lowest predicted RMQD over the algorithms that fit the recipe, and that algorithm.
    std::pair<Algorithm, double> bestQuality(int context, const BandRecipe& r) const;
    double quality(int context, Algorithm a, const BandRecipe& r) const;
    double qualityLog(int context, Algorithm a, const BandRecipe& r) const;
    // The surrogate's terms qualityLog sums for the context and algorithm.
    const SurrogateTerms& qualityTerms(int context, Algorithm a) const
    {
        return qualityTerms_[static_cast<std::size_t>(
            tables_[static_cast<std::size_t>(context)].quality[static_cast<std::size_t>(a)])];
    }
    Config config(int context, const BandRecipe& r, Algorithm a) const;
    double normalisedLatency(double ttft, double tpot) const
    {
        return std::max(ttft / request_.ttftBudgetMs, tpot / request_.tpotBudgetMs);
    }

private:
    struct Uniform {
        double ttft = 0, tpot = 0, memory = 0;
    };
    using RunningLatency = std::array<LatencyMs, kChoiceSlots>;
    struct ContextTable {
        int layers = 0;
        // Split by kind of layer (a model mixing dense and MoE layers): `uniform` and
        // `atRunning` hold the dense layers' part, `moe` and `moeAtRunning` the MoE layers';
        // moeBefore[l] counts the MoE layers before layer l, a band's share of the dense part
        // is its dense layers x perDense, of the MoE part its MoE layers x perMoe.
        bool split = false;
        std::vector<int> moeBefore;
        double perDense = 0, perMoe = 0;
        std::array<Uniform, kChoiceSlots> uniform{}; // latency unused when `running` is set
        std::array<Uniform, kChoiceSlots> moe{};
        // Continuous batching: the rule and the uniform latencies at firstRunning + i running
        // requests, for every count a recipe of the context can run.
        std::optional<RunningRule> running;
        int firstRunning = 1;
        std::vector<RunningLatency> atRunning, moeAtRunning;
        std::array<int, kAlgorithmCount> quality{}; // index into qualityTerms_
        LatencyMs conversion;
        SoftScore lowest;
        double lowestRmqd = 0;
    };
    // A band's shares of its context's dense (unsplit: whole) part and of its MoE part; of()
    // mixes a dense-part and an MoE-part value of the band's choice by them.
    struct BandMix {
        double dense = 0, moe = 0;
        double of(double densePart, double moePart) const
        {
            return dense * densePart + moe * moePart;
        }
    };
    static BandMix bandMix(const ContextTable& t, const Band& b)
    {
        if (!t.split)
            return {b.layers() * t.perDense, 0.0};
        const int moe = t.moeBefore[static_cast<std::size_t>(b.end)] -
                        t.moeBefore[static_cast<std::size_t>(b.begin)];
        return {(b.layers() - moe) * t.perDense, moe * t.perMoe};
    }
    void tabulate(const Engine& e, const ConfigSpace& cs, const SearchContext& context,
                  const std::array<int, kAlgorithmCount>& quality);
    double lowestRmqdOf(const ConfigSpace& cs,
                        const std::array<int, kAlgorithmCount>& quality) const;
    // The latency mix of r at its own running count (memoryBytes already mixed into s).
    void mixAtRunning(const ContextTable& t, const BandRecipe& r, SoftScore& s) const;
    void tabulateRunning(const Engine& e, const ConfigSpace& cs, const Config& sample,
                         ContextTable& t);
    // Splits a split context's uniform estimates `whole` (per choice slot, as `estimate`
    // gives them) into the dense layers' part, left in `whole`, and the MoE layers', `moe`.
    void splitByKind(const ConfigSpace& cs, const ContextTable& t,
                     const std::function<Uniform(const BandRecipe&)>& estimate,
                     std::array<Uniform, kChoiceSlots>& whole,
                     std::array<Uniform, kChoiceSlots>& moe);

    Request request_;
    const Stack* stack_ = nullptr;
    Calibration calibration_;
    double memoryBudget_ = 0;
    double deviceCapacity_ = 0;
    std::vector<SearchContext> contexts_;
    std::vector<std::pair<int, int>> siblingGroups_;
    std::vector<ContextTable> tables_;
    std::vector<ConfigSpace> spaces_; // one per model in use
    std::vector<int> spaceOfContext_;
    std::vector<SurrogateTerms> qualityTerms_;
    std::int64_t uniformEstimates_ = 0;
    SoftScore lowest_, highest_;
};

// FracMixTable::bestQuality of the last recipe asked, reused while the same recipe comes for
// contexts of its quality group (the walk hands each recipe to its siblings in a row). One per
// keeper: not shared between threads.
class QualityMemo
{
public:
    std::pair<Algorithm, double> best(const FracMixTable& t, int context, const BandRecipe& r)
    {
        const int group = t.qualityGroup(context);
        if (group != group_ || !(r == recipe_)) {
            value_ = t.bestQuality(context, r);
            group_ = group;
            recipe_ = r;
        }
        return value_;
    }

private:
    int group_ = -1;
    BandRecipe recipe_;
    std::pair<Algorithm, double> value_{};
};

// Resolved lists from the options and the stack (defaults filled in, batches >= concurrency).
std::vector<int> searchModels(const Workspace& ws, const SearchOptions& o);
std::vector<int> searchBatches(const Request& q, const SearchOptions& o);
std::vector<KvFormat> searchKvFormats(const Stack& s, const SearchOptions& o);
std::vector<Format> searchFormats(const Stack& s, const SearchOptions& o);
// The tensor-parallel degrees of one model: those of the options (every power of two up to
// kMaxGpus when empty) that are at most the request's GPUs, legal for the model's heads
// (tpProblem) and costed by the engine (Engine::supportsTp), ascending.
std::vector<int> searchTps(const Engine& e, const ModelArch& arch, const Request& q,
                           const SearchOptions& o);
// SearchOptions::threads, 0 resolved to one per hardware thread.
int searchThreads(const SearchOptions& o);

} // namespace acsel
