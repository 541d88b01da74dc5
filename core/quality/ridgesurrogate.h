// The quality surrogate: predicted RMQD = exp(b + w . phi(C)), a ridge fit of log(RMQD) on the
// features of features.h (either coding), with w >= 0 on the bit-deficit features (monotone),
// on every quantization feature (the engine's), or without bounds (the unconstrained baseline).
// Log space because RMQD spans decades across models and formats and MdAPE, the error that
// matters, is relative: a squared error on log(RMQD) weighs every decade alike; log(params)
// then acts as a power law. exp() is increasing, so the monotone prior carries over.
//
// Fast path for the search: phi's layer features are weighted sums over layers, so
// log(prediction) = constant(model, algorithm, lm_head, KV) + sum over layers of a term that
// depends only on (layer, format, scope). terms() tabulates per-(format, scope) prefix sums of
// that term over layers once; predictRecipe() is then O(bands), allocation-free.
#pragma once

#include "core/data/jsonfields.h"
#include "core/quality/features.h"
#include "core/quality/ridgecv.h"

#include <array>
#include <string>
#include <vector>

namespace acsel
{

// 2: the algorithm features are the quantized share of the layers (1: plain one-hot), and the
// file says which data it was fitted on (training_data). 3: optional per-model offsets
// (model_offsets); a schema-2 file reads as a surrogate without them. 4: the feature coding
// (feature_coding); a schema-2 or 3 file reads as the Method coding.
inline constexpr int kSurrogateSchemaVersion = 4;

// The search's Engine::qualityTerms (core/search/engine.h) takes the same numbers: slot
// f * kScopeCount + s, prefix over layers 0..L, logTarget = true.
struct SurrogateTerms {
    double constant = 0.0; // log-space constant
    int layers = 0;
    // prefix[(format * kScopeCount + scope) * (layers + 1) + l]: sum of the per-layer log-space
    // terms of layers [0, l) at that format and scope.
    std::vector<double> prefix;

    double rangeSum(Format f, Scope s, int begin, int end) const
    {
        const std::size_t base =
            (static_cast<std::size_t>(f) * kScopeCount + static_cast<std::size_t>(s)) *
            static_cast<std::size_t>(layers + 1);
        return prefix[base + static_cast<std::size_t>(end)] -
               prefix[base + static_cast<std::size_t>(begin)];
    }
};

// Predicted RMQD of a recipe for the terms' (model, algorithm, lm_head, KV). O(bands).
inline double predictRecipeLog(const SurrogateTerms& t, const BandRecipe& r)
{
    double sum = t.constant;
    for (const Band& b : r)
        sum += t.rangeSum(b.format, b.scope, b.begin, b.end);
    return sum;
}
double predictRecipe(const SurrogateTerms& t, const BandRecipe& r);

struct SurrogateOptions {
    FeatureCoding coding = FeatureCoding::Method;
    bool monotone = true;
    // Which weights the monotone fit bounds at >= 0: the bit-deficit features (docs/METHOD.md), or
    // every feature that is 0 for the bf16 model (layer codes, algorithm shares, lm_head and KV
    // flags). The latter guarantees that no quantization predicts better quality than the
    // model's bf16 configuration, nor quantizing one more band or the KV cache better quality.
    bool quantizationNeverHelps = false;
    // A log-space offset per model of the training data (one-hot columns, ridge-penalised like
    // every weight): log(params) alone cannot tell two models of one size apart (Llama-3.1-8B
    // and Qwen3-8B differ by half in bf16 RMQD), and the search then favours the model it
    // underrates. A model without training rows keeps offset 0 (the shared trend).
    bool modelOffsets = false;
    // With quantizationNeverHelps: the least each bounded weight may be, in log RMQD per unit of
    // its feature (every bounded feature lies in [0, 1], 1 = the whole model in the feature's
    // worst case). 0 lets the data price a tensor group at exactly nothing: on the demo data
    // the middle third's attention weights sat at 0 and an int4_wo attention band in it (AWQ,
    // whose weight was 0 too) predicted exactly the bf16 RMQD. The fit is unchanged in form:
    // w_j = floor + v_j, v_j >= 0 ridge-penalised (shrunk toward the floor).
    double weightFloor = 0.0;
    std::vector<double> lambdas = defaultLambdaGrid();
    int folds = 5;
    std::uint64_t seed = 1;
};

// The engine's prior (docs/QUALITY.md 3): a feature at 1 (the whole model quantized in the way
// it measures) costs at least 1 % RMQD, well below the 12 % noise of one measured cell of the
// demo data, so the floor binds only where the data cannot tell a group's cost from zero.
inline constexpr double kQuantizationWeightFloor = 0.01;

// The surrogate the engine searches with (core/search/workspaceengine.cpp) and `acsel report
// quality` evaluates as such: the scope-aware features with every quantization weight >= 0 (no
// move to fewer bits, no quantized band, lm_head or KV cache predicted to help), an offset per
// model.
inline SurrogateOptions engineSurrogateOptions()
{
    SurrogateOptions o;
    o.coding = FeatureCoding::ScopeAware;
    o.quantizationNeverHelps = true;
    o.modelOffsets = true;
    o.weightFloor = kQuantizationWeightFloor;
    return o;
}

// Median absolute percentage error, in percent.
double mdapePercent(const std::vector<double>& predicted, const std::vector<double>& measured);

// What a surrogate was fitted on, so that a saved surrogate keeps its synthetic label.
struct SurrogateTrainingData {
    std::string file;
    bool synthetic = false;
};

class RidgeSurrogate
{
public:
    // X: features of options.coding. rmqd: measured values (> 0), one per feature row. With
    // options.modelOffsets, rowModels
    // holds each row's index into modelNames.
    static RidgeSurrogate fit(const std::vector<FeatureVector>& X, const std::vector<double>& rmqd,
                              const SurrogateOptions& options,
                              const std::vector<int>& rowModels = {},
                              const std::vector<std::string>& modelNames = {});

