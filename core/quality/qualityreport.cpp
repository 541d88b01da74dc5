#include "core/quality/qualityreport.h"

#include "core/quality/rng.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace acsel
{
namespace
{

struct SplitData {
    std::vector<FeatureVector> trainX, testX;
    std::vector<double> trainY, testY;
    std::vector<int> trainModels, testModels;
};

SplitData splitRows(const std::vector<FeatureVector>& phi, const QualitySet& set,
                    const std::vector<bool>& isTrain)
{
    SplitData d;
    for (std::size_t i = 0; i < set.rows.size(); ++i) {
        (isTrain[i] ? d.trainX : d.testX).push_back(phi[i]);
        (isTrain[i] ? d.trainY : d.testY).push_back(set.rows[i].rmqd);
        (isTrain[i] ? d.trainModels : d.testModels).push_back(set.rows[i].model);
    }
    return d;
}

// Each held-out row predicted with its model's offset (none in a fit without offsets).
double heldoutMdape(const RidgeSurrogate& s, const SplitData& d,
                    const std::vector<std::string>& modelNames)
{
    std::vector<double> pred;
    for (std::size_t i = 0; i < d.testX.size(); ++i)
        pred.push_back(
            s.predict(d.testX[i], modelNames[static_cast<std::size_t>(d.testModels[i])]));
    return mdapePercent(pred, d.testY);
}

ResplitStudy resplitStudy(const std::vector<FeatureVector>& phi, const QualitySet& set,
                          const std::vector<std::string>& modelNames, int trainRows, int resplits,
                          SurrogateOptions options)
{
    ResplitStudy study;
    study.resplits = resplits;
    const std::size_t n = set.rows.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    SplitMix64 rng(options.seed ^ 0x5eed5eedULL);
    for (int r = 0; r < resplits; ++r) {
        for (std::size_t i = n - 1; i > 0; --i)
            std::swap(order[i],
                      order[static_cast<std::size_t>(rng.below(static_cast<int>(i) + 1))]);
        std::vector<bool> isTrain(n, false);
        for (int i = 0; i < trainRows; ++i)
            isTrain[order[static_cast<std::size_t>(i)]] = true;
        const SplitData d = splitRows(phi, set, isTrain);
        options.monotone = false;
        const RidgeSurrogate unconstrained = RidgeSurrogate::fit(d.trainX, d.trainY, options);
        const double plain = heldoutMdape(unconstrained, d, modelNames);
        const std::array<double, 3> slopes = bitSlopesByThird(unconstrained);
        study.nonMonotone += *std::min_element(slopes.begin(), slopes.end()) < 0.0 ? 1 : 0;
        options.monotone = true;
        const RidgeSurrogate mono = RidgeSurrogate::fit(d.trainX, d.trainY, options);
        const double constrained = heldoutMdape(mono, d, modelNames);
        study.unconstrainedMdape.push_back(plain);
        study.constrainedMdape.push_back(constrained);
        const int bound = boundBitWeights(mono);
        study.boundWeights += bound;
        study.binding += bound > 0 ? 1 : 0;
        study.constrainedBetter += constrained < plain ? 1 : 0;
        study.constrainedWorse += constrained > plain ? 1 : 0;
    }
    return study;
}

} // namespace

int boundBitWeights(const RidgeSurrogate& constrained)
{
    int bound = 0;
    for (int k = 0; k < kFeatureCount; ++k)
        if (isBitDeficitFeature(constrained.coding(), k) &&
            constrained.weights()[static_cast<std::size_t>(k)] == 0.0)
            ++bound;
    return bound;
}

std::array<double, 3> bitSlopesByThird(const RidgeSurrogate& s)
{
    const auto w = [&](int a) {
        return s.weights()[static_cast<std::size_t>(layerFeatureIndex(LayerCode::BitDeficit, a))];
    };
    return {w(0) / 3.0 + w(1), w(0) / 3.0 + w(2), w(0) / 3.0 + w(3)};
}

FeatureVector qualityFeatures(FeatureCoding coding, const ModelArch& model, const QualityRow& row)
{
    return qualityFeatures(coding, model, row.recipe, row.algorithm, row.lmHeadQuantized, row.kv);
}

namespace
{

std::vector<std::string> modelNames(const std::vector<ModelArch>& models)
{
    std::vector<std::string> names;
    for (const ModelArch& m : models)
        names.push_back(m.name);
    return names;
}

// The models the set has rows of: the checks of a fit are about them (a model without rows,
// e.g. an MoE model the demo generator does not cover, is predicted by the others' trend).
std::vector<ModelArch> modelsWithRows(const QualitySet& set, const std::vector<ModelArch>& models)
{
    std::vector<bool> has(models.size(), false);
    for (const QualityRow& r : set.rows)
        has[static_cast<std::size_t>(r.model)] = true;
    std::vector<ModelArch> out;
    for (std::size_t i = 0; i < models.size(); ++i)
        if (has[i])
            out.push_back(models[i]);
    return out;
}

std::vector<FeatureVector> setFeatures(FeatureCoding coding, const QualitySet& set,
                                       const std::vector<ModelArch>& models)
{
    std::vector<FeatureVector> phi;
    for (const QualityRow& r : set.rows)
        phi.push_back(qualityFeatures(coding, models[static_cast<std::size_t>(r.model)], r));
    return phi;
}

std::vector<bool> trainingMask(const QualitySet& set)
{
    std::vector<bool> isTrain;
    for (const QualityRow& r : set.rows)
        isTrain.push_back(r.split == Split::Train);
    return isTrain;
}

RidgeSurrogate fitSplit(const SplitData& d, const std::vector<std::string>& names,
                        const SurrogateOptions& options)
{
    if (d.trainX.size() < 2 || d.testX.empty())
        throw std::invalid_argument(
            "the quality set needs at least two training rows and one held-out row (it has " +
            std::to_string(d.trainX.size()) + " and " + std::to_string(d.testX.size()) + ")");
    return RidgeSurrogate::fit(d.trainX, d.trainY, options, d.trainModels, names);
}

} // namespace

RidgeSurrogate fitOnTrainingRows(const QualitySet& set, const std::vector<ModelArch>& models,
                                 const SurrogateOptions& options)
{
    const SplitData d = splitRows(setFeatures(options.coding, set, models), set, trainingMask(set));
    if (d.trainX.size() < 2)
        throw std::invalid_argument("expected at least two training rows to fit the surrogate (" +
                                    std::to_string(d.trainX.size()) + " found)");
    RidgeSurrogate s =
        RidgeSurrogate::fit(d.trainX, d.trainY, options, d.trainModels, modelNames(models));
    s.setTrainingData({set.file, set.synthetic});
    return s;
}

QualityReport evaluateQualitySurrogates(const QualitySet& set, const std::vector<ModelArch>& models,
                                        SurrogateOptions options, int resplits)
{
    const std::vector<bool> isTrain = trainingMask(set);
    const std::vector<std::string> names = modelNames(models);
    const std::vector<ModelArch> checked = modelsWithRows(set, models);
    QualityReport rep;
    auto evaluate = [&](const SurrogateOptions& o) {
        const SplitData d = splitRows(setFeatures(o.coding, set, models), set, isTrain);
        rep.trainRows = static_cast<int>(d.trainX.size());
        rep.heldoutRows = static_cast<int>(d.testX.size());
        SurrogateEvaluation e{fitSplit(d, names, o), 0.0, {}, {}};
        e.surrogate.setTrainingData({set.file, set.synthetic});
        e.heldoutMdape = heldoutMdape(e.surrogate, d, names);
        e.monotonicity = checkMonotonicity(e.surrogate, checked);
        e.scopes = scopeSeparation(e.surrogate, checked);
        return e;
    };
    options.coding = FeatureCoding::Method;
    options.monotone = false;
    rep.unconstrained = evaluate(options);
    options.monotone = true;
    rep.constrained = evaluate(options);
    rep.engine = evaluate(engineSurrogateOptions());
    SurrogateOptions ablation = engineSurrogateOptions();
    ablation.coding = FeatureCoding::Method;
    rep.methodWithOffsets = evaluate(ablation);
    ablation = engineSurrogateOptions();
    ablation.modelOffsets = false;
    rep.engineWithoutOffsets = evaluate(ablation);
    if (resplits > 0)
        rep.resplit = resplitStudy(setFeatures(options.coding, set, models), set, names,
                                   rep.trainRows, resplits, options);
    return rep;
}

} // namespace acsel