    // From the features alone: without the model's offset.
    double predictLog(const FeatureVector& phi) const;
    double predict(const FeatureVector& phi) const;
    // With the offset of the named model (none for a model the fit had no rows of).
    double predict(const FeatureVector& phi, const std::string& model) const;
    double predict(const ModelArch& model, const BandRecipe& recipe, Algorithm algorithm,
                   bool lmHeadQuantized, KvFormat kv) const;
    SurrogateTerms terms(const ModelArch& model, Algorithm algorithm, bool lmHeadQuantized,
                         KvFormat kv) const;

    FeatureCoding coding() const { return coding_; }
    // phi(C) in this surrogate's coding.
    FeatureVector features(const ModelArch& model, const BandRecipe& recipe, Algorithm algorithm,
                           bool lmHeadQuantized, KvFormat kv) const;
    bool monotone() const { return monotone_; }
    // Whether the fit bounded weight k at >= 0.
    bool constrained(int k) const { return constrained_[static_cast<std::size_t>(k)]; }
    double lambda() const { return lambda_; }
    double intercept() const { return intercept_; }
    const FeatureVector& weights() const { return weights_; }
    // The log-space offset of a model by name; 0 for a model the fit had no rows of.
    double modelOffset(const std::string& model) const;
    // Whether the fit had per-model offsets but none for `model`: its prediction is then the
    // shared trend over the other models, not its own level.
    bool extrapolatesModel(const std::string& model) const;
    const std::vector<std::pair<std::string, double>>& modelOffsets() const { return offsets_; }
    int trainingRows() const { return trainingRows_; }
    double trainingMdape() const { return trainingMdape_; }
    const std::vector<CvPoint>& cvCurve() const { return cv_; }
    const SurrogateTrainingData& trainingData() const { return trainingData_; }
    void setTrainingData(SurrogateTrainingData d) { trainingData_ = std::move(d); }

    nlohmann::json toJson() const;
    static RidgeSurrogate fromJson(const nlohmann::json& j, const std::string& file);
    // Atomic: written to a temporary file beside `path`, then renamed.
    void save(const std::string& path) const;
    static RidgeSurrogate load(const std::string& path);

private:
    FeatureCoding coding_ = FeatureCoding::Method;
    bool monotone_ = true;
    std::array<bool, kFeatureCount> constrained_{};
    double lambda_ = 0.0;
    double intercept_ = 0.0;
    FeatureVector weights_{};
    std::vector<std::pair<std::string, double>> offsets_; // by model name
    const std::pair<std::string, double>* findOffset(const std::string& model) const;
    int trainingRows_ = 0;
    double trainingMdape_ = 0.0;
    std::vector<CvPoint> cv_;
    SurrogateTrainingData trainingData_;
};

} // namespace acsel
